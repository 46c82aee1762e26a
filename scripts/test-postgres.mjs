// A throwaway PostgreSQL cluster, for the tests (test/support/postgres.ts) and the benchmarks
// (bench/store-pg.mjs), from Debian's server binaries (package `postgresql`, installed by .ci/run):
// initdb into a fresh temp directory, started on a free 127.0.0.1 port with fsync off, one database
// per caller, stopped by its postmaster's pid and removed by stop(). The server refuses to run as
// root, so as root it runs as the `postgres` user through runuser.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";

export const POSTGRES_ROOT = "/usr/lib/postgresql";

/** The newest installed server's bin directory (EXRATES_TEST_PG_BIN overrides), or undefined. */
export function postgresBinDir() {
  const override = process.env.EXRATES_TEST_PG_BIN;
  if (override) return existsSync(join(override, "initdb")) ? override : undefined;
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(POSTGRES_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(POSTGRES_ROOT, versions[0], "bin") : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** The command line that runs a server binary as the user the server accepts (postgres when this process is root). */
function asServerUser(bin, args) {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

function runAsServerUser(bin, args) {
  const [file, argv] = asServerUser(bin, args);
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
}

const quote = (text) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * A detached shell that stops the server and removes its directory once this process is gone, however
 * it ended (a test worker killed with SIGKILL or SIGTERM runs no exit handler). stop() ends it first.
 */
function watchdog(binDir, data, dir) {
  const [file, argv] = asServerUser(join(binDir, "pg_ctl"), ["stop", "-D", data, "-m", "immediate", "-w", "-t", "20"]);
  const script =
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ` +
    `[ -f ${quote(join(data, "postmaster.pid"))} ] && ${[file, ...argv].map(quote).join(" ")} >/dev/null 2>&1; ` +
    `rm -rf ${quote(dir)}`;
  const child = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  child.unref();
  return child;
}

function postgresIds() {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line)
    throw new Error(
      "running as root needs a `postgres` user to run the test server as (Debian's postgresql package creates it)",
    );
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** Starts a cluster; see scripts/test-postgres.d.mts for what it returns. */
export async function startPostgres() {
  const binDir = postgresBinDir();
  if (!binDir)
    throw new Error(
      `PostgreSQL server binaries not found under ${POSTGRES_ROOT}/*/bin: install Debian's postgresql package (.ci/run does)`,
    );
  const dir = mkdtempSync(join(tmpdir(), "exrates-pg-"));
  const data = join(dir, "data");
  const password = randomBytes(12).toString("hex");
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  let pid;
  const guard = watchdog(binDir, data, dir);
  const stopNow = () => {
    if (pid === undefined) return;
    try {
      runAsServerUser(join(binDir, "pg_ctl"), ["stop", "-D", data, "-m", "immediate", "-w", "-t", "20"]);
    } catch {
      try {
        process.kill(pid, "SIGQUIT");
      } catch {
        // already gone
      }
    }
    pid = undefined;
  };
  // A crashed worker must not leave a server behind.
  const onExit = () => {
    try {
      if (guard.pid !== undefined && guard.exitCode === null) process.kill(guard.pid, "SIGKILL");
    } catch {
      // already gone
    }
    stopNow();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  try {
    runAsServerUser(join(binDir, "initdb"), [
      "-D",
      data,
      "-U",
      "postgres",
      "--pwfile",
      pwfile,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        runAsServerUser(join(binDir, "pg_ctl"), [
          "start",
          "-D",
          data,
          "-w",
          "-t",
          "30",
          "-l",
          join(dir, "log"),
          "-o",
          options,
        ]);
        break;
      } catch (error) {
        // Another process took the port between the probe and the start: try another.
        if (attempt >= 3) {
          const log = existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8") : "";
          throw new Error(`the test PostgreSQL server did not start: ${error.message}\n${log}`, { cause: error });
        }
      }
    }
    pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    const admin = `postgres://postgres:${password}@127.0.0.1:${port}`;
    let databases = 0;
    return {
      port,
      password,
      dir,
      async createDatabase(name = `t${++databases}_${randomBytes(3).toString("hex")}`) {
        const client = new pg.Client({ connectionString: `${admin}/postgres` });
        await client.connect();
        try {
          await client.query(
            `create database "${name}" template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`,
          );
        } finally {
          await client.end();
        }
        return `${admin}/${name}`;
      },
      stop() {
        process.removeListener("exit", onExit);
        onExit();
        return Promise.resolve();
      },
    };
  } catch (error) {
    process.removeListener("exit", onExit);
    onExit();
    throw error;
  }
}

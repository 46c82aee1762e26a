// The CLI's edges, with the built binary: a reader that goes away (`| head`) ends a command quietly,
// and the errors an operator can fix are one line naming what to fix, never "unexpected error". The
// commands that only read open the database read-only and create nothing. Permissions are tested as
// another user when the tests run as root (root reads and writes everything).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

import { CLI } from "../support/cli.js";

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "exrates-edges-"));
  chmodSync(root, 0o755);
  roots.push(root);
  return root;
}
afterAll(() => {
  for (const r of roots) {
    spawnSync("chmod", ["-R", "u+rwX", r]);
    rmSync(r, { recursive: true, force: true });
  }
});

const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI with a clean environment; `other`: as an unprivileged user when running as root. */
function exrates(args: string[], env: Record<string, string>, other = false): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: "/tmp", LOG_LEVEL: "warn", ...env },
    timeout: 60_000,
    ...(other && AS_ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A data directory with a database holding one client. */
function dataDir(): { root: string; data: string; env: Record<string, string> } {
  const root = tempRoot();
  const data = join(root, "data");
  const env = { EXRATES_DATA_DIR: data, EXRATES_OUT_DIR: join(root, "out") };
  const created = exrates(["clients", "create", "erp"], env);
  expect(created.status, created.stderr).toBe(0);
  return { root, data, env };
}

const ONE_LINE = /^exrates: [^\n]+\n$/;

describe("a reader that goes away", () => {
  /** Runs `exrates args | head -1` in bash and returns exrates' exit code and stderr. */
  function intoHead(args: string[], env: Record<string, string>): { code: number; stderr: string } {
    const errFile = join(tempRoot(), "stderr");
    const r = spawnSync(
      "bash",
      ["-c", 'node "$@" 2>"$ERR_FILE" | head -1 >/dev/null; echo "${PIPESTATUS[0]}"', "bash", CLI, ...args],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: "/tmp", LOG_LEVEL: "warn", ERR_FILE: errFile, ...env },
        timeout: 60_000,
      },
    );
    return { code: Number(r.stdout.trim()), stderr: readFileSync(errFile, "utf8") };
  }

  it("exrates banks --json | head -1: no EPIPE trace, exit 0", () => {
    const { env } = dataDir();
    expect(intoHead(["banks", "--json"], env)).toEqual({ code: 0, stderr: "" });
  });

  it("exrates parse … | head -1: no EPIPE trace, exit 0", () => {
    const root = tempRoot();
    const rates: string[] = [];
    for (let day = 0; day < 3000; day++) {
      const date = new Date(Date.UTC(2015, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
      rates.push(`{"validFor":"${date}","currencyCode":"USD","amount":1,"rate":2${day % 10}.123}`);
    }
    const file = join(root, "daily-year.json");
    writeFileSync(file, `{"rates":[${rates.join(",")}]}`);
    expect(intoHead(["parse", "CNB", file], {})).toEqual({ code: 0, stderr: "" });
  });
});

describe("errors an operator can fix are one line", () => {
  it("a port in use", async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((r) =>
      busy.listen(0, "127.0.0.1", () => r((busy.address() as { port: number }).port)),
    );
    try {
      const { env } = dataDir();
      const r = exrates(["serve"], { ...env, EXRATES_PORT: String(port) });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `exrates: cannot listen on 127.0.0.1:${port}: the port is in use (another exrates, or another server); stop it or set EXRATES_PORT\n`,
      );
    } finally {
      busy.close();
    }
  });

  it("a host that does not resolve", () => {
    const { env } = dataDir();
    const r = exrates(["serve"], { ...env, EXRATES_HOST: "no-such-host.invalid", EXRATES_PORT: "0" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^exrates: EXRATES_HOST "no-such-host\.invalid" does not resolve \(E[A-Z_]+\); set it to an address or a name of this machine\n$/,
    );
  });

  it("a LOG_LEVEL pino does not know", () => {
    const r = exrates(["banks"], { LOG_LEVEL: "verbose", EXRATES_DATA_DIR: join(tempRoot(), "data") });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'exrates: LOG_LEVEL "verbose" is not a level; use one of fatal, error, warn, info, debug, trace, silent\n',
    );
  });

  it("exrates banks before the first start lists every bank as never fetched, says where it looked, creates nothing", () => {
    const root = tempRoot();
    const data = join(root, "data");
    const r = exrates(["banks"], { EXRATES_DATA_DIR: data, EXRATES_OUT_DIR: join(root, "out") });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      `exrates: no database at ${join(data, "exrates.db")} yet (\`exrates start\` creates it; EXRATES_DATA_DIR is ${data}): every bank is listed as never fetched\n`,
    );
    const rows = r.stdout.trimEnd().split("\n").slice(1);
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.find((l) => l.startsWith("ECB "))).toMatch(
      // "never fetched: " leads once the bank's previous publication is old enough to call stale, which
      // depends on the hour the test runs.
      / - +never fetched +\S+ +\S+ +0 (never fetched: )?nothing stored yet$/,
    );
    expect(rows.find((l) => l.startsWith("BBK "))).toMatch(/historical only/);
    expect(readdirSync(root)).toEqual([]);
    const json = exrates(["banks", "--json"], { EXRATES_DATA_DIR: data });
    const banks = JSON.parse(json.stdout) as Array<{ id: string; status: { state: string } }>;
    expect(banks.find((b) => b.id === "ECB")!.status.state).toBe("never fetched");
  });

  it.each([[["clients", "list"]], [["anomalies"]]])(
    "exrates %j on a mistyped EXRATES_DATA_DIR says so and creates nothing",
    (args) => {
      const root = tempRoot();
      const r = exrates(args, { EXRATES_DATA_DIR: join(root, "dat"), EXRATES_OUT_DIR: join(root, "out") });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `exrates: no data directory at ${join(root, "dat")}: set EXRATES_DATA_DIR to the directory \`exrates start\` stores into (this command only reads; it creates nothing)\n`,
      );
      expect(readdirSync(root)).toEqual([]);
    },
  );

  it("an empty data directory: no database is created by a command that reads", () => {
    const root = tempRoot();
    mkdirSync(join(root, "data"));
    const r = exrates(["clients", "list"], { EXRATES_DATA_DIR: join(root, "data") });
    expect(r.stderr).toMatch(/^exrates: no database at .*exrates\.db: set EXRATES_DATA_DIR/);
    expect(readdirSync(join(root, "data"))).toEqual([]);
  });
});

describe("a data directory this user cannot write", () => {
  /**
   * The directory and database readable but not writable by the user running the command, while a
   * daemon has the database open (its -wal and -shm files exist, as they do while it runs).
   */
  function readOnlyDataDir() {
    const dir = dataDir();
    const daemon = new BetterSqlite3(join(dir.data, "exrates.db"));
    daemon.prepare("select count(*) from clients").get();
    for (const f of readdirSync(dir.data)) chmodSync(join(dir.data, f), AS_ROOT ? 0o644 : 0o444);
    chmodSync(dir.data, 0o555);
    return { ...dir, close: () => daemon.close() };
  }

  it("while a daemon has it open, banks, clients list and anomalies read it", () => {
    const dir = readOnlyDataDir();
    try {
      const banks = exrates(["banks"], dir.env, true);
      expect(banks.stderr).toBe("");
      expect(banks.status).toBe(0);
      expect(banks.stdout).toMatch(/^BANK +CUR/);
      expect(banks.stdout).toMatch(/^ECB /m);
      const clients = exrates(["clients", "list"], dir.env, true);
      expect(clients.stdout).toMatch(/^erp +enabled +exchange-rates /m);
      const anomalies = exrates(["anomalies"], dir.env, true);
      expect([anomalies.status, anomalies.stdout]).toEqual([0, "no anomalies\n"]);
    } finally {
      dir.close();
    }
  });

  it("a command that writes says which path it cannot write", () => {
    const dir = readOnlyDataDir();
    try {
      const r = exrates(["clients", "create", "another"], dir.env, true);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(ONE_LINE);
      expect(r.stderr).toContain(join(dir.data, "exrates.db"));
      expect(r.stderr).not.toContain("unexpected error");
    } finally {
      dir.close();
    }
  });

  it("with nothing holding it open, SQLite cannot read it there: one line naming the directory and the fix", () => {
    const dir = dataDir();
    for (const f of readdirSync(dir.data)) chmodSync(join(dir.data, f), AS_ROOT ? 0o644 : 0o444);
    chmodSync(dir.data, 0o555);
    for (const args of [["banks"], ["clients", "list"]]) {
      const r = exrates(args, dir.env, true);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `exrates: cannot open the database ${join(dir.data, "exrates.db")}: this user cannot write its directory ${dir.data}, where SQLite keeps ${join(dir.data, "exrates.db")}-shm while it is open; run as the user that owns EXRATES_DATA_DIR, or fix its permissions\n`,
      );
    }
  });

  it("a data directory this user cannot read: one line naming it", () => {
    const dir = dataDir();
    chmodSync(dir.data, AS_ROOT ? 0o700 : 0o000);
    const r = exrates(["banks"], dir.env, true);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `exrates: cannot read the database ${join(dir.data, "exrates.db")}: permission denied (run as the user that owns EXRATES_DATA_DIR, e.g. sudo -u exrates)\n`,
    );
  });
});

// What the benches share: for those that run servers (serve.mjs, latest-s3.mjs, history.mjs, soak.mjs, as-of.mjs,
// convert.mjs, pairs.mjs): a scratch service with its client, pinning to a core, child processes stopped when
// the bench ends however it ends, a free port, waiting for a server to answer, a client's token, an autocannon
// run with the load generator's CPU per request, and a process's CPU time; for the publish benches
// (publish.mjs, publish-signing.mjs), a scratch store with its seeding of synthetic rates.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether a command is on the PATH. */
export const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;

/** Whether processes can be pinned to a core (taskset and at least two cores). */
export const TASKSET = has("taskset") && cpus().length >= 2;

/** `[cmd, args]` running `argv` pinned to `core` (taskset), or unpinned when it cannot be. */
export const pinned = (core, argv) => (TASKSET ? ["taskset", ["-c", String(core), ...argv]] : [argv[0], argv.slice(1)]);

/**
 * Starts and stops child processes; at exit (or SIGINT/SIGTERM) every child still running is killed and
 * `dir`, the bench's scratch directory, removed.
 */
export function processes(dir) {
  const children = new Set();
  process.on("exit", () => {
    for (const c of children) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
  return {
    /** Spawns `[cmd, args]` with its stderr kept (child.stderrText()). */
    start(argv, options = {}) {
      const [cmd, args] = argv;
      const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], ...options });
      let stderr = "";
      child.stderr?.on("data", (c) => (stderr += c));
      child.stderrText = () => stderr;
      children.add(child);
      child.on("exit", () => children.delete(child));
      return child;
    },
    /** SIGTERM, then SIGKILL after 5 s. */
    async stop(child) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers below 500 (every 50 ms, `tries` times); gives up early if `child` exits. */
export async function waitFor(url, { child, tries = 400 } = {}) {
  for (let i = 0; i < tries; i++) {
    if (
      await fetch(url).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return;
    if (child && child.exitCode !== null) break;
    await sleep(50);
  }
  throw new Error(`${url} did not come up${child ? `: ${child.stderrText()}` : ""}`);
}

/** A token of `client` from the server at `base`, by the client-credentials grant. */
export async function clientToken(base, client, attempt = 0) {
  // execFileSync blocks this loop for a whole run: a kept-alive socket may have been closed meanwhile.
  const res = await fetch(`${base}/auth/realms/exrates/protocol/openid-connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: client.scope,
    }),
  }).catch((error) => {
    if (attempt < 2) return undefined;
    throw error;
  });
  if (!res) return clientToken(base, client, attempt + 1);
  if (res.status !== 200) throw new Error(`token: ${res.status}`);
  return (await res.json()).access_token;
}

/** CPU seconds process `pid` has used (user + system), from /proc (Linux; clock ticks of USER_HZ 100). */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds this process's children have used (user + system) once waited for, from /proc (Linux). */
function childrenCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const AUTOCANNON = fileURLToPath(new URL("../node_modules/autocannon/autocannon.js", import.meta.url));

/**
 * One autocannon run of `url` (pinned to core 0, one request in flight per connection): req/s, latency
 * p50 and p99 in ms, and the load generator's own CPU seconds per request (what each answer costs the
 * client to receive). Throws when any request failed or was not answered 2xx, or (unless a warm-up, `warm`)
 * when none was answered in time.
 */
export function autocannon(url, { bearer, connections = 50, seconds = 2, headers = {}, warm = false } = {}) {
  const argv = [AUTOCANNON, "-j", "-c", String(connections), "-d", String(seconds), "-p", "1"];
  if (bearer) argv.push("-H", `authorization=Bearer ${bearer}`);
  for (const [name, value] of Object.entries(headers)) argv.push("-H", `${name}=${value}`);
  argv.push(url);
  const [c, a] = pinned(0, [process.execPath, ...argv]);
  const cpuBefore = childrenCpuSeconds();
  const r = JSON.parse(
    execFileSync(c, a, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] }),
  );
  if (r.errors > 0 || r.non2xx > 0 || (!warm && (r["2xx"] ?? 0) === 0))
    throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total}`);
  const clientCpu = (childrenCpuSeconds() - cpuBefore) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, clientCpu };
}

/**
 * The registry's daily banks (publish.mjs, store-pg.mjs): the benches' synthetic rates are one day's, which
 * a monthly or quarterly source would not publish (its publish refuses them).
 */
export async function dailyAdapters() {
  const { frequencyOf } = await import("../dist/src/feed/adapter.js");
  const { loadAdapters } = await import("../dist/src/feed/registry.js");
  return [...(await loadAdapters()).values()].filter((a) => frequencyOf(a.bank) === "Daily");
}

/** What `exrates import` names as an imported file's origin: the benches' imports give the same. */
export const BENCH_IMPORT = { file: "eurofxref-hist.csv", by: "bench" };

/** The provenance of a bench's synthetic fetch (an import of `url` whose body was `body`). */
export function benchProvenance(url, body = url, at = new Date()) {
  return {
    kind: "import",
    method: "GET",
    url,
    startedAt: at,
    finishedAt: at,
    httpStatus: 200,
    body: Buffer.from(body),
  };
}

/**
 * A scratch service for a bench that serves its own store: a temporary data and out directory (removed at
 * exit), the environment the CLI runs with there, the process helpers, and one API client created by
 * `cli` (the built dist/src/cli/main.js).
 */
export function benchService(name, cli) {
  const dir = mkdtempSync(join(tmpdir(), `exrates-bench-${name}-`));
  const env = {
    ...process.env,
    EXRATES_DATA_DIR: join(dir, "data"),
    EXRATES_OUT_DIR: join(dir, "out"),
    EXRATES_HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    EXRATES_TOKEN_GRANTS_PER_MINUTE: "0",
  };
  const running = processes(dir);
  const client = JSON.parse(
    execFileSync(process.execPath, [cli, "clients", "create", "bench", "--json"], { env, encoding: "utf8" }),
  );
  return { dir, env, client, ...running };
}

/**
 * The publish benches' store (publish.mjs, publish-signing.mjs), in a scratch directory: `seed(bankId,
 * own, date, bump)` stores one fetch of synthetic rates of every code but the bank's own currency on
 * `date` (bump added to each rate); with `unitsEvery`, every that-many-th currency is quoted per 2 units.
 */
export async function publishStore(prefix, codes, { unitsEvery } = {}) {
  const { openStore } = await import("../dist/src/store/database.js");
  const { ingestBatches } = await import("../dist/src/store/rates.js");
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = await openStore(join(dir, "exrates.db"));
  const at = new Date("2026-03-02T14:00:00Z");
  const provenance = (bankId) => benchProvenance("https://bench.example/", bankId, at);
  const seed = (bankId, own, date, bump = 0) =>
    ingestBatches(
      store,
      bankId,
      [
        {
          provenance: provenance(bankId),
          records: codes
            .filter((c) => c !== own)
            .map((currency, i) => ({
              effectiveDate: date,
              currency,
              rate: (1.2345 + i * 0.731 + bump).toFixed(4),
              ...(unitsEvery && i % unitsEvery === 0 ? { unitMultiplier: 2 } : {}),
            })),
        },
      ],
      at,
    );
  return { dir, store, seed };
}

/**
 * One bank's years of rates in a store, as history.mjs and day-index.mjs read them: every weekday from
 * `first` to `last` for each of `currencies` (four decimals, varying by day and currency), one fetch a
 * year. Returns the number of figures stored.
 */
export async function seedYears(store, bankId, currencies, first = 2015, last = 2025) {
  const { ingestBatches } = await import("../dist/src/store/rates.js");
  let figures = 0;
  for (let year = first; year <= last; year++) {
    const records = [];
    for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
      const day = new Date(t);
      if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
      const date = day.toISOString().slice(0, 10);
      currencies.forEach((currency, c) => {
        const n = ((t / 86_400_000) * 7919 + c * 104_729) % 100_000;
        records.push({ effectiveDate: date, currency, rate: (1 + c + n / 100_000).toFixed(4) });
      });
    }
    figures += records.length;
    ingestBatches(store, bankId, [
      {
        provenance: benchProvenance(`https://bench.example/${year}`, String(year)),
        records,
      },
    ]);
  }
  return figures;
}

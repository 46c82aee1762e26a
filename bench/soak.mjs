// Soak: `exrates serve` (the built CLI) under steady authenticated load for 3 minutes, its bearer token
// refreshed every 30 s through the token endpoint, with hostile traffic alongside: every second, ten failed
// logins with 10 KB client ids and five sockets opened and left silent. First, a baseline: the same load
// for 20 s with nothing else. Loopback only; the server pinned to core 1, this driver (autocannon in
// process) to core 0. Reports the median req/s of 10-s windows, p99 latency, errors and non-2xx answers of
// the load, the server's resident memory (median of the first and of the last minute, peak) and how much
// it logged, then writes the "## Soak" section of BENCHMARKS.md.
//
//   npm run build && node bench/soak.mjs        (BENCH_SOAK_SECONDS=180, BENCH_BASELINE_SECONDS=20)
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import autocannon from "autocannon";

import { fmt, median, writeSection } from "./lib.mjs";
import { TASKSET } from "./processes.mjs";
import { writeTree } from "./tree.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 20);
const CONNECTIONS = 50;
const REFRESH_MS = 30_000;
const WINDOW_MS = 10_000;
const PATH = "/v1/Banks/CNB/DailyRates/Latest.json";

if (!existsSync(CLI)) {
  console.error("bench/soak.mjs: run `npm run build` first");
  process.exit(1);
}
// The driver runs on core 0: re-run this script pinned there once.
if (TASKSET && process.env.EXRATES_SOAK_PINNED !== "1") {
  const r = spawnSync("taskset", ["-c", "0", process.execPath, fileURLToPath(import.meta.url)], {
    stdio: "inherit",
    env: { ...process.env, EXRATES_SOAK_PINNED: "1" },
  });
  process.exit(r.status ?? 1);
}

const LOAD_BEFORE = loadavg()[0];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), "exrates-soak-"));
const outDir = join(dir, "out");
writeTree(outDir);

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port: p } = s.address();
    s.close(() => resolve(p));
  });
});
const env = {
  ...process.env,
  EXRATES_DATA_DIR: join(dir, "data"),
  EXRATES_OUT_DIR: outDir,
  EXRATES_HOST: "127.0.0.1",
  EXRATES_PORT: String(port),
  LOG_LEVEL: "info",
};
const client = JSON.parse(
  execFileSync(process.execPath, [CLI, "clients", "create", "soak", "--json"], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }),
);
const [cmd, args] = TASKSET
  ? ["taskset", ["-c", "1", process.execPath, CLI, "serve"]]
  : [process.execPath, [CLI, "serve"]];
const server = spawn(cmd, args, { env, stdio: ["ignore", "ignore", "pipe"] });
let logBytes = 0;
let logLines = 0;
server.stderr.on("data", (c) => {
  logBytes += c.length;
  for (const b of c) if (b === 10) logLines++;
});
process.on("exit", () => {
  server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 200) throw new Error("exrates serve did not come up");
  await sleep(50);
}

async function token() {
  const res = await fetch(`${base}/auth/realms/exrates/protocol/openid-connect/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: client.scope,
    }),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status}`);
  return (await res.json()).access_token;
}

/** The server's resident set now, in MiB. */
const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]) / 1024;
const peakMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]) / 1024;

/** What hostile traffic got back, by status (and sockets the server closed). */
const hostile = { statuses: {}, idleOpened: 0, idleClosedByServer: 0 };
function hostileSecond() {
  for (let i = 0; i < 10; i++) {
    fetch(`${base}/auth/realms/exrates/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: `attacker-${Math.random()}-${"x".repeat(10_000)}`,
        client_secret: "guess",
        scope: client.scope,
      }),
    }).then(
      (r) => {
        hostile.statuses[r.status] = (hostile.statuses[r.status] ?? 0) + 1;
        return r.arrayBuffer();
      },
      () => (hostile.statuses.error = (hostile.statuses.error ?? 0) + 1),
    );
  }
  for (let i = 0; i < 5; i++) {
    const s = connect(port, "127.0.0.1");
    hostile.idleOpened++;
    s.on("error", () => undefined);
    s.on("close", () => hostile.idleClosedByServer++);
  }
}

/** The load for `seconds`: req/s per window, p99, errors and non-2xx; with the soak's extras when asked. */
async function load(seconds, { refresh, attack }) {
  const clients = [];
  let count = 0;
  const windows = [];
  const rss = [];
  let refreshes = 0;
  const first = await token();
  const timers = [
    setInterval(() => {
      windows.push((count * 1000) / WINDOW_MS);
      count = 0;
    }, WINDOW_MS),
    setInterval(() => rss.push(rssMiB()), 5000),
  ];
  if (refresh)
    timers.push(
      setInterval(async () => {
        const t = await token();
        refreshes++;
        for (const c of clients) c.setHeaders({ authorization: `Bearer ${t}` });
      }, REFRESH_MS),
    );
  if (attack) timers.push(setInterval(hostileSecond, 1000));
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}${PATH}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${first}` },
        setupClient: (c) => clients.push(c),
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
    instance.on("response", () => count++);
  });
  for (const t of timers) clearInterval(t);
  return {
    rps: windows.length > 0 ? median(windows) : result.requests.average,
    average: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    refreshes,
    rss,
  };
}

console.error(`baseline: ${BASELINE_SECONDS} s of load alone...`);
const baseline = await load(BASELINE_SECONDS, { refresh: false, attack: false });
const rssBefore = rssMiB();
console.error(`soak: ${SOAK_SECONDS} s, token refreshed every ${REFRESH_MS / 1000} s, hostile traffic alongside...`);
const logBefore = logBytes;
const soak = await load(SOAK_SECONDS, { refresh: true, attack: true });
await sleep(11_000); // the idle sockets' timeout
const peak = peakMiB();
const firstMinute = median(soak.rss.slice(0, 12));
const lastMinute = median(soak.rss.slice(-12));
server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
const soakLogBytes = logBytes - logBefore;

const c = cpus();
const machine = `${c.length} x ${c[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, Linux`;
const hostileAnswers = Object.entries(hostile.statuses)
  .map(([s, n]) => `${fmt(n)} x ${s}`)
  .join(", ");
const section = `## Soak

Command: \`npm run build && node bench/soak.mjs\` (bench/soak.mjs: \`exrates serve\` on 127.0.0.1${TASKSET ? ", pinned to core 1; autocannon in the driver, pinned to core 0" : " (taskset unavailable: not pinned)"};
${CONNECTIONS} connections of authenticated \`GET ${PATH}\`). Baseline: ${BASELINE_SECONDS} s of that load alone. Soak:
${SOAK_SECONDS} s of the same load, the bearer token refreshed every ${REFRESH_MS / 1000} s through the token endpoint
(${soak.refreshes} refreshes, set on every connection), with hostile traffic alongside: every second ten failed
logins with 10 KB client ids and five sockets opened and left silent (${fmt(hostile.idleOpened)} in all).
Machine: ${machine}. Measured ${new Date().toISOString().slice(0, 10)}; 1-minute load average ${fmt(LOAD_BEFORE, 1)} before and
${fmt(loadavg()[0], 1)} after (other processes shared the two cores: throughput and latency are theirs as much as ours;
the errors, memory and log figures are not).

| | median req/s (10-s windows) | p50 ms | p99 ms | requests | errors | non-2xx |
|---|---:|---:|---:|---:|---:|---:|
| baseline (load alone, ${BASELINE_SECONDS} s) | ${fmt(baseline.rps)} | ${fmt(baseline.p50, 2)} | ${fmt(baseline.p99, 2)} | ${fmt(baseline.total)} | ${fmt(baseline.errors)} | ${fmt(baseline.non2xx)} |
| soak (${SOAK_SECONDS} s, token refreshed, under attack) | ${fmt(soak.rps)} | ${fmt(soak.p50, 2)} | ${fmt(soak.p99, 2)} | ${fmt(soak.total)} | ${fmt(soak.errors)} | ${fmt(soak.non2xx)} |

| Figure | Result |
|---|---:|
| server RSS after the baseline | ${fmt(rssBefore, 1)} MiB |
| server RSS, median of the soak's first minute / last minute | ${fmt(firstMinute, 1)} / ${fmt(lastMinute, 1)} MiB (${lastMinute >= firstMinute ? "+" : ""}${fmt(lastMinute - firstMinute, 1)}) |
| server peak RSS (VmHWM) | ${fmt(peak, 1)} MiB |
| hostile logins answered | ${hostileAnswers} |
| silent sockets closed by the server (10 s after accept) | ${fmt(hostile.idleClosedByServer)} of ${fmt(hostile.idleOpened)} |
| the server's log during the soak | ${fmt(soakLogBytes)} bytes, ${fmt(logLines)} lines in all (${fmt((soakLogBytes / SOAK_SECONDS) * 60)} bytes a minute) |
`;

console.log(section);
writeSection(section);
process.exit(soak.errors + soak.non2xx + baseline.errors + baseline.non2xx > 0 ? 2 : 0);

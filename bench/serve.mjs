// Serving benchmark: authenticated GET of Latest.json through `exrates serve` (the built server) against
// a bare node:http server answering the same bytes from memory without auth (the ceiling of a Node
// server; BENCH_BASELINE=nginx: nginx serving the same file instead, installed with apt-get when
// missing), and token grants per second on one core.
//
//   npm run build && node bench/serve.mjs
//
// Short looks while working: BENCH_GRANTS=0 skips the grants, BENCH_WRITE=0 leaves BENCHMARKS.md alone,
// BENCH_PROFILE=<dir> runs the server under `node --cpu-prof` (the profile is written there at its exit),
// BENCH_PIPELINED=n sets the pipelined figure's depth (default 10; 0 skips it), BENCH_CLI=<path> measures
// another build's dist/src/cli/main.js (main's, built apart: a before/after pair with the same bench).
//
// The headline is Latest as clients ask for it: `GET .../DailyRates/Latest` (negotiated, no suffix), each
// of the 50 connections waiting for its answer before the next request (no pipelining). Beside it, the
// same pair pipelined (BENCH_PIPELINED requests in flight per connection): a server then answers many
// requests per turn of its event loop, so its CPU per request is its own work, not the loop's turns.
//
// The load generator is wrk when installed (latency to the microsecond; BENCH_LOADGEN=autocannon for
// autocannon, which reports whole milliseconds), else autocannon. The server under test runs in its own
// process pinned to one core (taskset), the load generator on the other. Each figure is the median of BENCH_RUNS (default 5) runs of BENCH_SECONDS (default 8) at 50
// connections. RSS is the server's peak resident set (VmHWM) after Latest's runs (and apart, after the
// token grants too). The figures are printed
// and written into BENCHMARKS.md under "## Serve" (that section only).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, median, writeSection } from "./lib.mjs";
import { clientToken, freePort, has, pinned, processes, TASKSET, waitFor } from "./processes.mjs";
import { latestJson, writeTree } from "./tree.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LOAD_BEFORE = loadavg()[0];
const CLI = process.env.BENCH_CLI ?? join(ROOT, "dist/src/cli/main.js");
/** The dist/ the CLI belongs to (the server module alone is loaded from it too). */
const DIST = join(CLI, "../../..");
const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
/** The pipelined figure's requests in flight per connection (0: not measured). */
const PIPELINED = Number(process.env.BENCH_PIPELINED ?? 10);
const WRK = "/usr/bin/wrk";
const LOADGEN = process.env.BENCH_LOADGEN ?? (existsSync(WRK) || has("wrk") ? "wrk" : "autocannon");
if (LOADGEN !== "wrk" && LOADGEN !== "autocannon") {
  console.error(`bench/serve.mjs: BENCH_LOADGEN=${LOADGEN}: wrk or autocannon`);
  process.exit(1);
}

if (!existsSync(CLI)) {
  console.error(`bench/serve.mjs: ${CLI} is missing: run \`npm run build\` first`);
  process.exit(1);
}

const SERVER_CORE = 1;
const LOAD_CORE = 0;

// ---- a published tree in the publisher's format, with a realistic Latest.json (33 currencies)
const dir = mkdtempSync(join(tmpdir(), "exrates-bench-serve-"));
const outDir = join(dir, "out");
const dataDir = join(dir, "data");
writeTree(outDir);

const env = {
  ...process.env,
  EXRATES_DATA_DIR: dataDir,
  EXRATES_OUT_DIR: outDir,
  EXRATES_HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  // The grants figure asks for thousands of tokens a second from one client on purpose.
  EXRATES_TOKEN_GRANTS_PER_MINUTE: "0",
};
const client = JSON.parse(
  execFileSync(process.execPath, [CLI, "clients", "create", "bench", "--json"], { env, encoding: "utf8" }),
);

// ---- processes
const { start, stop } = processes(dir);

/** The peak resident set of a process (and its children for nginx), in MiB. */
function peakRssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const token = (base) => clientToken(base, client);

/** CPU seconds a process has used (user + system), from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A load generator's run, with the server's CPU time per request (what other load on the machine changes least). */
function measured(pid, url, options) {
  const before = cpuSeconds(pid);
  const run = load(url, options);
  run.cpuPerRequest = (cpuSeconds(pid) - before) / run.total;
  return run;
}

/** One run of the load generator: req/s, p50 and p99 in microseconds, and how many requests were answered. */
function load(url, options) {
  return LOADGEN === "wrk" ? wrk(url, options) : autocannon(url, options);
}

function autocannon(url, options) {
  const pipeline = String(options.pipeline ?? 1);
  const args = [AUTOCANNON, "-j", "-c", String(CONNECTIONS), "-d", String(options.seconds ?? SECONDS), "-p", pipeline];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push("-H", `${k}=${v}`);
  if (options.method) args.push("-m", options.method);
  if (options.body) args.push("-b", options.body);
  args.push(url);
  const [cmd, argv] = pinned(LOAD_CORE, [process.execPath, ...args]);
  const out = execFileSync(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] });
  const r = JSON.parse(out);
  const statusOk = options.expect ?? 200;
  const ok = r[`${Math.floor(statusOk / 100)}xx`] ?? 0;
  if (r.errors > 0 || r.non2xx > 0 || ok === 0)
    throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total}`);
  // autocannon's latencies are whole milliseconds.
  return { rps: r.requests.average, p50: r.latency.p50 * 1000, p99: r.latency.p99 * 1000, total: r.requests.total };
}

/**
 * A wrk run (one thread, the same connections): its method, body, headers and pipelining in a Lua
 * script, its `--latency` distribution read from the text it prints.
 */
function wrk(url, options) {
  const script = join(dir, "wrk.lua");
  const lua = (v) => JSON.stringify(String(v)); // a JSON string is a valid Lua string literal here (ASCII)
  const lines = [];
  if (options.method) lines.push(`wrk.method = ${lua(options.method)}`);
  if (options.body) lines.push(`wrk.body = ${lua(options.body)}`);
  for (const [k, v] of Object.entries(options.headers ?? {})) lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`);
  lines.push(
    `local depth = ${Number(options.pipeline ?? 1)}`,
    "local batch",
    "init = function() local r = {} for i = 1, depth do r[i] = wrk.format(nil) end batch = table.concat(r) end",
    "request = function() return batch end",
  );
  writeFileSync(script, `${lines.join("\n")}\n`);
  const args = [
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${options.seconds ?? SECONDS}s`,
    "--timeout",
    "10s",
    "--latency",
    "-s",
    script,
    url,
  ];
  const [cmd, argv] = pinned(LOAD_CORE, [existsSync(WRK) ? WRK : "wrk", ...args]);
  const out = execFileSync(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] });
  return readWrk(url, out);
}

/** wrk's `--latency` text: `50%  650.00us`, `N requests in 4.00s`, `Requests/sec: ...`, errors. */
function readWrk(url, out) {
  const micros = (text) => {
    const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
    if (!m) throw new Error(`${url}: cannot read wrk's latency "${text}"`);
    return Number(m[1]) * { us: 1, ms: 1e3, s: 1e6, m: 60e6 }[m[2]];
  };
  const percentile = (p) => micros(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  const total = Number(/(\d+) requests in/.exec(out)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  if (!(total > 0) || bad > 0 || errors > 0)
    throw new Error(`${url}: ${errors} socket errors, ${bad} non-2xx/3xx of ${total}\n${out}`);
  return { rps, p50: percentile(50), p99: percentile(99), total };
}

// ---- the baseline: nginx (installed if missing), else a bare node:http static server
function ensureNginx() {
  if (has("nginx") || existsSync("/usr/sbin/nginx")) return "/usr/sbin/nginx";
  if (process.getuid?.() === 0 && has("apt-get")) {
    console.error("installing nginx (apt-get)...");
    const quiet = { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
    spawnSync("apt-get", ["update", "-qq"], quiet);
    if (spawnSync("apt-get", ["install", "-y", "-qq", "nginx-light"], quiet).status !== 0)
      spawnSync("apt-get", ["install", "-y", "-qq", "nginx"], quiet);
  }
  return existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : undefined;
}

async function startBaseline() {
  const port = await freePort();
  const nginx = process.env.BENCH_BASELINE === "nginx" ? ensureNginx() : undefined;
  const root = join(outDir, "current");
  if (nginx) {
    const prefix = join(dir, "nginx");
    mkdirSync(join(prefix, "logs"), { recursive: true });
    const conf = join(prefix, "nginx.conf");
    writeFileSync(
      conf,
      `worker_processes 1;
daemon off;
master_process off;
pid ${join(prefix, "nginx.pid")};
error_log ${join(prefix, "logs/error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { application/json json; }
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Cache-Control private; add_header Vary "Accept, Accept-Encoding"; }
  }
}
`,
    );
    const child = start(pinned(SERVER_CORE, [nginx, "-p", prefix, "-c", conf]));
    await waitFor(`http://127.0.0.1:${port}/v1/Banks/CNB/DailyRates/Latest.json`, { tries: 200 }).catch((e) => {
      throw new Error(`${e.message}: ${child.stderrText()}`);
    });
    const version = spawnSync(nginx, ["-v"], { encoding: "utf8" }).stderr.trim().replace("nginx version: ", "");
    return { name: `${version} (1 worker, sendfile)`, port, child };
  }
  // A bare node:http server answering the same bytes from memory.
  const script = `const b=require("fs").readFileSync(${JSON.stringify(join(root, "v1/Banks/CNB/DailyRates/Latest.json"))});require("http").createServer((q,s)=>{s.writeHead(200,{"content-type":"application/json; charset=utf-8","content-length":b.length,"cache-control":"private"});s.end(b)}).listen(${port},"127.0.0.1")`;
  const child = start(pinned(SERVER_CORE, [process.execPath, "-e", script]));
  await waitFor(`http://127.0.0.1:${port}/`, { tries: 200 });
  return { name: `bare node:http server (same bytes from memory), Node ${process.version}`, port, child };
}

// ---- runs
// As clients ask for it: no suffix, the format negotiated (JSON without an Accept header).
const path = "/v1/Banks/CNB/DailyRates/Latest";
const results = { exrates: [], baseline: [], grants: [], exratesPipelined: [], baselinePipelined: [] };

const serverPort = await freePort();
const PROFILE = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const server = start(pinned(SERVER_CORE, [process.execPath, ...PROFILE, CLI, "serve"]), {
  env: { ...env, EXRATES_PORT: String(serverPort) },
});
const base = `http://127.0.0.1:${serverPort}`;
await waitFor(`${base}/readyz`, { tries: 200 });
const baseline = await startBaseline();
const baselineUrl = `http://127.0.0.1:${baseline.port}${path}`;

// Warm-up (JIT, connection setup) for both.
load(`${base}${path}`, { seconds: 2, headers: { authorization: `Bearer ${await token(base)}` } });
load(baselineUrl, { seconds: 2 });

/** One run of each server, alternating, with a fresh token for exrates (they live 300 s). */
async function pair(i, pipeline, into, label) {
  const bearer = await token(base);
  const authorization = `Bearer ${bearer}`;
  into.exrates.push(measured(server.pid, `${base}${path}`, { headers: { authorization }, pipeline }));
  into.baseline.push(measured(baseline.child.pid, baselineUrl, { pipeline }));
  const [e, b] = [into.exrates.at(-1), into.baseline.at(-1)];
  console.error(
    `${label} run ${i + 1}/${RUNS}: exrates ${fmt(e.rps)} req/s, p99 ${fmt(e.p99)} µs (${fmt(e.cpuPerRequest * 1e6, 1)} µs CPU/request), ` +
      `baseline ${fmt(b.rps)} req/s, p99 ${fmt(b.p99)} µs (${fmt(b.cpuPerRequest * 1e6, 1)} µs CPU/request); load ${fmt(loadavg()[0], 1)}`,
  );
}
for (let i = 0; i < RUNS; i++)
  await pair(i, 1, { exrates: results.exrates, baseline: results.baseline }, "unpipelined");
// The peak under Latest's load with a token granted (the unpipelined runs, as clients load it).
const rss = peakRssMiB(server.pid);
for (let i = 0; i < (PIPELINED > 0 ? RUNS : 0); i++)
  await pair(
    i,
    PIPELINED,
    { exrates: results.exratesPipelined, baseline: results.baselinePipelined },
    `${PIPELINED} pipelined`,
  );
const pipelinedRss = peakRssMiB(server.pid);
// The token grants below (50 connections waiting on RS256 signatures) raise the peak further, and are
// reported apart.
const form = new URLSearchParams({
  grant_type: "client_credentials",
  client_id: client.client_id,
  client_secret: client.client_secret,
  scope: client.scope,
}).toString();
for (let i = 0; i < (process.env.BENCH_GRANTS === "0" ? 0 : RUNS); i++) {
  results.grants.push(
    load(`${base}/auth/realms/exrates/protocol/openid-connect/token`, {
      method: "POST",
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
  );
  console.error(`grants run ${i + 1}/${RUNS}: ${fmt(results.grants.at(-1).rps)} grants/s`);
}
const grantsRss = peakRssMiB(server.pid);
await stop(server);
await stop(baseline.child);

// The same load against the server module alone (what `exrates start` embeds), without the CLI's
// other commands (publisher, adapters) loaded: the server's own footprint.
const slimPort = await freePort();
const slimScript = `
  const { startServer } = await import(${JSON.stringify(join(DIST, "src/serve/server.js"))});
  const { loadConfig } = await import(${JSON.stringify(join(DIST, "src/config.js"))});
  const { openStore } = await import(${JSON.stringify(join(DIST, "src/store/database.js"))});
  const { createLogger } = await import(${JSON.stringify(join(DIST, "src/log.js"))});
  const config = loadConfig(process.env);
  const s = await startServer({ config, store: await openStore(config.databasePath), log: createLogger("warn", false) });
  process.on("SIGTERM", () => s.close().then(() => process.exit(0)));`;
const slim = start(pinned(SERVER_CORE, [process.execPath, "--input-type=module", "-e", slimScript]), {
  env: { ...env, EXRATES_PORT: String(slimPort) },
});
const slimBase = `http://127.0.0.1:${slimPort}`;
await waitFor(`${slimBase}/readyz`, { tries: 200 });
load(`${slimBase}${path}`, { headers: { authorization: `Bearer ${await token(slimBase)}` } });
const slimRss = peakRssMiB(slim.pid);
await stop(slim);

const m = (list, key) => median(list.map((r) => r[key]));
const figures = (list) => ({
  rps: m(list, "rps"),
  p50: m(list, "p50"),
  p99: m(list, "p99"),
  cpu: m(list, "cpuPerRequest"),
});
const ex = figures(results.exrates);
const bl = figures(results.baseline);
const exP = PIPELINED > 0 ? figures(results.exratesPipelined) : undefined;
const blP = PIPELINED > 0 ? figures(results.baselinePipelined) : undefined;
const grants = results.grants.length
  ? { rps: m(results.grants, "rps"), p50: m(results.grants, "p50"), p99: m(results.grants, "p99") }
  : undefined;
const verdict = (ok) => (ok ? "met" : "**missed**");
const grantsRow = grants
  ? `${fmt(grants.rps)} (p50 ${fmt(grants.p50)} µs, p99 ${fmt(grants.p99)} µs) | >= 2,000 | ${verdict(grants.rps >= 2000)}`
  : "not measured (BENCH_GRANTS=0) | >= 2,000 |";
const loadgen =
  LOADGEN === "wrk" ? "wrk, one thread, latency to the microsecond" : "autocannon, latency in whole milliseconds";
const ratio = ex.rps / bl.rps;
const c = cpus();
const machine = `${c.length} x ${c[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, Linux`;

const pipelinedRows =
  exP && blP
    ? `| exrates serve, ${PIPELINED} pipelined per connection | ${fmt(exP.rps)} | ${fmt(exP.cpu * 1e6, 1)} | ${fmt(exP.p50)} | ${fmt(exP.p99)} |
| ${baseline.name.split(" (")[0]}, ${PIPELINED} pipelined per connection | ${fmt(blP.rps)} | ${fmt(blP.cpu * 1e6, 1)} | ${fmt(blP.p50)} | ${fmt(blP.p99)} |
`
    : "";
const pipelinedFigures =
  exP && blP
    ? `| req/s ratio, ${PIPELINED} pipelined per connection (beside the headline) | ${fmt(exP.rps / blP.rps, 2)}x | | |
| server CPU per request ratio, pipelined | ${fmt(blP.cpu / exP.cpu, 2)}x | | |
| peak RSS of \`exrates serve\` after the pipelined runs too | ${fmt(pipelinedRss, 1)} MiB | | |
`
    : "";

const section = `## Serve

Command: \`npm run build && node bench/serve.mjs\` (${loadgen}, ${CONNECTIONS} connections, each waiting for its answer
(no pipelining; beside it ${PIPELINED > 0 ? `${PIPELINED} requests pipelined on each` : "nothing pipelined: BENCH_PIPELINED=0"}), ${SECONDS} s per run, median of ${RUNS} runs;
server pinned to core ${SERVER_CORE}, load generator to core ${LOAD_CORE}${TASKSET ? " with taskset" : " (taskset unavailable: not pinned)"}).
Machine: ${machine}. Measured ${new Date().toISOString().slice(0, 10)}; 1-minute load average ${fmt(LOAD_BEFORE, 1)} before and
${fmt(loadavg()[0], 1)} after the runs (anything well above 2 means other processes shared the two cores, and the figures,
latency above all, are theirs as much as ours).

Authenticated \`GET ${path}\` as clients ask for it (no suffix: JSON negotiated; ${Buffer.byteLength(latestJson)} bytes, identity
encoding, bearer token verified once then cached) against ${baseline.name} serving the same bytes without auth.
The load generator has one core too; when it is what limits the baseline, the ratio below is an upper bound.

| | req/s | server CPU µs/request | p50 µs | p99 µs |
|---|---:|---:|---:|---:|
| exrates serve (with bearer check) | ${fmt(ex.rps)} | ${fmt(ex.cpu * 1e6, 1)} | ${fmt(ex.p50)} | ${fmt(ex.p99)} |
| ${baseline.name.split(" (")[0]} (no auth) | ${fmt(bl.rps)} | ${fmt(bl.cpu * 1e6, 1)} | ${fmt(bl.p50)} | ${fmt(bl.p99)} |
${pipelinedRows}
| Figure | Result | Target | |
|---|---:|---:|---|
| req/s ratio to the baseline, unpipelined (the headline) | ${fmt(ratio, 2)}x | >= 0.85x | ${verdict(ratio >= 0.85)} |
| server CPU per request, baseline / exrates, unpipelined | ${fmt(bl.cpu / ex.cpu, 2)}x | | |
| p99 latency at ${CONNECTIONS} connections, unpipelined | ${fmt(ex.p99)} µs (baseline ${fmt(bl.p99)} µs) | < 2,000 µs | ${verdict(ex.p99 < 2000)} |
| peak RSS (VmHWM) of \`exrates serve\` under Latest's load, a token granted (the CLI process; it imports only the serve command's modules) | ${fmt(rss, 1)} MiB | < 90 MB | ${verdict(rss * 1.048576 < 90)} |
${pipelinedFigures}| peak RSS (VmHWM) of the server module alone (\`startServer\`, same load) | ${fmt(slimRss, 1)} MiB | < 90 MB | ${verdict(slimRss * 1.048576 < 90)} |
| token grants/s on one core (client_secret_post, RS256) | ${grantsRow} |
| peak RSS of \`exrates serve\` after the token grants too | ${grants ? `${fmt(grantsRss, 1)} MiB` : "not measured"} | | |
`;

console.log(section);
if (process.env.BENCH_WRITE !== "0") writeSection(section);
process.exit(0);

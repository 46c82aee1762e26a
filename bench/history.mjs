// History benchmark: date lookups and one-year ranges (JSON, CSV, XLSX) of a bank with 40 currencies,
// against the same bank's Latest.json served by the same `exrates serve` in the same run.
//
//   npm run build && node bench/history.mjs
//
// The store holds eleven years of weekday rates of CNB (40 currencies, ~115,000 rows), published once
// so that Latest exists. The server runs in its own process pinned to core 1 (taskset), autocannon on
// core 0. Latest and the date lookups are measured at 50 connections (throughput); the ranges at one
// connection (the latency of one response, which is what the target is about) and at 50. The cases
// take turns, BENCH_RUNS (default 3) rounds of BENCH_SECONDS (default 5) each; every figure is a median.
// The headline is the random-date case against Latest. The figures are printed and written into
// BENCHMARKS.md under "## History" (that section only).
//
// BENCH_ONLY=<regex>: Latest and the matching cases only, printed (BENCHMARKS.md left alone);
// BENCH_PROFILE=<dir>: the server writes a CPU profile there (node --cpu-prof);
// BENCH_LOADER_LATEST=1: the random-date load generator asks for Latest.json (its own ceiling).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, writeSection } from "./lib.mjs";
import { clientToken, freePort, pinned, processes, seedYears, waitFor } from "./processes.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOAD_BEFORE = loadavg()[0];

// 40 currencies, as CNB quotes.
const CURRENCIES = (
  "AUD BGN BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB " +
  "TRY USD XDR ZAR ARS CLP COP EGP KZT NGN PKR SAR UAH"
).split(" ");

// `node bench/history.mjs load <url> <bearer> <connections> <seconds>`: the load of the uncached date
// lookups, run in its own process: every request asks for another date (any day of 2015-2025, each
// format), so nearly every one misses the server's cache of dated answers.
if (process.argv[2] === "load") {
  const { default: run } = await import("autocannon");
  const [url, bearer, connections, seconds, mode] = process.argv.slice(3);
  const formats = ["", ".json", ".xml", ".csv"];
  const start = Date.UTC(2015, 0, 1);
  const result = await run({
    url,
    connections: Number(connections),
    duration: Number(seconds),
    headers: { authorization: `Bearer ${bearer}` },
    requests: [
      {
        setupRequest: (req) => {
          const day = new Date(start + Math.floor(Math.random() * 4017) * 86_400_000).toISOString().slice(0, 10);
          if (process.env.BENCH_LOADER_LATEST) return { ...req, path: `/v1/Banks/CNB/DailyRates/Latest.json` };
          const path = `/v1/Banks/CNB/DailyRates/${day}${formats[Math.floor(Math.random() * 4)]}`;
          if (mode !== "subsets") return { ...req, path };
          // Every currency but one, the one at random: ~40 times as many distinct answers as dates and formats.
          const drop = Math.floor(Math.random() * CURRENCIES.length);
          return { ...req, path: `${path}?currencies=${CURRENCIES.filter((_, i) => i !== drop).join(",")}` };
        },
      },
    ],
  });
  console.log(JSON.stringify(result));
  process.exit(0);
}

if (!existsSync(CLI)) {
  console.error("bench/history.mjs: run `npm run build` first");
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "exrates-bench-history-"));
const env = {
  ...process.env,
  EXRATES_DATA_DIR: join(dir, "data"),
  EXRATES_OUT_DIR: join(dir, "out"),
  EXRATES_HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  EXRATES_TOKEN_GRANTS_PER_MINUTE: "0",
};
const { start } = processes(dir);

// ---- the data: 40 currencies, every weekday of 2015-2025
const client = JSON.parse(
  execFileSync(process.execPath, [CLI, "clients", "create", "bench", "--json"], { env, encoding: "utf8" }),
);
const { openStore } = await import(join(ROOT, "dist/src/store/database.js"));
const { recordQuoting } = await import(join(ROOT, "dist/src/store/anomalies.js"));
const store = await openStore(join(env.EXRATES_DATA_DIR, "exrates.db"));
const rows = await seedYears(store, "CNB", CURRENCIES);
recordQuoting(store, "CNB", "CZK", "Direct");
await store.close();
execFileSync(process.execPath, [CLI, "publish", "CNB"], { env, stdio: "ignore" });

// ---- the server
const port = await freePort();
const metricsPort = await freePort();
// BENCH_PROFILE=dir: the server writes a CPU profile there (node --cpu-prof) when it stops.
const PROFILE = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const server = start(pinned(1, [process.execPath, ...PROFILE, CLI, "serve"]), {
  env: { ...env, EXRATES_PORT: String(port), EXRATES_METRICS_PORT: String(metricsPort) },
});
const base = `http://127.0.0.1:${port}`;
await waitFor(`${base}/readyz`, { child: server, tries: 200 });

const token = () => clientToken(base, client);

/** The server's count of dated answers served from its cache (hit) and read and rendered (miss). */
async function answerCache(attempt = 0) {
  // As token(): a kept-alive socket may have been closed while autocannon ran.
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch((error) => {
    if (attempt < 2) return undefined;
    throw error;
  });
  if (!res) return answerCache(attempt + 1);
  const text = await res.text();
  const count = (result) =>
    Number(new RegExp(`^exrates_history_answer_cache_total\\{result="${result}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
  return { hit: count("hit"), miss: count("miss") };
}

function autocannon(path, bearer, connections, seconds = SECONDS) {
  const argv = path.startsWith("random ")
    ? [fileURLToPath(import.meta.url), "load", base, bearer, String(connections), String(seconds), path.slice(7)]
    : [AUTOCANNON, "-j", "-c", String(connections), "-d", String(seconds), "-p", "1"];
  if (!path.startsWith("random ")) argv.push("-H", `authorization=Bearer ${bearer}`, `${base}${path}`);
  const [c, a] = pinned(0, [process.execPath, ...argv]);
  const r = JSON.parse(
    execFileSync(c, a, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] }),
  );
  if (r.errors > 0 || r.non2xx > 0 || (r["2xx"] ?? 0) === 0)
    throw new Error(`${path}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

const CASES = [
  { name: "Latest.json (published file)", path: "/v1/Banks/CNB/DailyRates/Latest.json", connections: 50 },
  {
    name: "date lookup, JSON (a Saturday: Friday's set)",
    path: "/v1/Banks/CNB/DailyRates/2025-06-14",
    connections: 50,
  },
  { name: "date lookup, CSV", path: "/v1/Banks/CNB/DailyRates/2025-06-13.csv", connections: 50 },
  { name: "date lookups, a random date and format each", path: "random dates", connections: 50 },
  {
    name: "date lookups, a random date, format and 39-currency filter each",
    path: "random subsets",
    connections: 50,
  },
  { name: "one-year range, JSON", path: "/v1/Banks/CNB/DailyRates?from=2025-01-01&to=2025-12-31", connections: 1 },
  { name: "one-year range, CSV", path: "/v1/Banks/CNB/DailyRates.csv?from=2025-01-01&to=2025-12-31", connections: 1 },
  { name: "one-year range, XLSX", path: "/v1/Banks/CNB/DailyRates.xlsx?from=2025-01-01&to=2025-12-31", connections: 1 },
  {
    name: "one-year range, JSON, 50 connections",
    path: "/v1/Banks/CNB/DailyRates?from=2025-01-01&to=2025-12-31",
    connections: 50,
  },
];

// BENCH_ONLY=regex: only Latest and the cases whose name matches, printed, BENCHMARKS.md left alone.
if (process.env.BENCH_ONLY) {
  const only = new RegExp(process.env.BENCH_ONLY, "i");
  for (let i = CASES.length - 1; i > 0; i--) if (!only.test(CASES[i].name)) CASES.splice(i, 1);
}

/**
 * fetch, asked again once when the server had closed the kept-alive socket it went out on (autocannon's
 * runs block this loop; on a loaded machine they outlast the server's 5 s keep-alive timeout).
 */
const get = (url, init) =>
  fetch(url, init).catch((error) => {
    if (error.cause?.code !== "UND_ERR_SOCKET") throw error;
    return fetch(url, init);
  });

const bearer0 = await token();
for (const c of CASES) {
  if (c.path.startsWith("random ")) {
    c.bytes = NaN;
    // One dated answer first: the bank's index of days is built on its first miss (a read of all its rows).
    const first = await get(`${base}/v1/Banks/CNB/DailyRates/2015-01-02?currencies=USD`, {
      headers: { authorization: `Bearer ${bearer0}` },
    });
    if (first.status !== 200) throw new Error(`first dated lookup: ${first.status}`);
    autocannon(c.path, bearer0, c.connections, 1);
    continue;
  }
  const res = await get(`${base}${c.path}`, { headers: { authorization: `Bearer ${bearer0}` } });
  if (res.status !== 200) throw new Error(`${c.path}: ${res.status}`);
  c.bytes = (await res.arrayBuffer()).byteLength;
  autocannon(c.path, bearer0, c.connections, 1); // warm-up
}
/** CPU seconds the server process has used (user + system), from /proc (Linux). */
function serverCpu() {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

// The cases take turns (run 1 of each, then run 2 of each...), so that other work on the machine
// weighs on each case alike; each run's server CPU time per request is recorded too (what a busy
// machine changes least).
for (const c of CASES) Object.assign(c, { runs: [], hit: 0, miss: 0 });
for (let i = 0; i < RUNS; i++) {
  for (const c of CASES) {
    const bearer = await token();
    const cacheBefore = await answerCache();
    const cpuBefore = serverCpu();
    const run = autocannon(c.path, bearer, c.connections);
    run.cpuPerRequest = (serverCpu() - cpuBefore) / (run.rps * SECONDS);
    const cacheAfter = await answerCache();
    c.hit += cacheAfter.hit - cacheBefore.hit;
    c.miss += cacheAfter.miss - cacheBefore.miss;
    c.runs.push(run);
    console.error(
      `${c.name} run ${i + 1}/${RUNS}: ${fmt(run.rps)} req/s, p50 ${run.p50} ms, ${fmt(run.cpuPerRequest * 1e6)} µs CPU/request`,
    );
  }
}
for (const c of CASES) {
  c.missShare = c.hit + c.miss ? c.miss / (c.hit + c.miss) : NaN;
  c.rps = median(c.runs.map((r) => r.rps));
  c.p50 = median(c.runs.map((r) => r.p50));
  c.p99 = median(c.runs.map((r) => r.p99));
  c.cpu = median(c.runs.map((r) => r.cpuPerRequest));
  // Each run against the Latest run of the same round.
  c.ratio = median(c.runs.map((r, i) => r.rps / CASES[0].runs[i].rps));
}
server.kill("SIGTERM");
const LOAD_AFTER = loadavg()[0];
if (process.env.BENCH_ONLY) {
  await new Promise((resolve) => server.once("exit", resolve));
  for (const c of CASES)
    console.log(
      `${c.name}: ${fmt(c.rps)} req/s (${fmt(c.ratio, 2)}x Latest), ${fmt(c.cpu * 1e6)} µs CPU/request` +
        (Number.isNaN(c.missShare) ? "" : `, ${fmt(100 * c.missShare)}% cache misses`),
    );
  process.exit(0);
}

const lookup = CASES[1];
const rangeJson = CASES.find((c) => c.name === "one-year range, JSON");
const random = CASES.find((c) => c.path === "random dates");
const subsets = CASES.find((c) => c.path === "random subsets");
const pct = (share) => (Number.isNaN(share) ? "-" : `${fmt(100 * share)}%`);
const table = [
  "| request | bytes | connections | req/s | x Latest | server CPU µs/request | cache misses | p50 ms | p99 ms |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...CASES.map(
    (c) =>
      `| ${c.name} | ${Number.isNaN(c.bytes) ? "-" : fmt(c.bytes)} | ${c.connections} | ${fmt(c.rps)} | ${fmt(c.ratio, 2)} | ${fmt(c.cpu * 1e6)} | ${pct(c.missShare)} | ${fmt(c.p50, 2)} | ${fmt(c.p99, 2)} |`,
  ),
];
const met = (ok) => (ok ? "met" : "not met");
const targets = [
  "| Figure | Result | Target | |",
  "|---|---:|---:|---|",
  `| **date lookups, a random date and format each: req/s / Latest req/s** (the headline) | ${fmt(random.ratio, 2)}x | >= 0.5x | ${met(random.ratio >= 0.5)} |`,
  `| the same, every request a miss (a random 39-currency filter too) | ${fmt(subsets.ratio, 2)}x | >= 0.5x | ${met(subsets.ratio >= 0.5)} |`,
  `| one date asked again and again | ${fmt(lookup.ratio, 2)}x | >= 0.5x | ${met(lookup.ratio >= 0.5)} |`,
  `| one-year JSON range, p50 at one connection | ${fmt(rangeJson.p50, 2)} ms | < 20 ms | ${met(rangeJson.p50 < 20)} |`,
];
const section = `## History

Command: \`npm run build && node bench/history.mjs\` (autocannon, ${SECONDS} s per run, ${RUNS} runs of each case
taken in turns, medians; server pinned to core 1, load generator to core 0 with taskset). The store holds
${fmt(rows)} rows: every weekday of 2015-2025 of CNB with 40 currencies; Latest.json is the published file of the
same bank, served by the same server in the same run (the baseline). "x Latest" is the median over the rounds
of a run's req/s over the Latest run of the same round. Server CPU per request is the server process's user +
system time over the run (/proc) divided by its requests: what other work on the machine changes least.
Cache misses: the share of dated requests the server read and rendered rather than took from its cache of
rendered answers (its \`exrates_history_answer_cache_total\` counter, on \`/metrics\`). Identity encoding, a
bearer token verified once then cached.
Machine: ${machine()}, Linux. Measured ${new Date().toISOString().slice(0, 10)}; 1-minute load average
${LOAD_BEFORE.toFixed(1)} before and ${LOAD_AFTER.toFixed(1)} after the runs.

${table.join("\n")}

${targets.join("\n")}

The random-date lookups ask for any day of the eleven years (weekends included) in JSON, XML or CSV: about
8,600 distinct answers, which the cache of whole-day answers (16 MiB, src/serve/resources/history/answer-cache.ts) holds:
their share of misses is what their first round's first sight of each answer costs over all their requests.
The filtered case makes every request a new answer: it measures the uncached path alone (one packed read of
the date's rows with each row's version, the filter, the rendering, the ETag). Filtered answers have a cache
of their own (4 MiB), so the filtered case does not push the whole-day answers out between two rounds. The
repeated date is answered from the cache after its first request. The target is met through that cache: a request that misses it
(read, filter, rendering, ETag, a new entry) costs about four times the CPU of one it answers, which is the
"every request a miss" row; bench/hot-keys.mjs shows why the repeated date was once slower than the random
ones (a Map re-inserted at each hit).${LOAD_BEFORE > 2 ? ` The machine was shared with other work during this run (load above 2): the absolute figures are worse than a quiet machine's; the ratios, measured in turns in the same run, and the CPU per request less so.` : ""}
`;
console.log(section);
writeSection(section);

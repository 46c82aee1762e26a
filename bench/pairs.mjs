// Pairs benchmark: `GET /v1/Pairs/USD/JPY/{date}` across every bank stored (30 banks), and a year of
// monthly averages of one bank (`DailyRates?from&to&group=month`, 40 currencies), against the same
// server's Latest.json (the published file) in the same run. Target (issue 36): each >= 0.3x Latest.
//
//   npm run build && node bench/pairs.mjs
//
// The store holds a year (2025) of weekdays of CNB (40 currencies) and 29 other banks' sets of the last
// week of 2025 (each its own base currency, Direct, 39 figures). The server runs pinned to core 1, autocannon
// on core 0, 50 connections; BENCH_RUNS (default 5) rounds of BENCH_SECONDS (default 2) each, the cases
// taking turns; medians. Both answers are kept per store generation once made: this measures that path.
// Written into BENCHMARKS.md under "## Pairs and averages" unless BENCH_ONLY is set (Latest and the cases
// matching it, printed only); BENCH_PROFILE=<dir>: the server writes a CPU profile there (node --cpu-prof).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, writeSection } from "./lib.mjs";
import {
  autocannon,
  benchProvenance,
  benchService,
  clientToken,
  cpuSeconds,
  freePort,
  pinned,
  waitFor,
} from "./processes.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const LOAD_BEFORE = loadavg()[0];
const CURRENCIES = (
  "AUD BGN BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB " +
  "TRY USD XDR ZAR ARS CLP COP EGP KZT NGN PKR SAR UAH"
).split(" ");
const FIRST = Date.UTC(2025, 0, 1);
const DAYS = 365;
const DATE = "2025-12-30";

if (!existsSync(CLI)) {
  console.error("bench/pairs.mjs: run `npm run build` first");
  process.exit(1);
}

const { env, client, start, stop } = benchService("pairs", CLI);

// ---- the data
const { openStore } = await import(join(ROOT, "dist/src/store/database.js"));
const { ingestBatches } = await import(join(ROOT, "dist/src/store/rates.js"));
const { recordQuoting } = await import(join(ROOT, "dist/src/store/anomalies.js"));
const store = await openStore(join(env.EXRATES_DATA_DIR, "exrates.db"));
/** A currency's made-up worth in some common measure on a day. */
const worth = (c, t) => 1 + c + (((t / 86_400_000) * 7919 + c * 104_729) % 100_000) / 100_000;
const provenance = () => benchProvenance("https://bench.example/pairs", "bench");
function bankRecords(baseIndex, from, days) {
  const records = [];
  for (let t = from; t < from + days * 86_400_000; t += 86_400_000) {
    const day = new Date(t);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const date = day.toISOString().slice(0, 10);
    CURRENCIES.forEach((currency, c) => {
      if (c === baseIndex) return;
      records.push({ effectiveDate: date, currency, rate: (worth(c, t) / worth(baseIndex, t)).toFixed(6) });
    });
  }
  return records;
}
// CNB: its base CZK is not in the list; its figures are the currencies' worth in CZK for the whole year.
ingestBatches(store, "CNB", [{ provenance: provenance(), records: bankRecords(-1, FIRST, DAYS) }]);
recordQuoting(store, "CNB", "CZK", "Direct");
for (let b = 0; b < 29; b++) {
  const id = `BK${String(b).padStart(2, "0")}`;
  ingestBatches(store, id, [{ provenance: provenance(), records: bankRecords(b, Date.UTC(2025, 11, 24), 8) }]);
  recordQuoting(store, id, CURRENCIES[b], "Direct");
}
await store.close();
execFileSync(process.execPath, [CLI, "publish", "CNB"], { env, stdio: "ignore" });

// ---- the server (BENCH_PROFILE=<dir>: it writes a CPU profile there, node --cpu-prof)
const port = await freePort();
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : [];
const server = start(pinned(1, [process.execPath, ...profile, CLI, "serve"]), {
  env: { ...env, EXRATES_PORT: String(port) },
});
const base = `http://127.0.0.1:${port}`;
await waitFor(`${base}/readyz`, { child: server, tries: 200 });
const token = () => clientToken(base, client);

const AVERAGES = "/v1/Banks/CNB/DailyRates?from=2025-01-01&to=2025-12-31&group=month";
const ALL_CASES = [
  { name: "Latest.json (published file)", path: "/v1/Banks/CNB/DailyRates/Latest.json" },
  { name: `USD/JPY across every bank (30) on ${DATE}`, path: `/v1/Pairs/USD/JPY/${DATE}` },
  { name: "a year of monthly averages of CNB (40 currencies)", path: AVERAGES },
  {
    name: "the same averages, asked with Accept-Encoding: gzip",
    path: AVERAGES,
    headers: { "accept-encoding": "gzip" },
  },
];
// BENCH_ONLY=<regex>: Latest and the cases whose name matches it (BENCH_ONLY=1: every case), printed only.
const only =
  process.env.BENCH_ONLY && process.env.BENCH_ONLY !== "1" ? new RegExp(process.env.BENCH_ONLY, "i") : undefined;
const CASES = ALL_CASES.filter((c, i) => i === 0 || !only || only.test(c.name));

const bearer0 = await token();
for (const c of CASES) {
  const t0 = performance.now();
  // fetch asks for gzip and br unless told: the bytes a case's own request is sent.
  const headers = { authorization: `Bearer ${bearer0}`, "accept-encoding": "identity", ...c.headers };
  const get = () => fetch(`${base}${c.path}`, { headers });
  const res = await get().catch(get);
  if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${await res.text()}`);
  // The bytes sent (compressed when asked so; fetch decompresses what it reads).
  c.bytes = Number(res.headers.get("content-length") ?? (await res.arrayBuffer()).byteLength);
  c.firstMs = performance.now() - t0;
  autocannon(`${base}${c.path}`, { bearer: bearer0, seconds: 1, headers: c.headers, warm: true });
}

// The cases take turns (run 1 of each, then run 2 of each...): other work on the machine weighs on each alike.
for (const c of CASES) c.runs = [];
for (let i = 0; i < RUNS; i++) {
  for (const c of CASES) {
    const bearer = await token();
    const cpuBefore = cpuSeconds(server.pid);
    const run = autocannon(`${base}${c.path}`, { bearer, seconds: SECONDS, headers: c.headers });
    run.cpuPerRequest = (cpuSeconds(server.pid) - cpuBefore) / (run.rps * SECONDS);
    c.runs.push(run);
    console.error(`${c.name} run ${i + 1}/${RUNS}: ${fmt(run.rps)} req/s, p50 ${run.p50} ms`);
  }
}
for (const c of CASES) {
  c.rps = median(c.runs.map((r) => r.rps));
  c.p50 = median(c.runs.map((r) => r.p50));
  c.p99 = median(c.runs.map((r) => r.p99));
  c.cpu = median(c.runs.map((r) => r.cpuPerRequest));
  c.clientCpu = median(c.runs.map((r) => r.clientCpu));
  c.ratio = median(c.runs.map((r, i) => r.rps / CASES[0].runs[i].rps));
}
await stop(server);
const LOAD_AFTER = loadavg()[0];
for (const c of CASES)
  console.log(`${c.name}: ${fmt(c.rps)} req/s (${fmt(c.ratio, 2)}x Latest), first answer ${fmt(c.firstMs)} ms`);
if (process.env.BENCH_ONLY) process.exit(0);

const met = (ok) => (ok ? "met" : "not met");
writeSection(`## Pairs and averages

Command: \`npm run build && node bench/pairs.mjs\` (autocannon, 50 connections, ${SECONDS} s per run, ${RUNS}
runs of each case taken in turns, medians; server pinned to core 1, load generator to core 0 with taskset).
The store holds 2025's weekdays of CNB (40 currencies) and the last week of 2025 of 29 more banks (39
figures each). Latest.json is CNB's published file, served by the same server in the same run. "x Latest"
is the median over the rounds of a run's req/s over the Latest run of the same round. The pair and the
averages are answered from the answer kept once made (per store generation); "first" is the first request's
time, which computes it (the store read, the crosses, the means, the rendering).
Machine: ${machine()}, Linux, ${LOAD_BEFORE < 1.5 ? "no other job running" : "**shared with other jobs while measured**"} (1-minute load average
${LOAD_BEFORE.toFixed(1)} before and ${LOAD_AFTER.toFixed(1)} after): the ratios are the point.
Measured ${new Date().toISOString().slice(0, 10)}.

| request | bytes | req/s | x Latest | first ms | server CPU µs/request | client CPU µs/request | p50 ms | p99 ms |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${CASES.map((c) => `| ${c.name} | ${fmt(c.bytes)} | ${fmt(c.rps)} | ${fmt(c.ratio, 2)} | ${fmt(c.firstMs)} | ${fmt(c.cpu * 1e6)} | ${fmt(c.clientCpu * 1e6)} | ${fmt(c.p50, 2)} | ${fmt(c.p99, 2)} |`).join("\n")}

Target (>= 0.3x Latest): pair ${met(CASES[1].ratio >= 0.3)}, monthly averages ${met(CASES[2].ratio >= 0.3)}.
The gzip line is the load generator's limit, not the server's: compare the two CPU columns (autocannon spends
more per compressed answer than the server, which sends kept bytes and sits idle part of the time).
`);

// Convert benchmark: `GET /v1/Banks/CNB/Convert` (through Latest, and through the set in force on a
// random date) and `Latest?base=USD`, against the same bank's Latest.json served by the same
// `exrates serve` in the same run (the baseline). Target: a convert at >= 0.5x Latest's requests per second.
//
//   npm run build && node bench/convert.mjs
//
// The store holds two years of weekday rates of CNB (40 currencies, JPY and HUF per 100, IDR per 1000),
// published once so that Latest exists. The server runs in its own process pinned to core 1 (taskset),
// autocannon on core 0, 50 connections. The cases take turns, BENCH_RUNS (default 3) rounds of
// BENCH_SECONDS (default 5) each; every figure is a median. Written into BENCHMARKS.md under "## Convert"
// (that section only), unless BENCH_ONLY=1 (printed only).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, writeSection } from "./lib.mjs";
import { benchService, clientToken, freePort, pinned, waitFor } from "./processes.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOAD_BEFORE = loadavg()[0];
const CURRENCIES = (
  "AUD BGN BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB " +
  "TRY USD XDR ZAR ARS CLP COP EGP KZT NGN PKR SAR UAH"
).split(" ");
const UNITS = { HUF: 2, JPY: 2, IDR: 3, KRW: 2, ISK: 2 };
const FIRST = Date.UTC(2024, 0, 1);
const DAYS = 731;

// `node bench/convert.mjs load <url> <bearer> <connections> <seconds>`: every request another pair,
// amount and date (any day of 2024-2025), so that no two answers are alike.
if (process.argv[2] === "load") {
  const { default: run } = await import("autocannon");
  const [url, bearer, connections, seconds] = process.argv.slice(3);
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const result = await run({
    url,
    connections: Number(connections),
    duration: Number(seconds),
    headers: { authorization: `Bearer ${bearer}` },
    requests: [
      {
        setupRequest: (req) => {
          const day = new Date(FIRST + Math.floor(Math.random() * DAYS) * 86_400_000).toISOString().slice(0, 10);
          const amount = `${Math.floor(Math.random() * 1e6)}.${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
          const path = `/v1/Banks/CNB/Convert?from=${pick(CURRENCIES)}&to=${pick([...CURRENCIES, "CZK"])}&amount=${amount}&date=${day}`;
          return { ...req, path };
        },
      },
    ],
  });
  console.log(JSON.stringify(result));
  process.exit(0);
}

if (!existsSync(CLI)) {
  console.error("bench/convert.mjs: run `npm run build` first");
  process.exit(1);
}

const { env, client, start } = benchService("convert", CLI);

// ---- the data: 40 currencies, every weekday of 2024-2025
const { openStore } = await import(join(ROOT, "dist/src/store/database.js"));
const { ingestBatches } = await import(join(ROOT, "dist/src/store/rates.js"));
const { recordQuoting } = await import(join(ROOT, "dist/src/store/anomalies.js"));
const store = await openStore(join(env.EXRATES_DATA_DIR, "exrates.db"));
const records = [];
for (let t = FIRST; t < FIRST + DAYS * 86_400_000; t += 86_400_000) {
  const day = new Date(t);
  if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
  const date = day.toISOString().slice(0, 10);
  CURRENCIES.forEach((currency, c) => {
    const n = ((t / 86_400_000) * 7919 + c * 104_729) % 100_000;
    const unitMultiplier = UNITS[currency];
    records.push({
      effectiveDate: date,
      currency,
      rate: (1 + c + n / 100_000).toFixed(3),
      ...(unitMultiplier ? { unitMultiplier } : {}),
    });
  });
}
ingestBatches(store, "CNB", [
  {
    provenance: {
      kind: "import",
      method: "GET",
      url: "https://bench.example/cnb",
      startedAt: new Date(),
      finishedAt: new Date(),
      httpStatus: 200,
      body: Buffer.from("bench"),
    },
    records,
  },
]);
recordQuoting(store, "CNB", "CZK", "Direct");
await store.close();
execFileSync(process.execPath, [CLI, "publish", "CNB"], { env, stdio: "ignore" });

// ---- the server
const port = await freePort();
const server = start(pinned(1, [process.execPath, CLI, "serve"]), { env: { ...env, EXRATES_PORT: String(port) } });
const base = `http://127.0.0.1:${port}`;
await waitFor(`${base}/readyz`, { child: server, tries: 200 });
const token = () => clientToken(base, client);

function autocannon(path, bearer, connections, seconds = SECONDS) {
  const argv =
    path === "random"
      ? [fileURLToPath(import.meta.url), "load", base, bearer, String(connections), String(seconds)]
      : [AUTOCANNON, "-j", "-c", String(connections), "-d", String(seconds), "-p", "1"];
  if (path !== "random") argv.push("-H", `authorization=Bearer ${bearer}`, `${base}${path}`);
  const [c, a] = pinned(0, [process.execPath, ...argv]);
  const r = JSON.parse(
    execFileSync(c, a, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] }),
  );
  if (r.errors > 0 || r.non2xx > 0 || (r["2xx"] ?? 0) === 0)
    throw new Error(`${path}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

const CASES = [
  { name: "Latest.json (published file)", path: "/v1/Banks/CNB/DailyRates/Latest.json" },
  {
    name: "Convert through Latest, JPY (per 100) to EUR",
    path: "/v1/Banks/CNB/Convert?from=JPY&to=EUR&amount=125000.00",
  },
  { name: "Convert through Latest, CSV", path: "/v1/Banks/CNB/Convert.csv?from=USD&to=IDR&amount=1250.00" },
  { name: "Convert on a random date, pair and amount each", path: "random" },
  { name: "Latest?base=USD (40 rates re-expressed)", path: "/v1/Banks/CNB/DailyRates/Latest?base=USD" },
];

const bearer0 = await token();
for (const c of CASES) {
  if (c.path !== "random") {
    // Once more on a failure: under load, a kept-alive socket can be closed by the server (idle past its
    // keep-alive timeout while autocannon starts) just as it is reused.
    const get = () => fetch(`${base}${c.path}`, { headers: { authorization: `Bearer ${bearer0}` } });
    const res = await get().catch(get);
    if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${await res.text()}`);
    c.bytes = (await res.arrayBuffer()).byteLength;
  } else c.bytes = NaN;
  autocannon(c.path, bearer0, 50, 1); // warm-up
}
/** CPU seconds the server process has used (user + system), from /proc (Linux). */
function serverCpu() {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

for (const c of CASES) c.runs = [];
for (let i = 0; i < RUNS; i++) {
  for (const c of CASES) {
    const bearer = await token();
    const cpuBefore = serverCpu();
    const run = autocannon(c.path, bearer, 50);
    run.cpuPerRequest = (serverCpu() - cpuBefore) / (run.rps * SECONDS);
    c.runs.push(run);
    console.error(`${c.name} run ${i + 1}/${RUNS}: ${fmt(run.rps)} req/s, p50 ${run.p50} ms`);
  }
}
for (const c of CASES) {
  c.rps = median(c.runs.map((r) => r.rps));
  c.p50 = median(c.runs.map((r) => r.p50));
  c.p99 = median(c.runs.map((r) => r.p99));
  c.cpu = median(c.runs.map((r) => r.cpuPerRequest));
  c.ratio = median(c.runs.map((r, i) => r.rps / CASES[0].runs[i].rps));
}
server.kill("SIGTERM");
const LOAD_AFTER = loadavg()[0];
if (process.env.BENCH_ONLY) {
  for (const c of CASES)
    console.log(`${c.name}: ${fmt(c.rps)} req/s (${fmt(c.ratio, 2)}x Latest), ${fmt(c.cpu * 1e6)} µs CPU/request`);
  process.exit(0);
}

const met = (ok) => (ok ? "met" : "not met");
const latestConvert = CASES[1];
const random = CASES[3];
writeSection(`## Convert

Command: \`npm run build && node bench/convert.mjs\` (autocannon, 50 connections, ${SECONDS} s per run, ${RUNS}
runs of each case taken in turns, medians; server pinned to core 1, load generator to core 0 with taskset).
The store holds two years of weekdays of CNB with 40 currencies (JPY, HUF, KRW, ISK per 100, IDR per 1000);
Latest.json is the published file of the same bank, served by the same server in the same run (the baseline).
"x Latest" is the median over the rounds of a run's req/s over the Latest run of the same round. Identity
encoding, a bearer token verified once then cached.
Machine: ${machine()}, Linux. Measured ${new Date().toISOString().slice(0, 10)}; 1-minute load average
${LOAD_BEFORE.toFixed(1)} before and ${LOAD_AFTER.toFixed(1)} after the runs.

| request | bytes | req/s | x Latest | server CPU µs/request | p50 ms | p99 ms |
|---|---:|---:|---:|---:|---:|---:|
${CASES.map((c) => `| ${c.name} | ${Number.isNaN(c.bytes) ? "-" : fmt(c.bytes)} | ${fmt(c.rps)} | ${fmt(c.ratio, 2)} | ${fmt(c.cpu * 1e6)} | ${fmt(c.p50, 2)} | ${fmt(c.p99, 2)} |`).join("\n")}

| Figure | Result | Target | |
|---|---:|---:|---|
| **Convert through Latest: req/s / Latest req/s** | ${fmt(latestConvert.ratio, 2)}x | >= 0.5x | ${met(latestConvert.ratio >= 0.5)} |
| Convert on a random date (a store read each) | ${fmt(random.ratio, 2)}x | >= 0.5x | ${met(random.ratio >= 0.5)} |
`);
process.exit(0);

// asOf benchmark: a date lookup "as known at" an instant (?asOf=) against Latest.json, served by the
// same `exrates serve` in the same run (the target: at least 0.3x Latest's requests per second).
//
//   npm run build && node bench/as-of.mjs
//
// The store holds two years of weekday rates of a 40-currency bank, then a corrected answer for the
// newest month an hour later; the server runs pinned to core 1, autocannon in this process. Cases take
// turns, BENCH_RUNS (default 3) rounds of BENCH_SECONDS (default 5) at 50 connections; medians printed.
// Cases: Latest.json; a date asOf an instant between the two imports (the same request, answered from
// the kept rendering once made); asOf on random dates (every request another date, read and rendered).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import run from "autocannon";

import { fmt, median } from "./lib.mjs";
import { benchService, clientToken, freePort, pinned, waitFor } from "./processes.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CURRENCIES =
  "AUD BGN BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB TRY USD XDR ZAR ARS CLP COP EGP KZT NGN PKR SAR UAH".split(
    " ",
  );

if (!existsSync(CLI)) {
  console.error("bench/as-of.mjs: run `npm run build` first");
  process.exit(1);
}
const { env, client, start, stop } = benchService("asof", CLI);
const { openStore } = await import(join(ROOT, "dist/src/store/database.js"));
const { storeBatches } = await import(join(ROOT, "dist/src/store/rates.js"));
const { recordQuoting } = await import(join(ROOT, "dist/src/store/anomalies.js"));
const store = await openStore(join(env.EXRATES_DATA_DIR, "exrates.db"));
const dates = [];
for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += 86_400_000) {
  const d = new Date(t);
  if (d.getUTCDay() % 6 !== 0) dates.push(d.toISOString().slice(0, 10));
}
const records = (bump) =>
  dates.flatMap((date, i) =>
    CURRENCIES.map((currency, c) => ({
      effectiveDate: date,
      currency,
      rate: (
        1 +
        c +
        ((i * 7919 + c * 104_729) % 100_000) / 100_000 +
        (bump && i >= dates.length - 21 ? 0.0001 : 0)
      ).toFixed(5),
    })),
  );
const batch = (name, recs) => [
  {
    provenance: {
      kind: "import",
      method: "GET",
      url: `https://bench.example/${name}`,
      startedAt: new Date(),
      finishedAt: new Date(),
      httpStatus: 200,
      body: Buffer.from(name),
    },
    records: recs,
  },
];
const FIRST = new Date("2026-01-01T10:00:00Z");
await storeBatches(store, "CNB", batch("first", records(false)), FIRST);
await storeBatches(store, "CNB", batch("corrected", records(true)), new Date(FIRST.getTime() + 3_600_000));
recordQuoting(store, "CNB", "CZK", "Direct");
await store.close();
execFileSync(process.execPath, [CLI, "publish", "CNB"], { env, stdio: "ignore" });

const port = await freePort();
const server = start(pinned(1, [process.execPath, CLI, "serve"]), {
  env: { ...env, EXRATES_PORT: String(port), EXRATES_METRICS_PORT: String(await freePort()) },
});
const base = `http://127.0.0.1:${port}`;
await waitFor(`${base}/readyz`, { child: server, tries: 200 });
const token = await clientToken(base, client);
const BETWEEN = "2026-01-01T10:30:00Z";
const last = dates[dates.length - 1];
const cases = {
  latest: () => "/v1/Banks/CNB/DailyRates/Latest.json",
  "asOf, one date": () => `/v1/Banks/CNB/DailyRates/${last}.json?asOf=${BETWEEN}`,
  "asOf, random dates": () =>
    `/v1/Banks/CNB/DailyRates/${dates[Math.floor(Math.random() * dates.length)]}.json?asOf=${BETWEEN}`,
};
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < RUNS; r++)
  for (const [name, path] of Object.entries(cases)) {
    const out = await run({
      url: base,
      connections: 50,
      duration: SECONDS,
      headers: { authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
    });
    if (out.non2xx) throw new Error(`${name}: ${out.non2xx} answers not 2xx`);
    results[name].push(out.requests.average);
  }
await stop(server);
const latest = median(results.latest);
for (const [name, values] of Object.entries(results))
  console.log(`${name.padEnd(20)} ${fmt(median(values))} req/s  ${(median(values) / latest).toFixed(2)}x Latest`);

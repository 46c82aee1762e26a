// Publish cost: every daily bank of the registry with 40 currencies of synthetic latest rates, rendered
// in four formats (+ gzip/brotli siblings, fsync, signed manifest, atomic switch), then a publish after
// one bank changed. The period sources (monthly, quarterly) are left out: the synthetic rates are daily
// figures, which a period source would not publish. Baseline, same run: the same documents as
// JSON.stringify + writeFileSync, one file per bank. Prints where the publish's time went (`phases`, ms).
//   node bench/publish.mjs full|one|baseline     (BENCH_RUNS=5 node bench/publish.mjs one: five, median)
import { rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

import { latestDocument } from "../dist/src/publish/document.js";
import { publish } from "../dist/src/publish/publisher.js";
import { loadPublicationKeys } from "../dist/src/publish/signing.js";
import { prunedRemoved } from "../dist/src/publish/tree.js";
import { dailyAdapters, publishStore } from "./processes.mjs";

const mode = process.argv[2] ?? "full";
const adapters = await dailyAdapters();
const CODES = [
  "AED",
  "AUD",
  "BGN",
  "BRL",
  "CAD",
  "CHF",
  "CNY",
  "CZK",
  "DKK",
  "EUR",
  "GBP",
  "HKD",
  "HUF",
  "IDR",
  "ILS",
  "INR",
  "ISK",
  "JPY",
  "KRW",
  "KZT",
  "MXN",
  "MYR",
  "NOK",
  "NZD",
  "PHP",
  "PLN",
  "RON",
  "RUB",
  "SAR",
  "SEK",
  "SGD",
  "THB",
  "TRY",
  "TWD",
  "UAH",
  "USD",
  "VND",
  "XAU",
  "XDR",
  "ZAR",
];
const { dir, store, seed } = await publishStore("exrates-bench-publish-", CODES, { unitsEvery: 7 });
for (const a of adapters) seed(a.bank.id, a.bank.bankCurrency, "2026-03-02");

const out = join(dir, "out");
let ms;
let banks = adapters.length;
const phases = {};
if (mode === "baseline") {
  const t = process.hrtime.bigint();
  for (const a of adapters) {
    const doc = await latestDocument(store, a.bank);
    const path = join(out, "v1/Banks", a.bank.id, "DailyRates");
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, "Latest.json"), JSON.stringify(doc));
  }
  ms = Number(process.hrtime.bigint() - t) / 1e6;
} else {
  const signing = await loadPublicationKeys(join(dir, "data"));
  if (mode === "one") {
    // The steady state of a daemon: a full publish, then a few one-bank ones, so that the measured
    // publish also prunes a whole generation, as every publish after the third does.
    await publish(store, adapters, out, { signing });
    for (let day = 3; day <= 6; day++) {
      const bank = adapters[day - 3].bank;
      seed(bank.id, bank.bankCurrency, `2026-03-0${day}`, 0.01);
      if (day < 6) await publish(store, adapters, out, { signing });
    }
    banks = 1;
  }
  // `one` with BENCH_RUNS=n: n one-bank publishes after that setup (each after another bank's new
  // date), the median reported (its phases with it), every run's time in `runs`.
  const repeat = mode === "one" ? Number(process.env.BENCH_RUNS ?? 1) : 1;
  const runs = [];
  for (let r = 0; r < repeat; r++) {
    if (r > 0) {
      const bank = adapters[3 + r].bank;
      seed(bank.id, bank.bankCurrency, `2026-03-${String(6 + r).padStart(2, "0")}`, 0.01);
    }
    const timings = {};
    const t = process.hrtime.bigint();
    const result = await publish(store, adapters, out, { signing, timings });
    const end = process.hrtime.bigint();
    // With BENCH_WINDOW=1: the measured publish's monotonic clock span (µs), the clock of a --cpu-prof
    // profile's samples, to read the profile of that publish alone (the setup's publishes left out).
    if (process.env.BENCH_WINDOW) timings.windowUs = [Number(t / 1000n), Number(end / 1000n)];
    // The pruned generation's files are deleted after the publish returns: timed apart.
    const removal = process.hrtime.bigint();
    await prunedRemoved(out);
    timings["pruned removal (after)"] = Number(process.hrtime.bigint() - removal) / 1e6;
    if (result.rendered.length !== banks) throw new Error(`rendered ${result.rendered.length}, expected ${banks}`);
    runs.push({ ms: Number(end - t) / 1e6, timings });
  }
  const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
  ms = median.ms;
  Object.assign(phases, median.timings);
  if (repeat > 1) phases.runs = runs.map((r) => Math.round(r.ms));
}
await store.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    mode,
    banks,
    ms,
    msPerBank: ms / banks,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    phases: Object.fromEntries(
      Object.entries(phases).map(([k, v]) => [k, Array.isArray(v) ? v : Math.round(v * 10) / 10]),
    ),
  }),
);

// The in-memory index of banks' days that dated lookups missing the answer cache read
// (src/store/day-index.ts): what it costs in memory and in time, against the store's read it replaces.
//
//   npm run build && node --expose-gc bench/day-index.mjs
//
// 1. Memory: BANKS banks (default 90) of YEARS years (default 20) of weekdays with CURRENCIES (default
//    35) currencies each, about 16 million figures, indexed in this process: heap and resident memory
//    before and after (after a GC), bytes per figure, and the time to build one bank's index.
// 2. Reads: one bank of eleven years and 40 currencies in a SQLite store (seedYears, as bench/history.mjs); a random
//    date with a 39-currency filter read READS times from the store (HistoryReader.ratesWithVersion and
//    warnings, the path before the index) and from the index (BankDays.day and warnings), in turns,
//    BENCH_RUNS rounds, medians: microseconds per read.
//
// 3. Waits behind a build: the same bank's index made the way a server's first miss makes it, on a fresh
//    DayIndexes each round: in one go (BankDays.build over the bank's rows, the way before issue 39: every
//    request waits that long) and in turns (DayIndexes.of: a slice per turn of the event loop); for the latter, the longest
//    gap between two turns (what a request arriving meanwhile can wait) and the whole build's time.
//
// BENCH_BANKS, BENCH_YEARS, BENCH_CURRENCIES size part 1; BENCH_RUNS (default 5) the rounds of parts 2 and 3.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median } from "./lib.mjs";
import { seedYears } from "./processes.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { BankDays } = await import(join(ROOT, "dist/src/store/day-index.js"));
const { HistoryReader } = await import(join(ROOT, "dist/src/store/history.js"));
const { openStore } = await import(join(ROOT, "dist/src/store/database.js"));
const { DayIndexes } = await import(join(ROOT, "dist/src/serve/resources/history/day-indexes.js"));

const BANKS = Number(process.env.BENCH_BANKS ?? 90);
const YEARS = Number(process.env.BENCH_YEARS ?? 20);
const COUNT = Number(process.env.BENCH_CURRENCIES ?? 35);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const READS = 20_000;
const gc = globalThis.gc ?? (() => {});

const CODES = (
  "AUD BGN BRL CAD CHF CNY DKK EUR GBP HKD HUF IDR ILS INR ISK JPY KRW MXN MYR NOK NZD PHP PLN RON SEK SGD THB " +
  "TRY USD XDR ZAR ARS CLP COP EGP KZT NGN PKR SAR UAH"
).split(" ");

/** Every weekday from `first` for `years` years, as ISO dates. */
function weekdays(first, years) {
  const out = [];
  for (let t = Date.UTC(first, 0, 1); t < Date.UTC(first + years, 0, 1); t += 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** A bank's rows as the store gives them: realistic texts (4 to 6 decimals, a few units of 100), one fetch a day. */
function bankRows(bank, dates, count) {
  const rows = [];
  dates.forEach((date, d) => {
    const storedAt = `${date}T16:00:0${bank % 10}.000Z`;
    for (let c = 0; c < count; c++) {
      const n = (d * 7919 + c * 104_729 + bank * 31) % 1_000_000;
      const rate = (1 + c * 3 + n / 1_000_000).toFixed(4 + (c % 3));
      rows.push([date, CODES[c], rate, c % 7 === 0 ? 100 : 0, storedAt, bank * 10_000 + d + 1]);
    }
  });
  return rows;
}

const mb = (bytes) => bytes / 2 ** 20;
const memory = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.arrayBuffers, rss: m.rss };
};

// ---- 1. memory for BANKS x YEARS
const dates = weekdays(2006, YEARS);
const before = memory();
const indexes = [];
const buildMs = [];
let figures = 0;
let accounted = 0;
for (let bank = 0; bank < BANKS; bank++) {
  const rows = bankRows(bank, dates, COUNT);
  const t0 = performance.now();
  const index = BankDays.build(rows, []);
  buildMs.push(performance.now() - t0);
  figures += index.size;
  accounted += index.bytes;
  indexes.push(index);
}
const after = memory();
const heapPerFigure = (after.heap - before.heap) / figures;
console.log(`Machine: ${machine()}`);
console.log(
  `${BANKS} banks x ${YEARS} years x ${COUNT} currencies: ${fmt(figures)} figures indexed; ` +
    `heap + array buffers +${fmt(mb(after.heap - before.heap), 1)} MiB (${fmt(heapPerFigure, 1)} bytes a figure, ` +
    `${fmt(mb(accounted), 1)} MiB as the index counts itself), RSS ${fmt(mb(before.rss), 1)} -> ${fmt(mb(after.rss), 1)} MiB; ` +
    `one bank's build (${fmt(figures / BANKS)} figures, rows in memory): median ${fmt(median(buildMs), 1)} ms`,
);
indexes.length = 0;
gc();

// ---- 2. reads: store against index, one bank of eleven years, 40 currencies
const dir = mkdtempSync(join(tmpdir(), "exrates-bench-day-index-"));
const path = join(dir, "exrates.db");
const store = await openStore(path);
await seedYears(store, "CNB", CODES);
await store.close();
const reader = HistoryReader.open(path);
const t0 = performance.now();
const index = BankDays.build(reader.bankRows("CNB"), reader.warnings("CNB", "0000-01-01", "9999-12-31"));
const readAndBuild = performance.now() - t0;
const stored = weekdays(2015, 11);
const filter = CODES.slice(1).sort();
const pick = (i) => stored[(i * 7919) % stored.length];

function perRead(read) {
  const start = performance.now();
  let rows = 0;
  for (let i = 0; i < READS; i++) rows += read(pick(i)).rows;
  if (rows !== READS * filter.length) throw new Error(`read ${rows} rows, expected ${READS * filter.length}`);
  return ((performance.now() - start) * 1000) / READS;
}
const fromStore = (date) => {
  const r = reader.ratesWithVersion("CNB", date, filter);
  reader.warnings("CNB", date, date);
  return r.version;
};
const fromIndex = (date) => {
  const r = index.day(date, filter);
  index.warnings(date);
  return r.version;
};
const storeRuns = [];
const indexRuns = [];
perRead(fromStore);
perRead(fromIndex);
for (let i = 0; i < RUNS; i++) {
  storeRuns.push(perRead(fromStore));
  indexRuns.push(perRead(fromIndex));
}

// ---- 3. waits behind a build: in one go against in turns
const oneGo = [];
const longestTurn = [];
const longestTurnCpu = [];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const inTurns = [];
const tick = () => new Promise((resolve) => setImmediate(resolve));
for (let i = 0; i < RUNS; i++) {
  const t1 = performance.now();
  // What a first miss's request did before issue 39: the bank's rows and warnings read, the index built.
  if (BankDays.build(reader.bankRows("CNB"), reader.warnings("CNB", "0000-01-01", "9999-12-31")).size === 0)
    throw new Error("no index built in one go");
  oneGo.push(performance.now() - t1);
  const indexes = new DayIndexes();
  const t2 = performance.now();
  let last = t2;
  let lastCpu = cpuMs();
  let longest = 0;
  let longestCpu = 0;
  while (!indexes.of(reader, "CNB")) {
    await tick();
    const t = performance.now();
    const c = cpuMs();
    longest = Math.max(longest, t - last);
    longestCpu = Math.max(longestCpu, c - lastCpu);
    last = t;
    lastCpu = c;
  }
  inTurns.push(performance.now() - t2);
  longestTurn.push(longest);
  longestTurnCpu.push(longestCpu);
}
reader.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `a date's 39 of 40 currencies and their version (${fmt(index.size)} figures stored): store ${fmt(median(storeRuns), 1)} µs, ` +
    `index ${fmt(median(indexRuns), 1)} µs (${fmt(median(storeRuns) / median(indexRuns), 1)}x); ` +
    `reading the bank from SQLite and building its index: ${fmt(readAndBuild)} ms`,
);
console.log(
  `the bank's index made at a first miss (${fmt(index.size)} figures): in one go ${fmt(median(oneGo), 1)} ms, ` +
    `every request waiting; in turns ${fmt(median(inTurns), 1)} ms in all, the longest turn ${fmt(median(longestTurn), 1)} ms ` +
    `(worst of ${RUNS} rounds ${fmt(Math.max(...longestTurn), 1)} ms; CPU time of the longest turn ${fmt(median(longestTurnCpu), 1)} ms, ` +
    `worst ${fmt(Math.max(...longestTurnCpu), 1)} ms)`,
);

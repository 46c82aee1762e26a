// Hot keys: one key used again and again in a full least-recently-used structure, against many keys in
// the same structure, and against a plain Map kept in LRU order by deleting and setting the key at each
// use (what src/serve/resources/history/answer-cache.ts and src/auth/ratelimit.ts did before they moved to lru-cache:
// each delete leaves a deleted slot in the key's bucket chain until V8 rehashes the table).
//
//   npm run build && node bench/hot-keys.mjs
//
// Each case runs in a fresh process (bench/lib.mjs repeat, BENCH_RUNS times, median), ns per operation.
// The figures are printed and written into BENCHMARKS.md under "## Hot keys" (that section only).
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, repeat, RUNS, writeSection } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OPS = 200_000;
const ANSWERS = 8_600; // the distinct one-date answers of the History bench (src/serve/resources/history/answer-cache.ts)
const FAILING = 20_000; // keys in the failure limiter (src/auth/ratelimit.ts)

if (process.argv[2] === "case") {
  const [structure, keys] = process.argv.slice(3);
  const pick = keys === "one" ? () => 42 : (n) => Math.floor(Math.random() * n);
  let op;
  if (structure === "answer-cache") {
    const { AnswerCache } = await import(join(ROOT, "dist/src/serve/resources/history/answer-cache.js"));
    const cache = new AnswerCache();
    const made = (i) => ({ etag: `"${i}"`, lastModified: "", headers: {}, version: "v", identity: Buffer.alloc(1500) });
    for (let i = 0; i < ANSWERS; i++)
      cache.answer(
        `CNB\u0000${i}\u0000json`,
        1,
        () => "v",
        () => made(i),
      );
    // The key is a new string each time, as it is built per request.
    op = () =>
      cache.answer(
        `CNB\u0000${pick(ANSWERS)}\u0000json`,
        1,
        () => "v",
        () => made(-1),
      );
  } else if (structure === "failure-limiter") {
    const { FailureLimiter } = await import(join(ROOT, "dist/src/auth/ratelimit.js"));
    const limiter = new FailureLimiter({ max: 1e9, windowMs: 3_600_000 });
    for (let i = 0; i < FAILING; i++) limiter.fail(`client${i} 10.0.${i % 250}.1`);
    op = () => {
      const i = pick(FAILING);
      limiter.fail(`client${i} 10.0.${i % 250}.1`);
    };
  } else {
    // The baseline: a Map in LRU order, the key deleted and set again at each use.
    const map = new Map();
    for (let i = 0; i < ANSWERS; i++) map.set(`CNB\u0000${i}\u0000json`, { i });
    op = () => {
      const key = `CNB\u0000${pick(ANSWERS)}\u0000json`;
      const entry = map.get(key);
      map.delete(key);
      map.set(key, entry);
    };
  }
  for (let i = 0; i < OPS / 10; i++) op(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < OPS; i++) op();
  console.log(JSON.stringify({ ns: Number(process.hrtime.bigint() - start) / OPS }));
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const rows = [];
for (const [structure, name] of [
  ["map-delete-set", `Map, deleted and set again at each use (baseline), ${fmt(ANSWERS)} keys`],
  ["answer-cache", `AnswerCache (src/serve/resources/history/answer-cache.ts), ${fmt(ANSWERS)} answers`],
  ["failure-limiter", `FailureLimiter.fail (src/auth/ratelimit.ts), ${fmt(FAILING)} keys`],
]) {
  const one = median(repeat(self, ["case", structure, "one"]).map((r) => r.ns));
  const any = median(repeat(self, ["case", structure, "any"]).map((r) => r.ns));
  rows.push(`| ${name} | ${fmt(one)} | ${fmt(any)} | ${fmt(one / any, 1)} |`);
  console.error(`${name}: one key ${fmt(one)} ns/op, random keys ${fmt(any)} ns/op`);
}
const section = `## Hot keys

Command: \`npm run build && node bench/hot-keys.mjs\` (${fmt(OPS)} operations per run after a warm-up, each
case in a fresh process, median of ${RUNS} runs). One key used again and again against random keys, in a full
structure. The baseline is what both structures were before: a Map kept in least-recently-used order by
deleting and setting the key at each use, which leaves a deleted slot in the key's bucket chain each time
until V8 rehashes the table, so that a hot key's lookups walk thousands of them.
Machine: ${machine()}. Measured ${new Date().toISOString().slice(0, 10)}.

| structure | one key, ns/op | random keys, ns/op | one / random |
|---|---:|---:|---:|
${rows.join("\n")}
`;
console.log(section);
writeSection(section);

// What signing costs a publish: the same store published BENCH_RUNS times (default 5) with the
// publication keys and as many without, alternating, in one process; each publish after one bank's
// new date (what the daemon does after an ingest: one bank rendered, the rest hard-linked, a new
// manifest over every file). Medians printed, and the difference (the target: < 20 ms).
//   npm run build && node bench/publish-signing.mjs
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import { loadAdapters } from "../dist/src/feed/registry.js";
import { publish } from "../dist/src/publish/publisher.js";
import { loadPublicationKeys, signatureFiles, UNSIGNED } from "../dist/src/publish/signing.js";
import { publishStore } from "./processes.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CODES = ["AUD", "CAD", "CHF", "CNY", "CZK", "EUR", "GBP", "JPY", "NOK", "PLN", "SEK", "USD"];
const { dir, store, seed } = await publishStore("exrates-bench-signing-", CODES);
const adapters = [...(await loadAdapters()).values()];
for (const a of adapters) seed(a.bank.id, a.bank.bankCurrency, "2026-03-02");
const out = join(dir, "out");
const signing = await loadPublicationKeys(join(dir, "data"));
await publish(store, adapters, out, { signing });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = { signed: [], unsigned: [] };
const first = adapters[0].bank;
let day = 3;
for (let r = 0; r < RUNS; r++)
  for (const mode of ["signed", "unsigned"]) {
    seed(first.id, first.bankCurrency, `2026-03-${String(day++).padStart(2, "0")}`, day / 100);
    const t = process.hrtime.bigint();
    const result = await publish(store, adapters, out, { signing: mode === "signed" ? signing : UNSIGNED });
    times[mode].push(Number(process.hrtime.bigint() - t) / 1e6);
    if (result.rendered.length !== 1) throw new Error(`rendered ${result.rendered.length}, expected 1`);
  }
// The signing step alone (the JWS over the manifest and the JWKS), over the last manifest: what a
// whole publish's noise on a loaded machine hides.
const manifest = JSON.parse(readFileSync(join(out, "current", "manifest.json"), "utf8"));
const alone = [];
for (let i = 0; i < 21; i++) {
  const t = process.hrtime.bigint();
  await signatureFiles(manifest, signing);
  alone.push(Number(process.hrtime.bigint() - t) / 1e6);
}
await store.close();
rmSync(dir, { recursive: true, force: true });
const signed = median(times.signed);
const unsigned = median(times.unsigned);
console.log(
  JSON.stringify({
    banks: adapters.length,
    runs: RUNS,
    signedMs: +signed.toFixed(1),
    unsignedMs: +unsigned.toFixed(1),
    signingCostMs: +(signed - unsigned).toFixed(1),
    signingAloneMs: +median(alone).toFixed(2),
    manifestFiles: Object.keys(manifest.files).length,
  }),
);

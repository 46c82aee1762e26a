// The store on PostgreSQL vs SQLite, same run: import (the generated multi-year ECB history parsed,
// screened and stored in one transaction, rows/s) and publish (every bank's Latest in four formats,
// ms per bank, reading the store). PostgreSQL is a throwaway local cluster (scripts/test-postgres.mjs:
// Debian's binaries, fsync off, unix-socket-free TCP on 127.0.0.1) started before the clock runs.
//   node bench/store-pg.mjs import|publish sqlite|postgres [years]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import ecb from "../dist/adapters/ECB.js";
import { parseDocuments, storeParsed } from "../dist/src/ingest/ingest.js";
import { publish } from "../dist/src/publish/publisher.js";
import { UNSIGNED } from "../dist/src/publish/signing.js";
import { openStore } from "../dist/src/store/database.js";
import { storeBatches } from "../dist/src/store/rates.js";
import { startPostgres } from "../scripts/test-postgres.mjs";
import { ECB_CURRENCIES, generateEcbCsv } from "./lib.mjs";
import { BENCH_IMPORT, benchProvenance, dailyAdapters } from "./processes.mjs";

const [what = "import", engine = "sqlite", yearsText = "26"] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "exrates-bench-store-"));
const cluster = engine === "postgres" ? await startPostgres() : undefined;
const store = await openStore(cluster ? await cluster.createDatabase() : join(dir, "exrates.db"));
let figures;
try {
  figures = what === "import" ? await importHistory() : await publishAll();
} finally {
  await store.close();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ what, engine, ...figures, maxRssMB: process.resourceUsage().maxRSS / 1024 }));

async function importHistory() {
  const { body, rows } = generateEcbCsv(Number(yearsText));
  const at = new Date();
  const doc = {
    url: ecb.bank.sourceUrl,
    method: "GET",
    status: 200,
    contentType: "text/csv",
    body,
    startedAt: at,
    finishedAt: at,
  };
  globalThis.gc?.();
  const started = process.hrtime.bigint();
  const parsed = await parseDocuments(ecb, [doc]);
  const parseMs = Number(process.hrtime.bigint() - started) / 1e6;
  const result = await storeParsed(store, ecb.bank, parsed, BENCH_IMPORT);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.inserted !== rows) throw new Error(`stored ${result.inserted} of ${rows}`);
  return { rows, ms, parseMs, storeMs: ms - parseMs, rowsPerSecond: rows / (ms / 1000) };
}

async function publishAll() {
  const adapters = await dailyAdapters();
  const at = new Date("2026-03-02T14:00:00Z");
  for (const a of adapters) {
    const records = ECB_CURRENCIES.filter((c) => c !== a.bank.bankCurrency).map((currency, i) => ({
      effectiveDate: "2026-03-02",
      currency,
      rate: (1.2345 + i * 0.731).toFixed(4),
      ...(i % 7 === 0 ? { unitMultiplier: 2 } : {}),
    }));
    await storeBatches(
      store,
      a.bank.id,
      [{ provenance: benchProvenance("https://bench.example/", a.bank.id, at), records }],
      at,
    );
  }
  globalThis.gc?.();
  const started = process.hrtime.bigint();
  const result = await publish(store, adapters, join(dir, "out"), { signing: UNSIGNED });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.rendered.length !== adapters.length)
    throw new Error(`rendered ${result.rendered.length} of ${adapters.length}`);
  return { banks: adapters.length, ms, msPerBank: ms / adapters.length };
}

// Import throughput: a generated multi-year ECB SDMX-CSV (live column layout) parsed, validated and
// stored in one transaction, against a baseline of the same rows inserted by a bare prepared
// statement (no parsing, no validation, no upsert) in the same kind of database.
//   node bench/import.mjs pipeline|baseline [years]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";

import ecb from "../dist/adapters/ECB.js";
import { parseDocuments, storeParsed } from "../dist/src/ingest/ingest.js";
import { openStore } from "../dist/src/store/database.js";
import { generateEcbCsv } from "./lib.mjs";
import { BENCH_IMPORT } from "./processes.mjs";

const [mode = "pipeline", yearsText = "26"] = process.argv.slice(2);
const { body, rows } = generateEcbCsv(Number(yearsText));
const dir = mkdtempSync(join(tmpdir(), "exrates-bench-"));
globalThis.gc?.();
const phases = {};
const started = process.hrtime.bigint();
// CPU time beside the wall clock: on a loaded machine the wall clock measures the neighbours too.
const cpuAtStart = process.cpuUsage();
const cpuMs = ({ user, system }) => (user + system) / 1000;
if (mode === "pipeline") {
  const store = await openStore(join(dir, "exrates.db"));
  const doc = {
    url: ecb.bank.sourceUrl,
    method: "GET",
    status: 200,
    contentType: "text/csv",
    body,
    startedAt: new Date(),
    finishedAt: new Date(),
  };
  const parsed = await parseDocuments(ecb, [doc]);
  phases.parseMs = Number(process.hrtime.bigint() - started) / 1e6;
  const result = await storeParsed(store, ecb.bank, parsed, BENCH_IMPORT);
  phases.storeMs = Number(process.hrtime.bigint() - started) / 1e6 - phases.parseMs;
  if (result.inserted !== rows) throw new Error(`stored ${result.inserted} of ${rows}`);
  await store.close();
} else {
  const db = new BetterSqlite3(join(dir, "baseline.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(
    "create table rates (bank_id text, effective_date text, currency text, rate text, primary key (bank_id, effective_date, currency)) without rowid",
  );
  const insert = db.prepare("insert into rates values (?, ?, ?, ?)");
  const text = body.toString();
  db.transaction(() => {
    for (const line of text.split("\n").slice(1)) {
      if (!line) continue;
      const f = line.split(",");
      insert.run("ECB", f[6], f[2], f[7]);
    }
  })();
  db.close();
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    mode,
    rows,
    ms,
    ...phases,
    cpuMs: cpuMs(process.cpuUsage(cpuAtStart)),
    rowsPerSecond: rows / (ms / 1000),
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    inputMB: body.length / 2 ** 20,
  }),
);

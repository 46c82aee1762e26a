// A fresh store in a temp directory, and figures stored as if fetched, for tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { openSqliteStore, type SqliteStore } from "../../src/store/database.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";

export async function tempStore(): Promise<{ store: SqliteStore; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "exrates-test-"));
  const store = await openSqliteStore(join(dir, "exrates.db"));
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One day's figures, as `[currency, rate, unitMultiplier?]`. */
export type Figures = Array<[string, string, number?]>;

/**
 * Stores one day's figures of a source as one fetched answer (its provenance a GET of `url` at `at`), as
 * an ingest would: the way the HTTP tests seed a store without an adapter.
 */
export function storeFigures(
  store: SqliteStore,
  source: string,
  effectiveDate: string,
  figures: Figures,
  at: string,
  url = `https://example.test/${source}`,
): void {
  const when = new Date(at);
  const records: RateRecord[] = figures.map(([currency, rate, unitMultiplier]) => ({
    effectiveDate,
    currency,
    rate,
    ...(unitMultiplier ? { unitMultiplier } : {}),
  }));
  const provenance = {
    ...{ kind: "fetch" as const, method: "GET" as const, url, startedAt: when, finishedAt: when },
    ...{ httpStatus: 200, body: Buffer.from(`${source} ${effectiveDate}`) },
  };
  ingestBatches(store, source, [{ provenance, records }], when);
}

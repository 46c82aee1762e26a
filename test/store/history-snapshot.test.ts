// The history reads' change detection and range snapshots, on each store engine: a commit of another
// connection moves the generation (SQLite's data_version, PostgreSQL's marker) and nothing else does;
// a range snapshot keeps the state it started on while another connection revises a figure, so its
// version and rows agree; on PostgreSQL the snapshot's pool client goes back to the pool on release.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Store } from "../../src/store/database.js";
import { HistoryReader, type HistoryStore, type RangeSnapshot } from "../../src/store/history.js";
import { PostgresHistoryReader } from "../../src/store/history-postgres.js";
import { storeBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";

async function rowsOf(snapshot: RangeSnapshot, bankId: string, from: string, to: string): Promise<string[]> {
  const out: string[] = [];
  const chunks = snapshot.range(bankId, from, to);
  for await (const chunk of chunks) for (const r of chunk) out.push(`${r.effectiveDate} ${r.currency} ${r.rate}`);
  return out;
}

describe.each(storeDialects())("history snapshots on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let reader: HistoryStore;
  let fetches = 0;

  const ingest = (records: RateRecord[]) =>
    storeBatches(store, "CNB", [
      {
        provenance: {
          kind: "import",
          method: "GET",
          url: "https://bank.example/feed",
          startedAt: new Date("2025-01-03T14:00:00Z"),
          finishedAt: new Date("2025-01-03T14:00:01Z"),
          httpStatus: 200,
          body: Buffer.from(`feed ${++fetches}`),
        },
        records,
      },
    ]);

  beforeAll(async () => {
    ({ store, cleanup } = await dialect.open());
    await ingest([
      { effectiveDate: "2024-12-31", currency: "EUR", rate: "25.180" },
      { effectiveDate: "2024-12-31", currency: "USD", rate: "24.120" },
      { effectiveDate: "2025-01-02", currency: "USD", rate: "24.350" },
    ]);
    reader = store.dialect === "sqlite" ? HistoryReader.open(store.sqlite.name) : new PostgresHistoryReader(store);
  });
  afterAll(async () => {
    reader?.close();
    await cleanup?.();
  });

  it("moves the generation when another connection commits rates, and only then", async () => {
    const before = await reader.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await reader.refresh()).toBe(before);
    await ingest([{ effectiveDate: "2025-01-03", currency: "USD", rate: "24.400" }]);
    await new Promise((resolve) => setImmediate(resolve));
    const after = await reader.refresh();
    expect(after).not.toBe(before);
    expect(reader.generation()).toBe(after);
    expect(await reader.dates("CNB")).toEqual(["2024-12-31", "2025-01-02", "2025-01-03"]);
  });

  it("reads a range in one snapshot while a figure is revised, then the revision in the next", async () => {
    const snapshot = await reader.snapshot();
    const version = await snapshot.versionOf("CNB", "2024-12-31", "2025-01-02");
    expect(version.rows).toBe(3);
    await ingest([{ effectiveDate: "2025-01-02", currency: "USD", rate: "24.999" }]);
    expect(await rowsOf(snapshot, "CNB", "2024-12-31", "2025-01-02")).toEqual([
      "2024-12-31 EUR 25.180",
      "2024-12-31 USD 24.120",
      "2025-01-02 USD 24.350",
    ]);
    expect(await snapshot.versionOf("CNB", "2024-12-31", "2025-01-02")).toEqual(version);
    snapshot.release();
    snapshot.release(); // a second release does nothing

    const next = await reader.snapshot();
    try {
      expect(await rowsOf(next, "CNB", "2025-01-02", "2025-01-02")).toEqual(["2025-01-02 USD 24.999"]);
      const revised = await next.versionOf("CNB", "2024-12-31", "2025-01-02");
      expect(revised.maxFetchId).toBeGreaterThan(version.maxFetchId);
      expect(await next.quotedIn("CNB", "2024-12-31", "2025-01-03", ["USD", "GBP"])).toEqual(new Set(["USD"]));
    } finally {
      next.release();
    }
    if (store.dialect === "postgres") {
      const pool = store.pool;
      // The commit is queued on the client; it goes back to the pool once that has run.
      for (let i = 0; i < 100 && pool.idleCount < pool.totalCount; i++) await new Promise((r) => setTimeout(r, 10));
      expect(pool.idleCount).toBe(pool.totalCount);
    }
  });
});

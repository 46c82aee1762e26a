// Backfill on both engines: chunks stored and remembered (a second run skips them), failed fetches kept
// as provenance, and which banks the tree does not show yet; the same answers on SQLite and PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { completedChunks, planBackfill, runBackfill, unpublishedBanks } from "../../src/backfill/backfill.js";
import { publish } from "../support/unsigned.js";
import type { Store } from "../../src/store/database.js";
import { storeBatches } from "../../src/store/rates.js";
import { storeDialects } from "../support/postgres.js";
import { testBank } from "../support/publish.js";
import { echo, rangeBank } from "./range-bank.js";

const NOW = new Date("2026-11-21T12:00:00Z");

describe.each(storeDialects())("backfill on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let dir: string;
  beforeEach(async () => {
    ({ store, cleanup } = await dialect.open());
    dir = mkdtempSync(join(tmpdir(), "exrates-backfill-"));
  });
  afterEach(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores every chunk, remembers it, and a second run fetches nothing again", async () => {
    const bank = rangeBank("AAA");
    const plans = planBackfill([bank], { from: "2026-01-01", to: "2026-04-30", now: NOW });
    const first = await runBackfill(store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(first.banks[0]).toMatchObject({ chunks: 4, stored: 4, skipped: 0, failed: 0, revised: 0 });
    expect(await completedChunks(store, "AAA")).toEqual(
      expect.arrayContaining([{ from: "2026-01-01", to: "2026-01-30" }]),
    );
    const chunks = await store.db.selectFrom("backfill_chunks").selectAll().orderBy("from_date").execute();
    expect(chunks[0]).toMatchObject({ bank_id: "AAA", inserted: 21, revised: 0, unchanged: 0, days_without: 0 }); // 2026-01-01 is a calendar closing
    const second = await runBackfill(store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(second.banks[0]).toMatchObject({ stored: 0, skipped: 4 });
    expect(bank.calls.length).toBe(4);
    const rate = await store.db
      .selectFrom("rates")
      .select("rate")
      .where("effective_date", "=", "2026-03-02")
      .executeTakeFirstOrThrow();
    expect(rate.rate).toBe("20.0302");
  });

  it("keeps a failing bank's failed fetches as provenance", async () => {
    const bad = rangeBank("BAD", { failFrom: "2026-02-01" });
    const summary = await runBackfill(store, planBackfill([bad], { from: "2026-01-01", to: "2026-08-31", now: NOW }), {
      http: echo,
      pauseMs: 0,
      now: () => NOW,
    });
    expect(summary.banks[0]).toMatchObject({ stored: 2, failed: 3 });
    const failed = await store.db
      .selectFrom("fetches")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("bank_id", "=", "BAD")
      .where("error", "is not", null)
      .executeTakeFirstOrThrow();
    expect(Number(failed.n)).toBe(3);
  });

  it("finds the banks whose stored data the tree does not show", async () => {
    const outDir = join(dir, "out");
    const banks = [testBank("AAA"), testBank("BBB"), testBank("CCC")];
    const store1 = (bankId: string, date: string, rate: string, at: string) =>
      storeBatches(
        store,
        bankId,
        [
          {
            provenance: {
              kind: "import",
              method: "GET",
              url: "https://bank.example/",
              startedAt: new Date(at),
              finishedAt: new Date(at),
              body: Buffer.from("x"),
            },
            records: [{ effectiveDate: date, currency: "USD", rate }],
          },
        ],
        new Date(at),
      );
    await store1("AAA", "2026-11-20", "20.5", "2026-11-20T14:00:00Z");
    await store1("BBB", "2026-11-20", "20.5", "2026-11-20T14:00:00Z");
    expect(await unpublishedBanks(store, outDir, ["AAA", "BBB", "CCC"])).toEqual(["AAA", "BBB"]);
    await publish(store, banks, outDir);
    expect(await unpublishedBanks(store, outDir, ["AAA", "BBB", "CCC"])).toEqual([]);
    await store1("AAA", "2026-11-23", "20.5", "2026-11-23T14:00:00Z");
    await store1("BBB", "2026-11-20", "20.6", "2026-11-23T14:00:00Z"); // a revision
    expect(await unpublishedBanks(store, outDir, ["AAA", "BBB", "CCC"])).toEqual(["AAA", "BBB"]);
  });
});

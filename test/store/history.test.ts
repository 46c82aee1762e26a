import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { HistoryReader, historyEtag, type HistoryRow } from "../../src/store/history.js";
import { ingestBatches, type Provenance } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let reader: HistoryReader;

const provenance = (body: string): Provenance => ({
  kind: "import",
  method: "GET",
  url: "https://bank.example/feed",
  startedAt: new Date("2026-03-02T14:00:00Z"),
  finishedAt: new Date("2026-03-02T14:00:01Z"),
  httpStatus: 200,
  body: Buffer.from(body),
});
const rec = (effectiveDate: string, currency: string, rate: string, unitMultiplier?: number): RateRecord =>
  unitMultiplier ? { effectiveDate, currency, rate, unitMultiplier } : { effectiveDate, currency, rate };
const ingest = (bank: string, records: RateRecord[], body = JSON.stringify(records)) =>
  ingestBatches(ctx.store, bank, [{ provenance: provenance(body), records }]);

beforeEach(async () => {
  ctx = await tempStore();
  // Fri 2024-12-27, Mon 2024-12-30, Tue 2024-12-31, then Thu 2025-01-02 (1 January a holiday).
  ingest("CNB", [
    rec("2024-12-27", "EUR", "25.185"),
    rec("2024-12-27", "USD", "24.160"),
    rec("2024-12-30", "EUR", "25.210"),
    rec("2024-12-30", "USD", "24.200"),
    rec("2024-12-30", "HUF", "6.110", 2),
    rec("2024-12-31", "EUR", "25.185"),
    rec("2024-12-31", "USD", "24.270"),
    rec("2025-01-02", "EUR", "25.200"),
    rec("2025-01-02", "USD", "24.300"),
  ]);
  ingest("ECB", [rec("2025-01-02", "USD", "1.0350"), rec("2025-01-03", "USD", "1.0300")]);
  reader = HistoryReader.open(join(ctx.dir, "exrates.db"));
});
afterEach(async () => {
  reader.close();
  await ctx.cleanup();
});

describe("the set in force on a date", () => {
  it("is the date itself on a publication day", () => {
    expect(reader.inForce("CNB", "2024-12-30", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2024-12-30" });
  });
  it("is the previous publication on a weekend or holiday, never a later one", () => {
    expect(reader.inForce("CNB", "2024-12-28", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2024-12-27" });
    expect(reader.inForce("CNB", "2024-12-29", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2024-12-27" });
    expect(reader.inForce("CNB", "2025-01-01", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2024-12-31" });
  });
  it("is none before the first date, in the future, or beyond the publication gap, with the dates around", () => {
    expect(reader.inForce("CNB", "2024-12-26", "2026-01-01")).toEqual({
      kind: "none",
      reason: "before-first",
      first: "2024-12-27",
      latest: "2025-01-02",
      after: "2024-12-27",
    });
    expect(reader.inForce("CNB", "2025-01-05", "2025-01-04")).toMatchObject({ kind: "none", reason: "future" });
    expect(reader.inForce("CNB", "2025-01-16", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-02" });
    expect(reader.inForce("CNB", "2025-01-17", "2026-01-01")).toEqual({
      kind: "none",
      reason: "gap",
      first: "2024-12-27",
      latest: "2025-01-02",
      before: "2025-01-02",
    });
    expect(reader.inForce("XYZ", "2025-01-02", "2026-01-01")).toEqual({ kind: "none", reason: "no-data" });
  });
  it("sees a date another connection stores afterwards", () => {
    expect(reader.inForce("CNB", "2025-01-03", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-02" });
    ingest("CNB", [rec("2025-01-03", "USD", "24.400")], "later");
    expect(reader.inForce("CNB", "2025-01-03", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-03" });
    expect(reader.banks().find((b) => b.bankId === "CNB")?.latest).toBe("2025-01-03");
  });
  it("with manualRefresh, sees it at the next refresh only", () => {
    const manual = HistoryReader.open(join(ctx.dir, "exrates.db"), { manualRefresh: true });
    try {
      const before = manual.refresh();
      expect(manual.inForce("CNB", "2025-01-03", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-02" });
      ingest("CNB", [rec("2025-01-03", "USD", "24.400")], "later");
      expect(manual.inForce("CNB", "2025-01-03", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-02" });
      expect(manual.refresh()).not.toBe(before);
      expect(manual.inForce("CNB", "2025-01-03", "2026-01-01")).toEqual({ kind: "found", effectiveDate: "2025-01-03" });
    } finally {
      manual.close();
    }
  });
});

describe("rates and ranges", () => {
  it("gives a date's rows with the exact text, filtered when asked", () => {
    expect(reader.ratesOn("CNB", "2024-12-30")).toEqual([
      { effectiveDate: "2024-12-30", currency: "EUR", rate: "25.210", unitMultiplier: 0 },
      { effectiveDate: "2024-12-30", currency: "HUF", rate: "6.110", unitMultiplier: 2 },
      { effectiveDate: "2024-12-30", currency: "USD", rate: "24.200", unitMultiplier: 0 },
    ]);
    expect(reader.ratesOn("CNB", "2024-12-30", ["USD", "GBP"]).map((r) => r.currency)).toEqual(["USD"]);
  });
  it("gives a date's rows and their version in one read, the version over the kept rows only", () => {
    const all = reader.ratesWithVersion("CNB", "2024-12-30");
    expect(all.rows).toEqual(reader.ratesOn("CNB", "2024-12-30"));
    expect(all.version).toEqual(reader.versionOf("CNB", "2024-12-30", "2024-12-30"));
    ingest("CNB", [rec("2024-12-30", "EUR", "25.211")], "EUR revised");
    const usd = reader.ratesWithVersion("CNB", "2024-12-30", ["USD", "GBP"]);
    expect(usd.rows).toEqual([{ effectiveDate: "2024-12-30", currency: "USD", rate: "24.200", unitMultiplier: 0 }]);
    // The EUR revision is not behind the USD answer: its version is the USD row's alone.
    expect(usd.version).toEqual(reader.versionOf("CNB", "2024-12-30", "2024-12-30", ["USD", "GBP"]));
    expect(usd.version.maxFetchId).toBeLessThan(reader.ratesWithVersion("CNB", "2024-12-30").version.maxFetchId);
    expect(reader.ratesWithVersion("CNB", "2024-12-29")).toEqual({
      rows: [],
      version: { rows: 0, maxStoredAt: "", maxFetchId: 0 },
    });
    expect(reader.ratesWithVersion("CNB", "2024-12-29", ["USD"]).rows).toEqual([]);
  });
  it("reads a range across a year boundary oldest first, in chunks that resume exactly", () => {
    const records: RateRecord[] = [];
    // 3000 rows over 100 days: more than one chunk.
    for (let d = 0; d < 100; d++) {
      const date = new Date(Date.UTC(2020, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      for (let c = 0; c < 30; c++)
        records.push(rec(date, `A${String.fromCharCode(65 + (c % 26))}${c < 26 ? "A" : "B"}`, `1.${d}${c}`));
    }
    ingest("BIG", records);
    const rows = [...reader.range("BIG", "2020-01-01", "2020-12-31")].flat();
    expect(rows).toHaveLength(3000);
    expect(rows.map((r) => `${r.effectiveDate} ${r.currency}`)).toEqual(
      [...records]
        .sort((a, b) => (a.effectiveDate + a.currency < b.effectiveDate + b.currency ? -1 : 1))
        .map((r) => `${r.effectiveDate} ${r.currency}`),
    );
    const cnb = [...reader.range("CNB", "2024-12-31", "2025-01-02", ["USD"])].flat();
    expect(cnb.map((r) => [r.effectiveDate, r.rate])).toEqual([
      ["2024-12-31", "24.270"],
      ["2025-01-02", "24.300"],
    ]);
    expect([...reader.range("CNB", "2025-02-01", "2025-03-01")]).toEqual([]);
  });
  it("versions the rows behind a response: a correction changes it, another bank's data does not", () => {
    const before = reader.versionOf("CNB", "2024-12-27", "2025-01-02");
    expect(before.rows).toBe(9);
    ingest("ECB", [rec("2025-01-06", "USD", "1.0400")], "ecb later");
    expect(reader.versionOf("CNB", "2024-12-27", "2025-01-02")).toEqual(before);
    ingest("CNB", [rec("2024-12-30", "USD", "24.201")], "correction");
    const after = reader.versionOf("CNB", "2024-12-27", "2025-01-02");
    expect(after.rows).toBe(9);
    expect(after.maxFetchId).toBeGreaterThan(before.maxFetchId);
    expect(historyEtag("CNB", after.maxFetchId)).not.toBe(historyEtag("CNB", before.maxFetchId));
  });
});

describe("a range's snapshot", () => {
  it("reads one state of the store from the version to the last chunk, whatever is committed meanwhile", () => {
    const records: RateRecord[] = [];
    // 3000 rows over 100 days: two chunks and more.
    for (let d = 0; d < 100; d++) {
      const date = new Date(Date.UTC(2020, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      for (let c = 0; c < 30; c++)
        records.push(rec(date, `A${String.fromCharCode(65 + (c % 26))}${c < 26 ? "A" : "B"}`, `1.${d}${c}`));
    }
    ingest("BIG", records);
    const snapshot = reader.snapshot();
    const version = snapshot.versionOf("BIG", "2020-01-01", "2020-12-31");
    const chunks = snapshot.range("BIG", "2020-01-01", "2020-12-31");
    const first = chunks.next().value as HistoryRow[];
    expect(first.length).toBeGreaterThan(0);
    // While the range is being written: a revision of its last figure and a new date, committed.
    const last = records.at(-1)!;
    ingest("BIG", [rec(last.effectiveDate, last.currency, "9.999"), rec("2020-12-01", "AAA", "2.5")], "meanwhile");
    const rows = [first, ...chunks].flat();
    expect(rows).toHaveLength(3000);
    const revised = rows.find((r) => r.effectiveDate === last.effectiveDate && r.currency === last.currency);
    expect(revised?.rate).toBe(last.rate);
    expect(rows.some((r) => r.effectiveDate === "2020-12-01")).toBe(false);
    expect(snapshot.versionOf("BIG", "2020-01-01", "2020-12-31")).toEqual(version);
    snapshot.release();
    snapshot.release(); // once only
    // The next range (the same connection, kept) sees the new state, and a new version.
    const next = reader.snapshot();
    const after = next.versionOf("BIG", "2020-01-01", "2020-12-31");
    expect(after.rows).toBe(3001);
    expect(after.maxFetchId).toBeGreaterThan(version.maxFetchId);
    const lastDay = [...next.range("BIG", last.effectiveDate, last.effectiveDate)].flat();
    expect(lastDay.find((r) => r.currency === last.currency)?.rate).toBe("9.999");
    expect([...next.range("BIG", "2020-12-01", "2020-12-31")].flat()).toEqual([
      { effectiveDate: "2020-12-01", currency: "AAA", rate: "2.5", unitMultiplier: 0 },
    ]);
    next.release();
  });
});

describe("banks and currencies", () => {
  it("lists each bank's first and latest dates", () => {
    expect(reader.banks()).toEqual([
      { bankId: "CNB", first: "2024-12-27", latest: "2025-01-02" },
      { bankId: "ECB", first: "2025-01-02", latest: "2025-01-03" },
    ]);
    expect(reader.lastFetchAt()).toBe("2026-03-02T14:00:01.000Z");
  });
  it("lists each currency with the banks quoting it and since when", () => {
    expect(reader.currencies().list).toEqual([
      { currency: "EUR", banks: [{ bankId: "CNB", since: "2024-12-27", latest: "2025-01-02" }] },
      { currency: "HUF", banks: [{ bankId: "CNB", since: "2024-12-30", latest: "2024-12-30" }] },
      {
        currency: "USD",
        banks: [
          { bankId: "CNB", since: "2024-12-27", latest: "2025-01-02" },
          { bankId: "ECB", since: "2025-01-02", latest: "2025-01-03" },
        ],
      },
    ]);
    // Another bank's new currency and a later date of one quoted already both show at once.
    ingest("ECB", [rec("2025-01-06", "JPY", "162.50"), rec("2025-01-06", "USD", "1.0400")], "ecb later");
    const after = reader.currencies().list;
    expect(after.find((c) => c.currency === "JPY")).toEqual({
      currency: "JPY",
      banks: [{ bankId: "ECB", since: "2025-01-06", latest: "2025-01-06" }],
    });
    expect(after.find((c) => c.currency === "USD")!.banks[1]).toEqual({
      bankId: "ECB",
      since: "2025-01-02",
      latest: "2025-01-06",
    });
    expect(after.find((c) => c.currency === "EUR")).toEqual({
      currency: "EUR",
      banks: [{ bankId: "CNB", since: "2024-12-27", latest: "2025-01-02" }],
    });
    expect(reader.quotes("CNB", "HUF")).toBe(true);
    expect(reader.quotes("ECB", "HUF")).toBe(false);
  });
  it("never writes: the connection is read-only", () => {
    expect(() => reader.sqlite.prepare("delete from rates").run()).toThrow(/readonly/i);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { SqliteStore as Store } from "../../src/store/database.js";
import { ingestBatches, newestDate, newestDates, ratesOn, type Provenance } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let store: Store;
beforeEach(async () => {
  ctx = await tempStore();
  store = ctx.store;
});
afterEach(() => ctx.cleanup());

const provenance = (body = "body"): Provenance => ({
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

describe("the rate store", () => {
  it("is in WAL mode and migrated", () => {
    expect(store.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.sqlite.prepare("select count(*) from kysely_migration").pluck().get()).toBeGreaterThanOrEqual(1);
  });

  it("stores the exact decimal text and the unit", async () => {
    const r = ingestBatches(store, "CNB", [
      { provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170"), rec("2026-03-02", "HUF", "6.304", 2)] },
    ]);
    expect(r).toMatchObject({ inserted: 2, revised: 0, unchanged: 0, changedDates: ["2026-03-02"] });
    expect(await ratesOn(store, "CNB", "2026-03-02")).toMatchObject([
      { currency: "EUR", rate: "24.170", unitMultiplier: 0, derivation: null },
      { currency: "HUF", rate: "6.304", unitMultiplier: 2 },
    ]);
    const fetch = store.sqlite.prepare("select * from fetches").get() as Record<string, unknown>;
    expect(fetch).toMatchObject({ bank_id: "CNB", kind: "import", http_status: 200, bytes: 4, error: null });
    expect(fetch.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes nothing when the same data comes again", async () => {
    const batch = [{ provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170")] }];
    ingestBatches(store, "CNB", batch);
    const again = ingestBatches(store, "CNB", batch);
    expect(again).toMatchObject({ inserted: 0, revised: 0, unchanged: 1, changedDates: [] });
    expect(store.sqlite.prepare("select count(*) from rate_revisions").pluck().get()).toBe(0);
    expect((await ratesOn(store, "CNB", "2026-03-02"))[0]!.rate).toBe("24.170");
  });

  it("makes a corrected value current and keeps the old one as a revision with both fetch ids", async () => {
    const first = ingestBatches(store, "CNB", [
      {
        provenance: provenance("a"),
        records: [rec("2026-03-02", "EUR", "24.170"), rec("2026-03-02", "USD", "20.611")],
      },
    ]);
    const second = ingestBatches(store, "CNB", [
      {
        provenance: provenance("b"),
        records: [rec("2026-03-02", "EUR", "24.175"), rec("2026-03-02", "USD", "20.611")],
      },
    ]);
    expect(second).toMatchObject({ inserted: 0, revised: 1, unchanged: 1, changedDates: ["2026-03-02"] });
    expect((await ratesOn(store, "CNB", "2026-03-02"))[0]!.rate).toBe("24.175");
    expect(store.sqlite.prepare("select * from rate_revisions").all()).toMatchObject([
      {
        bank_id: "CNB",
        effective_date: "2026-03-02",
        currency: "EUR",
        old_rate: "24.170",
        new_rate: "24.175",
        old_fetch_id: first.fetchIds[0],
        new_fetch_id: second.fetchIds[0],
      },
    ]);
  });

  it("keeps a changed unit as a revision too", () => {
    ingestBatches(store, "CNB", [{ provenance: provenance(), records: [rec("2026-03-02", "HUF", "6.304", 2)] }]);
    const r = ingestBatches(store, "CNB", [
      { provenance: provenance(), records: [rec("2026-03-02", "HUF", "0.06304")] },
    ]);
    expect(r.revised).toBe(1);
    expect(store.sqlite.prepare("select old_unit_multiplier, new_unit_multiplier from rate_revisions").get()).toEqual({
      old_unit_multiplier: 2,
      new_unit_multiplier: 0,
    });
  });

  it("stores all of an ingest or nothing: a failure part way rolls back its rows and its provenance", async () => {
    ingestBatches(store, "CNB", [{ provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170")] }]);
    const broken = { effectiveDate: "2026-03-03", currency: "USD", rate: null as unknown as string };
    expect(() =>
      ingestBatches(store, "CNB", [
        {
          provenance: provenance("x"),
          records: [rec("2026-03-03", "EUR", "24.200"), rec("2026-03-02", "EUR", "99.9")],
        },
        { provenance: provenance("y"), records: [broken] },
      ]),
    ).toThrow();
    expect(await newestDate(store, "CNB")).toBe("2026-03-02");
    expect((await ratesOn(store, "CNB", "2026-03-02"))[0]!.rate).toBe("24.170");
    expect(store.sqlite.prepare("select count(*) from fetches").pluck().get()).toBe(1);
    expect(store.sqlite.prepare("select count(*) from rate_revisions").pluck().get()).toBe(0);
  });

  it("counts and dates every row across multi-row statements, remainders and several batches", async () => {
    const codes = [
      "AUD",
      "BRL",
      "CAD",
      "CHF",
      "CNY",
      "DKK",
      "GBP",
      "HKD",
      "HUF",
      "IDR",
      "ILS",
      "INR",
      "ISK",
      "JPY",
      "KRW",
      "MXN",
      "MYR",
      "NOK",
      "NZD",
    ];
    const day = (d: number) => `2026-03-${String(d).padStart(2, "0")}`;
    const first = codes.flatMap((c, i) => [rec(day(2), c, `1.${i}0`), rec(day(3), c, `2.${i}0`)]); // 38 rows: 2 x 16 + 6
    const second = codes.slice(0, 5).map((c, i) => rec(day(4), c, `3.${i}0`)); // 5 rows: a remainder only
    expect(
      ingestBatches(store, "CNB", [
        { provenance: provenance("a"), records: first },
        { provenance: provenance("b"), records: second },
      ]),
    ).toMatchObject({
      inserted: 43,
      revised: 0,
      unchanged: 0,
      changedDates: [day(2), day(3), day(4)],
    });
    expect(store.sqlite.prepare("select count(*) from rates").pluck().get()).toBe(43);
    // Again, with one figure of the 3rd changed (inside the second 16-row statement) and one of the 4th.
    const again = first.map((r) => (r.effectiveDate === day(3) && r.currency === "AUD" ? { ...r, rate: "2.05" } : r));
    const again2 = second.map((r) => (r.currency === "CAD" ? { ...r, rate: "3.25" } : r));
    expect(
      ingestBatches(store, "CNB", [
        { provenance: provenance("c"), records: again },
        { provenance: provenance("d"), records: again2 },
      ]),
    ).toMatchObject({
      inserted: 0,
      revised: 2,
      unchanged: 41,
      changedDates: [day(3), day(4)],
    });
    expect((await ratesOn(store, "CNB", day(3))).find((r) => r.currency === "AUD")!.rate).toBe("2.05");
    expect((await ratesOn(store, "CNB", day(4))).find((r) => r.currency === "CAD")!.rate).toBe("3.25");
  });

  describe("a history listed currency by currency (stored in date order when nothing is stored over it)", () => {
    const codes = ["AUD", "CAD", "CHF", "JPY", "USD"];
    const day = (d: number) => `2026-03-${String(d).padStart(2, "0")}`;
    // 5 currencies x 7 days = 35 rows, each currency's days in a row: not in date order.
    const byCurrency = codes.flatMap((c, i) => [2, 3, 4, 5, 6, 9, 10].map((d) => rec(day(d), c, `${i + 1}.${d}`)));
    const allRows = (s: Store) =>
      s.sqlite
        .prepare(
          "select bank_id, effective_date, currency, rate, unit_multiplier, derivation, valid_to from rates order by 1, 2, 3",
        )
        .all();

    it("stores the same rows, counts and dates as the same records given one date at a time", async () => {
      const r = ingestBatches(store, "CNB", [{ provenance: provenance(), records: byCurrency }]);
      expect(r).toMatchObject({ inserted: 35, revised: 0, unchanged: 0 });
      expect(r.changedDates).toEqual([2, 3, 4, 5, 6, 9, 10].map(day));
      const other = await tempStore();
      try {
        // One batch per date (each in date order, so taken as given) into another store.
        for (const d of r.changedDates)
          ingestBatches(other.store, "CNB", [
            { provenance: provenance(), records: byCurrency.filter((x) => x.effectiveDate === d) },
          ]);
        expect(allRows(store)).toEqual(allRows(other.store));
        expect(allRows(store)).toHaveLength(35);
      } finally {
        await other.cleanup();
      }
    });

    it("over stored figures, goes in as given: revisions, unchanged rows and changed dates as before", () => {
      ingestBatches(store, "CNB", [{ provenance: provenance("a"), records: byCurrency }]);
      const changed = byCurrency.map((x) =>
        x.currency === "CHF" && x.effectiveDate === day(5) ? { ...x, rate: "9.99" } : x,
      );
      const again = ingestBatches(store, "CNB", [{ provenance: provenance("b"), records: changed }]);
      expect(again).toMatchObject({ inserted: 0, revised: 1, unchanged: 34, changedDates: [day(5)] });
      expect(store.sqlite.prepare("select currency, old_rate, new_rate from rate_revisions").all()).toEqual([
        { currency: "CHF", old_rate: "3.5", new_rate: "9.99" },
      ]);
    });

    it("a date and currency given twice keeps the order given: the later figure stands, the earlier a revision", () => {
      const twice = [...byCurrency, rec(day(3), "AUD", "7.77")];
      const r = ingestBatches(store, "CNB", [{ provenance: provenance(), records: twice }]);
      expect(r).toMatchObject({ inserted: 35, revised: 1, unchanged: 0 });
      expect(
        store.sqlite
          .prepare("select rate from rates where effective_date = ? and currency = 'AUD'")
          .pluck()
          .get(day(3)),
      ).toBe("7.77");
      expect(store.sqlite.prepare("select old_rate, new_rate from rate_revisions").all()).toEqual([
        { old_rate: "1.3", new_rate: "7.77" },
      ]);
    });
  });

  it("tells each bank's newest date", async () => {
    ingestBatches(store, "CNB", [
      { provenance: provenance(), records: [rec("2026-03-02", "EUR", "24.170"), rec("2026-03-03", "EUR", "24.180")] },
    ]);
    ingestBatches(store, "ECB", [{ provenance: provenance(), records: [rec("2026-02-27", "USD", "1.0850")] }]);
    expect(await newestDates(store)).toEqual(
      new Map([
        ["CNB", "2026-03-03"],
        ["ECB", "2026-02-27"],
      ]),
    );
    expect(await newestDate(store, "BOC")).toBeUndefined();
  });
});

// The in-memory index of a bank's days (src/store/day-index.ts, kept by
// src/serve/resources/history/day-indexes.ts) against the store it is built from, on each engine: for
// every stored date, a date with nothing stored and every filter, the same rows (exact decimal text,
// units, order), the same version (count, newest stored_at, fetch id: the ETag) and the same warnings
// as the store's own reads, which is what a dated answer is rendered from. After an ingest or a
// correction the index follows the store; texts it cannot split are kept as they are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DayIndexes, dayIndexBytes } from "../../src/serve/resources/history/day-indexes.js";
import { BankDays, rateText } from "../../src/store/day-index.js";
import type { Store } from "../../src/store/database.js";
import { HistoryReader, type HistoryStore } from "../../src/store/history.js";
import { PostgresHistoryReader } from "../../src/store/history-postgres.js";
import { storeBatches } from "../../src/store/rates.js";
import type { AnomalyInput } from "../../src/store/anomalies.js";
import type { RateRecord } from "../../src/types.js";
import { storeDialects } from "../support/postgres.js";

const DATES = ["2024-12-20", "2024-12-23", "2024-12-27", "2024-12-30", "2024-12-31", "2025-01-02"];
/** Texts of every shape the index keeps: trailing and leading zeros, integers, long digits, units. */
const figure = (d: number, currency: string): RateRecord => {
  const rates: Record<string, string> = {
    EUR: `25.1${d}0`,
    HUF: `0.0${d}450`,
    IDR: `0.00148${d}`,
    JPY: `15.${d}`,
    KRW: `1.${d}23456789012345`, // 16 digits: kept as text
    USD: `24.${String(100 + d * 7).padStart(3, "0")}`,
    XAU: `5${d}123`,
  };
  const units: Record<string, number> = { HUF: 2, IDR: 3, JPY: 2 };
  return { effectiveDate: DATES[d]!, currency, rate: rates[currency]!, unitMultiplier: units[currency] ?? 0 };
};
const CURRENCIES = ["USD", "EUR", "HUF", "IDR", "JPY", "KRW", "XAU"];
const FILTERS: Array<string[] | undefined> = [undefined, ["USD"], ["EUR", "JPY", "XAU"], ["CHF", "USD"], ["CHF"]];
const EVERY = ["2024-12-19", ...DATES, "2024-12-21", "2025-01-05"];

describe.each(storeDialects())("the day index on $name", (dialect) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let reader: HistoryStore;
  let fetches = 0;

  const ingest = (records: RateRecord[], anomalies: AnomalyInput[] = []) =>
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
        anomalies,
      },
    ]);

  /** Every read a dated answer is made of, from the store and from the index, side by side. */
  async function compare(index: BankDays): Promise<number> {
    let compared = 0;
    for (const date of EVERY)
      for (const filter of FILTERS) {
        expect(index.day(date, filter), `${date} ${filter?.join(",")}`).toEqual(
          await reader.ratesWithVersion("CNB", date, filter),
        );
        expect(index.versionOf(date, filter)).toEqual(await reader.versionOf("CNB", date, date, filter));
        expect(index.warnings(date)).toEqual(await reader.warnings("CNB", date, date));
        compared++;
      }
    return compared;
  }

  beforeAll(async () => {
    ({ store, cleanup } = await dialect.open());
    await ingest(DATES.flatMap((_, d) => CURRENCIES.map((c) => figure(d, c))));
    reader = store.dialect === "sqlite" ? HistoryReader.open(store.sqlite.name) : new PostgresHistoryReader(store);
  });
  afterAll(async () => {
    reader?.close();
    await cleanup?.();
  });

  it("gives every date's rows, version and warnings as the store does, with and without filters", async () => {
    await reader.refresh();
    const indexes = new DayIndexes();
    // A first miss does not wait for the index: it is made in turns, the store read meanwhile.
    expect(indexes.of(reader, "CNB")).toBeUndefined();
    const index = (await indexes.whenBuilt(reader, "CNB"))!;
    expect(indexes.of(reader, "CNB")).toBe(index);
    expect(index.size).toBe(DATES.length * CURRENCIES.length);
    expect(await compare(index)).toBe(EVERY.length * FILTERS.length);
    // The exact texts, not only equal to the store's: the long one kept whole.
    expect(index.day("2024-12-31", ["HUF", "KRW", "XAU"]).rows.map((r) => [r.rate, r.unitMultiplier])).toEqual([
      ["0.04450", 2],
      ["1.423456789012345", 0],
      ["54123", 0],
    ]);
  });

  it("follows a correction of one figure, a new date and a warning: the same reads as the store's again", async () => {
    const indexes = new DayIndexes();
    await reader.refresh();
    const before = (await indexes.whenBuilt(reader, "CNB"))!;
    // A correction of one figure of a past date (a day of mixed versions), a new date, a warned figure.
    await ingest(
      [
        { effectiveDate: "2024-12-23", currency: "USD", rate: "24.999" },
        { effectiveDate: "2025-01-03", currency: "USD", rate: "24.400" },
        { effectiveDate: "2025-01-03", currency: "EUR", rate: "25.500" },
      ],
      [
        {
          kind: "jump",
          reason: "EUR 25.500 doubted",
          status: "warned",
          effectiveDate: "2025-01-03",
          currency: "EUR",
          rate: "25.500",
          unitMultiplier: 0,
        },
      ],
    );
    await new Promise((resolve) => setImmediate(resolve));
    await reader.refresh();
    const after = (await indexes.whenBuilt(reader, "CNB"))!;
    expect(after).not.toBe(before);
    EVERY.push("2025-01-03");
    expect(await compare(after)).toBe(EVERY.length * FILTERS.length);
    expect(after.day("2024-12-23", ["USD"]).rows[0]!.rate).toBe("24.999");
    expect(after.warnings("2025-01-03").map((w) => w.reason)).toEqual(["EUR 25.500 doubted"]);
    // Nothing committed since: the same index, not built again.
    await new Promise((resolve) => setImmediate(resolve));
    await reader.refresh();
    expect(indexes.of(reader, "CNB")).toBe(after);
  });

  it("serves the new state after a commit that lands during a build", async () => {
    const indexes = new DayIndexes();
    await reader.refresh();
    // A commit lands between the build's read of the rows and its read of the warnings.
    let meddle = true;
    const meddling = new Proxy(reader, {
      get(target, name) {
        if (name === "warnings" && meddle)
          return async (...args: Parameters<HistoryStore["warnings"]>) => {
            meddle = false;
            await ingest([{ effectiveDate: "2024-12-20", currency: "USD", rate: "24.777" }]);
            return target.warnings(...args);
          };
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    expect(indexes.of(meddling, "CNB")).toBeUndefined();
    const days = (await indexes.whenBuilt(meddling, "CNB"))!;
    expect(meddle).toBe(false);
    expect(days.day("2024-12-20", ["USD"]).rows[0]!.rate).toBe("24.777");
    expect(await compare(days)).toBe(EVERY.length * FILTERS.length);
  });

  it.runIf(dialect.name === "sqlite")(
    "reads a SQLite bank's rows in slices, together the same rows in the same order",
    () => {
      const sqlite = reader as HistoryReader;
      const all = [...sqlite.bankRows("CNB")];
      const sliced = [];
      let after: [string, string] | undefined = ["", ""];
      let slices = 0;
      while (after) {
        const slice = sqlite.bankRowsAfter("CNB", after[0], after[1], 5);
        sliced.push(...slice.rows);
        after = slice.next;
        slices++;
      }
      expect(all.length).toBeGreaterThan(10);
      expect(sliced).toEqual(all);
      expect(slices).toBe(Math.floor(all.length / 5) + 1);
    },
  );

  it("keeps no index under a bound of 0 (EXRATES_DAY_INDEX_MB=0), or for a bank larger than the bound", async () => {
    await reader.refresh();
    expect(dayIndexBytes({ EXRATES_DAY_INDEX_MB: "0" })).toBe(0);
    expect(dayIndexBytes({})).toBeGreaterThan(100 * 1024 * 1024);
    expect(() => dayIndexBytes({ EXRATES_DAY_INDEX_MB: "lots" })).toThrow(/EXRATES_DAY_INDEX_MB/);
    expect(await new DayIndexes(0).whenBuilt(reader, "CNB")).toBeUndefined();
    const tiny = new DayIndexes(64);
    expect(await tiny.whenBuilt(reader, "CNB")).toBeUndefined();
    expect(tiny.of(reader, "CNB")).toBeUndefined();
    expect(tiny.size.banks).toBe(0);
  });
});

describe("the day index's texts", () => {
  it("makes every rate's text again exactly, or keeps it as it is", () => {
    const texts = ["0", "7", "0.5", "0.0450", "10.000", "123456789.123456", "00.5", "1.", "1e-5", "-1.5", "+2", ""];
    const rows = texts.map((rate, i) => ["2025-01-02", `C${String(i).padStart(2, "0")}`, rate, 0, "x", 1] as const);
    const index = BankDays.build(rows, []);
    expect(index.day("2025-01-02").rows.map((r) => r.rate)).toEqual(texts);
    expect(rateText(450, 4)).toBe("0.0450");
    expect(rateText(5, 0)).toBe("5");
  });

  it("sorts rows given out of order by date then currency, as the store's key does", () => {
    const index = BankDays.build(
      [
        ["2025-01-03", "USD", "2.0", 0, "2025-01-03T16:00:00.000Z", 2],
        ["2025-01-02", "USD", "1.0", 0, "2025-01-02T16:00:00.000Z", 1],
        ["2025-01-02", "EUR", "1.5", 0, "2025-01-02T16:00:00.000Z", 1],
      ],
      [],
    );
    expect(index.day("2025-01-02").rows.map((r) => r.currency)).toEqual(["EUR", "USD"]);
    expect(index.day("2025-01-03").version).toEqual({
      rows: 1,
      maxStoredAt: "2025-01-03T16:00:00.000Z",
      maxFetchId: 2,
    });
    expect(index.day("2025-01-04")).toEqual({ rows: [], version: { rows: 0, maxStoredAt: "", maxFetchId: 0 } });
  });
});

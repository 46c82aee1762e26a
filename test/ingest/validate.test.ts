import { describe, expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import { sortRecords, validateRecords } from "../../src/ingest/validate.js";
import type { RateRecord } from "../../src/types.js";

const ok: RateRecord = { effectiveDate: "2026-03-02", currency: "USD", rate: "20.611" };
const check = (records: RateRecord[]) => validateRecords("CNB", "CZK", records);

describe("the ingest gate", () => {
  it("passes sound records through and folds exact duplicates", () => {
    expect(check([ok, { ...ok }, { ...ok, currency: "JPY", rate: "13.141", unitMultiplier: 2 }])).toEqual([
      ok,
      { ...ok, currency: "JPY", rate: "13.141", unitMultiplier: 2 },
    ]);
  });

  it("drops a unitMultiplier of 0 (one unit)", () => {
    expect(check([{ ...ok, unitMultiplier: 0 }])).toEqual([ok]);
  });

  it.each([
    ["a date that does not exist", { ...ok, effectiveDate: "2026-02-30" }, /2026-02-30" is not a real/],
    ["a lower-case currency", { ...ok, currency: "usd" }, /currency "usd"/],
    ["the base currency itself", { ...ok, currency: "CZK" }, /base currency CZK against itself/],
    ["a float", { ...ok, rate: 20.611 as unknown as string }, /is not a positive decimal/],
    ["a zero rate", { ...ok, rate: "0.000" }, /is not a positive decimal/],
    ["an exponent", { ...ok, rate: "2.0611e1" }, /is not a positive decimal/],
    ["a negative unit", { ...ok, unitMultiplier: -1 }, /unitMultiplier -1/],
  ])("refuses %s", (_what, record, message) => {
    expect(() => check([record as RateRecord])).toThrow(FeedError);
    expect(() => check([record as RateRecord])).toThrow(message);
  });

  it("refuses two different values for one date and currency", () => {
    expect(() => check([ok, { ...ok, rate: "20.612" }])).toThrow(
      "CNB: two different rates for USD on 2026-03-02: 20.611 and 20.612",
    );
  });

  it("sorts by date, then currency", () => {
    const b = { ...ok, currency: "AUD" };
    const c = { ...ok, effectiveDate: "2026-03-01", currency: "ZAR" };
    expect(sortRecords([ok, b, c])).toEqual([c, b, ok]);
  });
});

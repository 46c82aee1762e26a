import { describe, expect, it } from "vitest";

import { gateRecords, holdCrossAnswerConflicts, sortRecords } from "../../src/ingest/validate.js";
import type { ParsedAnswer, RateRecord } from "../../src/types.js";

const ok: RateRecord = { effectiveDate: "2026-03-02", currency: "USD", rate: "20.611" };
const jpy: RateRecord = { ...ok, currency: "JPY", rate: "13.141", unitMultiplier: 2 };
const check = (records: RateRecord[]) => gateRecords("CZK", records);

describe("the ingest gate", () => {
  it("passes sound records through and folds exact duplicates", () => {
    expect(check([ok, { ...ok }, jpy])).toEqual({ records: [ok, jpy], held: [] });
  });

  it("drops a unitMultiplier of 0 (one unit)", () => {
    expect(check([{ ...ok, unitMultiplier: 0 }])).toEqual({ records: [ok], held: [] });
  });

  it.each([
    ["a date that does not exist", { ...ok, effectiveDate: "2026-02-30" }, "bad-date", /2026-02-30" is not a real/],
    ["a lower-case currency", { ...ok, currency: "usd" }, "unknown-currency", /currency "usd"/],
    [
      "a made-up code",
      { ...ok, currency: "QQQ" },
      "unknown-currency",
      /"QQQ" is neither an ISO 4217 code nor a market/,
    ],
    ["ISO's testing code", { ...ok, currency: "XTS" }, "unknown-currency", /"XTS" is neither an ISO 4217 code/],
    ["the base currency itself", { ...ok, currency: "CZK" }, "bad-row", /base currency CZK against itself/],
    ["a float", { ...ok, rate: 20.611 as unknown as string }, "bad-rate", /is not a positive decimal/],
    ["a zero rate", { ...ok, rate: "0.000" }, "bad-rate", /is not a positive decimal/],
    ["an exponent", { ...ok, rate: "2.0611e1" }, "bad-rate", /is not a positive decimal/],
    ["a negative unit", { ...ok, unitMultiplier: -1 }, "unknown-unit", /unitMultiplier -1/],
  ])("holds %s and takes the other rows", (_what, record, kind, message) => {
    const { records, held } = check([jpy, record, { ...ok, currency: "EUR", rate: "24.170" }]);
    expect(records).toEqual([jpy, { ...ok, currency: "EUR", rate: "24.170" }]);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ kind, source: "record 2" });
    expect(held[0]!.reason).toMatch(message);
  });

  it("accepts historical ISO codes and metals (ICU's list, not a table)", () => {
    const old = ["DEM", "VEF", "MRO", "XAU", "XDR", "SLE"].map((currency) => ({ ...ok, currency }));
    expect(check(old).held).toEqual([]);
  });

  it("accepts the market codes (CNH, the offshore yuan), and no other non-ISO code", () => {
    expect(check([{ ...ok, currency: "CNH" }])).toEqual({ records: [{ ...ok, currency: "CNH" }], held: [] });
    expect(check([{ ...ok, currency: "CNX" }]).held).toMatchObject([{ kind: "unknown-currency" }]);
  });

  it("keeps a held record's derivation, so that a person sees how its currency was named", () => {
    const named = { ...ok, derivation: 'name "U.S.A. Dollar" resolved by territory US' } as const;
    const { held } = check([named, { ...named, rate: "20.612" }]);
    expect(held.map((h) => [h.kind, h.rate, h.derivation])).toEqual([
      ["conflict", "20.611", named.derivation],
      ["conflict", "20.612", named.derivation],
    ]);
  });

  it("holds every figure of a date and currency given two different figures, and names them", () => {
    const { records, held } = check([
      ok,
      { ...ok, rate: "20.612", source: "row 9" },
      jpy,
      { ...ok }, // an exact copy of the first: folded, not a third figure
    ]);
    expect(records).toEqual([jpy]);
    expect(held.map((h) => [h.kind, h.source, h.rate])).toEqual([
      ["conflict", "record 1", "20.611"],
      ["conflict", "row 9", "20.612"],
    ]);
    expect(held[0]!.reason).toBe("2 different figures for USD on 2026-03-02 (20.611 and 20.612): neither is taken");
  });

  it("keeps what the adapter held before the gate's own", () => {
    const before = [{ kind: "bad-rate" as const, reason: "n/a", source: "row 1" }];
    expect(gateRecords("CZK", [{ ...ok, currency: "QQQ" }], before).held.map((h) => h.source)).toEqual([
      "row 1",
      "record 1",
    ]);
  });

  it("holds a key two answers of one ingest give different figures, in both answers", () => {
    const a: ParsedAnswer = { records: [ok, jpy], held: [] };
    const b: ParsedAnswer = { records: [{ ...ok, rate: "20.700" }, { ...jpy }], held: [] };
    holdCrossAnswerConflicts([a, b]);
    expect(a.records).toEqual([jpy]);
    expect(b.records).toEqual([jpy]);
    expect([...a.held, ...b.held].map((h) => [h.kind, h.rate])).toEqual([
      ["conflict", "20.611"],
      ["conflict", "20.700"],
    ]);
  });

  it("sorts by date, then currency", () => {
    const b = { ...ok, currency: "AUD" };
    const c = { ...ok, effectiveDate: "2026-03-01", currency: "ZAR" };
    expect(sortRecords([ok, b, c])).toEqual([c, b, ok]);
  });
});

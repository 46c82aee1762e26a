import { describe, expect, it } from "vitest";

import {
  crossCheck,
  crossCheckConfig,
  DEFAULT_CROSS_CHECK,
  type BankQuoting,
  type CrossCheckInput,
  type Figure,
} from "../../src/ingest/sanity.js";
import type { RateRecord } from "../../src/types.js";

// Three banks quoting the US dollar and the euro: the CNB (CZK per unit), the ECB (USD per EUR) and the
// NBP (PLN per unit). On 2026-03-02: 1 EUR = 1.0850 USD; 1 USD = 22.300 CZK; 1 USD = 3.9500 PLN.
const banks = new Map<string, BankQuoting>([
  ["ECB", { baseCurrency: "EUR", quoteType: "Indirect" }],
  ["NBP", { baseCurrency: "PLN", quoteType: "Direct" }],
  ["BOC", { baseCurrency: "CAD", quoteType: "Direct" }],
]);
const day = "2026-03-02";
const fig = (bankId: string, currency: string, rate: string, effectiveDate = day, unitMultiplier = 0): Figure => ({
  bankId,
  effectiveDate,
  currency,
  rate,
  unitMultiplier,
});
const others: Figure[] = [
  fig("ECB", "USD", "1.0850"),
  fig("ECB", "CZK", "24.196"),
  fig("NBP", "USD", "3.9500"),
  fig("NBP", "CZK", "0.1771"),
  fig("NBP", "EUR", "4.2858"),
];
const usd = (rate: string, unitMultiplier?: number): RateRecord => ({
  effectiveDate: day,
  currency: "USD",
  rate,
  ...(unitMultiplier ? { unitMultiplier } : {}),
});
const check = (candidates: RateRecord[], extra: Partial<CrossCheckInput> = {}) =>
  crossCheck({
    bankId: "CNB",
    quoting: { baseCurrency: "CZK", quoteType: "Direct" },
    candidates,
    banks,
    others,
    own: [],
    ...extra,
  });

describe("the cross-bank check", () => {
  it("passes a figure the other banks' cross rates confirm", () => {
    expect(check([usd("22.300")])).toEqual([]);
  });

  it("holds a unit slip (a per-100 figure without its unit), naming the power of ten", () => {
    const [v] = check([usd("2230.0")]);
    expect(v).toMatchObject({ kind: "unit-slip", hold: true });
    expect(v!.reason).toMatch(/10\^2 times what 2 other banks that day give/);
    // The same figure with its unit is fine.
    expect(check([usd("2230.0", 2)])).toEqual([]);
  });

  it("holds a direction slip (USD per CZK where CZK per USD is meant)", () => {
    const [v] = check([usd("0.04484")]);
    expect(v).toMatchObject({ kind: "direction-slip", hold: true });
    expect(v!.reason).toMatch(/reads the other way round/);
  });

  it("holds a direction slip off by a power of ten too", () => {
    expect(check([usd("0.4484")])[0]).toMatchObject({ kind: "direction-slip", hold: true });
  });

  it("holds a figure beyond the band when other banks published that very day", () => {
    const [v] = check([usd("30.000")]);
    expect(v).toMatchObject({ kind: "off-consensus", hold: true });
    expect(v!.reason).toMatch(/beyond the 25% band/);
  });

  it("passes a real move that two banks show on the same day (a devaluation)", () => {
    // CZK loses 40% against the dollar: the ECB and NBP figures of that day show it too.
    const devalued: Figure[] = [
      fig("ECB", "USD", "1.0850"),
      fig("ECB", "CZK", "33.875"),
      fig("NBP", "USD", "3.9500"),
      fig("NBP", "CZK", "0.1265"),
    ];
    const own = [fig("CNB", "USD", "22.300", "2026-02-27")];
    expect(check([usd("31.220")], { others: devalued, own })).toEqual([]);
  });

  it("warns, not holds, when the others are known only from earlier days", () => {
    const earlier = others.map((f) => ({ ...f, effectiveDate: "2026-02-27" }));
    const [v] = check([usd("31.220")], { others: earlier });
    expect(v).toMatchObject({ kind: "off-consensus", hold: false });
    expect(v!.reason).toMatch(/not confirmed on the day, published with a warning/);
    // A unit slip is held whatever the day.
    expect(check([usd("2230.0")], { others: earlier })[0]).toMatchObject({ kind: "unit-slip", hold: true });
  });

  it("ignores other banks' figures older than the lag", () => {
    const old = others.map((f) => ({ ...f, effectiveDate: "2026-02-20" }));
    expect(check([usd("2230.0")], { others: old })).toEqual([]);
  });

  it("warns, not holds, when only one other bank speaks against a figure (either may be wrong)", () => {
    const [v] = check([usd("2230.0")], { others: others.filter((f) => f.bankId === "ECB") });
    expect(v).toMatchObject({ kind: "unit-slip", hold: false });
    expect(v!.reason).toMatch(/too few banks to hold it/);
  });

  it("passes a figure any other bank confirms, though another disagrees", () => {
    const oneWrong = [
      ...others.filter((f) => f.bankId !== "NBP"),
      fig("NBP", "USD", "39.500"),
      fig("NBP", "CZK", "0.1771"),
    ];
    expect(check([usd("22.300")], { others: oneWrong })).toEqual([]);
  });

  it("warns when no other bank quotes the pair and the figure jumps from the bank's own previous one", () => {
    const own = [fig("CNB", "USD", "22.300", "2026-02-27")];
    const [v] = check([usd("30.000")], { others: [], own });
    expect(v).toMatchObject({ kind: "jump", hold: false });
    expect(v!.reason).toMatch(/moves 1\.34529 times from the bank's figure of 2026-02-27/);
    expect(check([usd("23.000")], { others: [], own })).toEqual([]);
  });

  it("checks a jump between two new figures of one answer", () => {
    const verdicts = check([usd("22.300"), { ...usd("2230.0"), effectiveDate: "2026-03-03" }], { others: [] });
    expect(verdicts.map((v) => [v.kind, v.record.effectiveDate])).toEqual([["jump", "2026-03-03"]]);
  });

  it("reads its settings from the environment and refuses nonsense", () => {
    expect(crossCheckConfig({})).toEqual(DEFAULT_CROSS_CHECK);
    expect(crossCheckConfig({ EXRATES_CHECK_BAND: "0.1", EXRATES_CHECK_MIN_BANKS: "3" })).toMatchObject({
      band: 0.1,
      minBanks: 3,
    });
    expect(() => crossCheckConfig({ EXRATES_CHECK_BAND: "lots" })).toThrow(/EXRATES_CHECK_BAND "lots"/);
    expect(() => crossCheckConfig({ EXRATES_CHECK_LAG_DAYS: "-1" })).toThrow(/EXRATES_CHECK_LAG_DAYS/);
  });
});

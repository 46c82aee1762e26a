// Screening's decisions, pure: over a snapshot of what the store read (no database here), which records
// of an ingest are stored, held again, taken as released, or judged by the cross-bank check, and in
// which answer each anomaly lands. The loads that fill a snapshot are in test/store/contract.test.ts.
import { describe, expect, it } from "vitest";

import { DEFAULT_CROSS_CHECK } from "../../src/ingest/sanity.js";
import { screenAnswers, screeningQuery, type GatedAnswer } from "../../src/ingest/screen.js";
import { figureKey } from "../../src/store/anomalies.js";
import type { ScreeningSnapshot, StoredFigure } from "../../src/store/ingest-data.js";
import type { HeldRow, RateRecord } from "../../src/types.js";
import { testBank } from "../support/publish.js";

const CNB = testBank("CNB").bank; // CZK, Direct

const rec = (effectiveDate: string, currency: string, rate: string): RateRecord => ({ effectiveDate, currency, rate });
const fig = (bankId: string, effectiveDate: string, currency: string, rate: string): StoredFigure => ({
  bankId,
  effectiveDate,
  currency,
  rate,
  unitMultiplier: 0,
});

/** Two other banks that both put USD at about 22.3 CZK on 2026-03-02. */
const OTHERS: Pick<ScreeningSnapshot, "banks" | "others"> = {
  banks: new Map([
    ["EURB", { baseCurrency: "EUR", quoteType: "Indirect" }],
    ["PLNB", { baseCurrency: "PLN", quoteType: "Direct" }],
  ]),
  others: [
    fig("EURB", "2026-03-02", "CZK", "24.196"),
    fig("EURB", "2026-03-02", "USD", "1.0850"),
    fig("PLNB", "2026-03-02", "CZK", "0.1771"),
    fig("PLNB", "2026-03-02", "USD", "3.9500"),
  ],
};

describe("screeningQuery", () => {
  it("asks for the jump window and the check's lag with the check on, for neither without it", () => {
    const answers: GatedAnswer[] = [{ records: [rec("2026-03-02", "USD", "22.3")], held: [] }];
    expect(screeningQuery(CNB, answers, DEFAULT_CROSS_CHECK)).toEqual({
      bankId: "CNB",
      answers,
      ownDaysBefore: DEFAULT_CROSS_CHECK.jumpWindowDays,
      othersDaysBefore: DEFAULT_CROSS_CHECK.lagDays,
      // The bank's base first, then the common currencies a figure may be measured through.
      measures: ["CZK", "USD", "EUR", "GBP", "CHF", "JPY", "CNY"],
    });
    expect(screeningQuery(CNB, answers, false)).toEqual({ bankId: "CNB", answers, ownDaysBefore: 0 });
  });
});

describe("screenAnswers", () => {
  it("stores what the check confirms, holds a unit slip, holds a figure held before, takes a released one", () => {
    const good = rec("2026-03-02", "USD", "22.31");
    const slip = rec("2026-03-02", "USD", "2231");
    const heldBefore = rec("2026-03-02", "GBP", "9.99");
    const released = rec("2026-03-02", "CHF", "99");
    const unchanged = rec("2026-03-02", "EUR", "24.20");
    const answers: GatedAnswer[] = [
      { records: [unchanged, good, heldBefore], held: [] },
      {
        records: [released, slip],
        held: [{ kind: "bad-rate", reason: 'rate "n/a" is not a decimal', source: "row 7", currency: "XAU" }],
      },
    ];
    const snapshot: ScreeningSnapshot = {
      own: [fig("CNB", "2026-03-02", "EUR", "24.20")],
      // What the load found different from the stored figures (the EUR figure is the stored one).
      changed: [
        [good, heldBefore],
        [released, slip],
      ],
      decided: new Map([
        [figureKey("2026-03-02", "GBP", "9.99"), "held" as const],
        [figureKey("2026-03-02", "CHF", "99"), "released" as const],
      ]),
      ...OTHERS,
    };
    const [first, second] = screenAnswers(CNB, answers, snapshot, DEFAULT_CROSS_CHECK);
    // Unchanged and confirmed figures stay in their answer; the one held before is left out again,
    // without a second anomaly.
    expect(first!.records).toEqual([unchanged, good]);
    expect(first).toMatchObject({ heldCount: 1, warnedCount: 0, anomalies: [] });
    // The released figure is stored; the slip is held, its anomaly in the answer it came in, beside
    // the row the gate held.
    expect(second!.records).toEqual([released]);
    expect(second!.heldCount).toBe(2);
    expect(second!.anomalies).toMatchObject([
      { kind: "bad-rate", status: "held", currency: "XAU", source: "row 7" },
      { kind: "unit-slip", status: "held", effectiveDate: "2026-03-02", currency: "USD", rate: "2231" },
    ]);
  });

  it("without the check, every changed figure is stored and only the gate's rows are held", () => {
    const slip = rec("2026-03-02", "USD", "2231");
    const answers: GatedAnswer[] = [{ records: [slip], held: [] }];
    const snapshot: ScreeningSnapshot = { own: [], changed: [[slip]], decided: new Map(), ...OTHERS };
    expect(screenAnswers(CNB, answers, snapshot, false)).toEqual([
      { records: [slip], anomalies: [], heldCount: 0, warnedCount: 0 },
    ]);
  });

  it("establishes a unit the answer did not state from two other banks, keeps held what one bank cannot settle, drops what is stored", () => {
    // CZK per JPY that day: EURB 24.196 / 162.50 = 0.1489, PLNB 0.0243 / 0.1771 = 0.1372.
    const others = [
      ...OTHERS.others,
      fig("EURB", "2026-03-02", "JPY", "162.50"),
      { ...fig("PLNB", "2026-03-02", "JPY", "2.4300"), unitMultiplier: 2 },
      fig("EURB", "2026-03-02", "THB", "38.50"),
    ];
    const unitless = (currency: string, rate: string, effectiveDate = "2026-03-02"): HeldRow => ({
      kind: "unknown-unit",
      reason: `the unit of ${currency} is not established`,
      source: `row ${currency}`,
      effectiveDate,
      currency,
      rate,
      unitless: { effectiveDate, currency, rate },
    });
    const usd = rec("2026-03-02", "USD", "22.31");
    const answers: GatedAnswer[] = [
      {
        records: [usd],
        held: [unitless("JPY", "14.52"), unitless("THB", "63.10"), unitless("JPY", "14.40", "2026-02-27")],
      },
    ];
    const snapshot: ScreeningSnapshot = {
      // The figure of 2026-02-27 is stored already, its unit established before.
      own: [{ ...fig("CNB", "2026-02-27", "JPY", "14.40"), unitMultiplier: 2 }],
      changed: [[usd]],
      decided: new Map(),
      banks: OTHERS.banks,
      others,
    };
    const query = screeningQuery(CNB, answers, DEFAULT_CROSS_CHECK);
    expect(query.unitless?.map((f) => `${f.effectiveDate} ${f.currency}`)).toEqual([
      "2026-03-02 JPY",
      "2026-03-02 THB",
      "2026-02-27 JPY",
    ]);
    const [answer] = screenAnswers(CNB, answers, snapshot, DEFAULT_CROSS_CHECK);
    expect(answer!.records).toHaveLength(2);
    expect(answer!.records[0]).toBe(usd);
    const jpy = answer!.records[1]!;
    expect(jpy).toMatchObject({ effectiveDate: "2026-03-02", currency: "JPY", rate: "14.52", unitMultiplier: 2 });
    expect(jpy.derivation).toMatch(
      /^unit 100 by evidence of 2 banks \(EURB, PLNB on 2026-03-02\): 0\.1452 CZK per JPY, theirs 0\.143/,
    );
    // THB: only EURB quotes it, fewer than the check's two banks: held as before, the reason saying why.
    expect(answer!.heldCount).toBe(1);
    expect(answer!.anomalies).toHaveLength(1);
    expect(answer!.anomalies[0]).toMatchObject({ kind: "unknown-unit", status: "held", currency: "THB" });
    expect(answer!.anomalies[0]!.reason).toMatch(
      /other banks do not settle it: no unit from 1 to 10000 puts it within 25% of 2 banks \(.* from 1 other bank on 2026-03-02\)/,
    );
    // Without the check, nothing is established; the stored figure is still dropped.
    const [plain] = screenAnswers(CNB, answers, snapshot, false);
    expect(plain!.records).toEqual([usd]);
    expect(plain!.anomalies.map((a) => `${a.currency} ${a.effectiveDate}`)).toEqual([
      "JPY 2026-03-02",
      "THB 2026-03-02",
    ]);
  });

  it("measures a bank whose base no other bank quotes through its own USD: an inverted pair held, a unit established", () => {
    const GMDB = testBank("GMDB", { bankCurrency: "GMD" }).bank; // GMD, Direct
    const banks = new Map([
      ["EURB", { baseCurrency: "EUR", quoteType: "Indirect" as const }],
      ["USDB", { baseCurrency: "USD", quoteType: "Indirect" as const }],
    ]);
    const day = "2026-03-02";
    const others = [
      fig("EURB", day, "USD", "1.0850"),
      fig("EURB", day, "GBP", "0.8400"),
      fig("EURB", day, "CNY", "7.7035"),
      fig("EURB", day, "SEK", "11.20"),
      fig("USDB", day, "EUR", "0.9217"),
      fig("USDB", day, "GBP", "0.7742"),
      fig("USDB", day, "CNY", "7.1000"),
      fig("USDB", day, "SEK", "10.32"),
    ];
    // 72.39 GMD per USD; the CNY figure is CNY per GMD (0.0981) where GMD per CNY (10.196) was meant.
    const records = [
      rec(day, "USD", "72.39"),
      rec(day, "EUR", "78.54"),
      rec(day, "GBP", "93.50"),
      rec(day, "CNY", "0.0981"),
    ];
    const sek: HeldRow = {
      kind: "unknown-unit",
      reason: "the unit of SEK is not established",
      source: "[0]",
      effectiveDate: day,
      currency: "SEK",
      rate: "701.46",
      unitless: { effectiveDate: day, currency: "SEK", rate: "701.46" },
    };
    const answers: GatedAnswer[] = [{ records, held: [sek] }];
    const snapshot: ScreeningSnapshot = { own: [], changed: [records], decided: new Map(), banks, others };
    const [answer] = screenAnswers(GMDB, answers, snapshot, DEFAULT_CROSS_CHECK);
    expect(answer!.anomalies).toHaveLength(1);
    const [slip] = answer!.anomalies;
    expect(slip).toMatchObject({ kind: "direction-slip", status: "held", currency: "CNY", rate: "0.0981" });
    expect(slip!.reason).toContain("through the bank's USD at 72.39 GMD");
    expect(slip!.reason).toContain("USD per CNY");
    expect(answer!.records.map((r) => r.currency)).toEqual(["USD", "EUR", "GBP", "SEK"]);
    expect(answer!.records[3]).toMatchObject({ rate: "701.46", unitMultiplier: 2 });
    expect(answer!.records[3]!.derivation).toMatch(
      /^unit 100 by evidence of 2 banks \(EURB, USDB on 2026-03-02\): 0\.0969\d* USD per SEK through the bank's USD at 72\.39 GMD/,
    );
    // The same figures with the bank's own USD inverted too: USD is no measure (nothing of the bank agrees
    // through it), EUR takes its place, and the USD figure is the one held.
    const badUsd = [rec(day, "USD", "0.013814"), ...records.slice(1, 3)];
    const [second] = screenAnswers(
      GMDB,
      [{ records: badUsd, held: [] }],
      { ...snapshot, changed: [badUsd] },
      DEFAULT_CROSS_CHECK,
    );
    expect(second!.anomalies.map((a) => `${a.kind} ${a.currency}`)).toEqual(["direction-slip USD"]);
    expect(second!.anomalies[0]!.reason).toContain("through the bank's EUR");
    // A figure off by no power of ten nor an inversion is only warned about through a common currency.
    const offGbp = [...records.slice(0, 2), rec(day, "GBP", "150.00")];
    const [third] = screenAnswers(
      GMDB,
      [{ records: offGbp, held: [] }],
      { ...snapshot, changed: [offGbp] },
      DEFAULT_CROSS_CHECK,
    );
    expect(third!.records).toEqual(offGbp);
    expect(third).toMatchObject({ heldCount: 0, warnedCount: 1 });
    expect(third!.anomalies).toMatchObject([{ kind: "off-consensus", status: "warned", currency: "GBP" }]);
    expect(third!.anomalies[0]!.reason).toContain("measured through another currency, published with a warning");
  });
});

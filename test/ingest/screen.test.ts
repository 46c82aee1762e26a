// Screening's decisions, pure: over a snapshot of what the store read (no database here), which records
// of an ingest are stored, held again, taken as released, or judged by the cross-bank check, and in
// which answer each anomaly lands. The loads that fill a snapshot are in test/store/contract.test.ts.
import { describe, expect, it } from "vitest";

import { DEFAULT_CROSS_CHECK } from "../../src/ingest/sanity.js";
import { screenAnswers, screeningQuery, type GatedAnswer } from "../../src/ingest/screen.js";
import { figureKey } from "../../src/store/anomalies.js";
import type { ScreeningSnapshot, StoredFigure } from "../../src/store/ingest-data.js";
import type { RateRecord } from "../../src/types.js";
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
    expect(screeningQuery("CNB", answers, DEFAULT_CROSS_CHECK)).toEqual({
      bankId: "CNB",
      answers,
      ownDaysBefore: DEFAULT_CROSS_CHECK.jumpWindowDays,
      othersDaysBefore: DEFAULT_CROSS_CHECK.lagDays,
    });
    expect(screeningQuery("CNB", answers, false)).toEqual({ bankId: "CNB", answers, ownDaysBefore: 0 });
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
});

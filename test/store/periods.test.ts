// What is in force for a period source (src/store/periods.ts): a quarter's figure amended mid-quarter,
// as the US Treasury publishes them (the same record date, a later effective date).
import { describe, expect, it } from "vitest";

import { inForceOn, setsInRange, type PeriodFigure } from "../../src/store/periods.js";

const figure = (effectiveDate: string, currency: string, rate: string, validTo: string): PeriodFigure => ({
  effectiveDate,
  currency,
  rate,
  unitMultiplier: 0,
  validTo,
  storedAt: "2026-09-10T12:00:00.000Z",
  fetchId: 1,
});
// The quarter of 2026-06-30, KRW amended from 2026-08-31; then the next quarter's table.
const figures = [
  figure("2026-06-30", "EUR", "0.852", "2026-09-29"),
  figure("2026-06-30", "KRW", "1380.5", "2026-09-29"),
  figure("2026-08-31", "KRW", "1367.46", "2026-09-29"),
  figure("2026-09-30", "EUR", "0.861", "2026-12-30"),
  figure("2026-09-30", "KRW", "1401.2", "2026-12-30"),
];

describe("period figures in force", () => {
  it("takes the original before the amendment, ended the day before it starts", () => {
    expect(inForceOn(figures, "2026-08-30")).toEqual({
      date: "2026-06-30",
      rows: [
        expect.objectContaining({ currency: "EUR", rate: "0.852", validFrom: "2026-06-30", validTo: "2026-09-29" }),
        expect.objectContaining({ currency: "KRW", rate: "1380.5", validFrom: "2026-06-30", validTo: "2026-08-30" }),
      ],
    });
  });

  it("takes the amendment from its own effective date to the period's end, the other currencies unchanged", () => {
    const set = inForceOn(figures, "2026-09-29")!;
    expect(set.date).toBe("2026-08-31");
    expect(set.rows.map((r) => [r.currency, r.rate, r.validFrom, r.validTo])).toEqual([
      ["EUR", "0.852", "2026-06-30", "2026-09-29"],
      ["KRW", "1367.46", "2026-08-31", "2026-09-29"],
    ]);
    expect(inForceOn(figures, "2026-09-30")!.rows.map((r) => r.rate)).toEqual(["0.861", "1401.2"]);
  });

  it("has nothing in force before the first period or after the last one ends", () => {
    expect(inForceOn(figures, "2026-06-29")).toBeUndefined();
    expect(inForceOn(figures, "2026-12-31")).toBeUndefined();
  });

  it("lists a range's sets: the one in force on its first day, then one per day a figure starts", () => {
    expect(setsInRange(figures, "2026-07-15", "2026-10-01").map((s) => s.date)).toEqual([
      "2026-06-30",
      "2026-08-31",
      "2026-09-30",
    ]);
  });
});

import { describe, expect, it } from "vitest";

import { Averager, periodOf, readGroup } from "../../src/pairs/average.js";

// CNB's EUR (CZK per EUR) and JPY (CZK per 100 JPY) on some working days of February and March 2026.
const FEBRUARY = [
  ["2026-02-25", "24.300"],
  ["2026-02-26", "24.280"],
  ["2026-02-27", "24.310"],
] as const;
const MARCH = [
  ["2026-03-02", "24.165"],
  ["2026-03-03", "24.190"],
  ["2026-03-04", "24.205"],
  ["2026-03-05", "24.180"],
  ["2026-03-06", "24.150"],
  ["2026-03-30", "24.135"],
  ["2026-03-31", "24.120"],
] as const;

function monthly(from: string, to: string) {
  const averager = new Averager("month", from, to);
  for (const [date, rate] of [...FEBRUARY, ...MARCH]) {
    if (date < from || date > to) continue;
    averager.add(date, "EUR", rate);
    if (date === "2026-03-02") averager.add(date, "JPY", "14.870", 2);
    if (date === "2026-03-03") averager.add(date, "JPY", "14.910", 2);
  }
  return averager.finish();
}

describe("averages of a period", () => {
  it("gives a month's exact mean of CNB's EUR, with its count, dates, min, max and end", () => {
    const march = monthly("2026-02-25", "2026-03-31").find((a) => a.period === "2026-03" && a.key === "EUR")!;
    // 24.165 + 24.190 + 24.205 + 24.180 + 24.150 + 24.135 + 24.120 = 169.145; / 7 = 24.163571428...
    expect(march).toMatchObject({
      start: "2026-03-01",
      end: "2026-03-31",
      partial: false,
      sum: "169.145",
      days: 7,
      mean: "24.16357143",
      exact: false,
      digits: 10,
      rounding: "half away from zero",
      first: "2026-03-02",
      last: "2026-03-31",
      min: "24.120",
      max: "24.205",
      endOfPeriod: "24.120",
    });
  });

  it("marks a month the range cuts as partial", () => {
    const all = monthly("2026-02-25", "2026-03-04");
    const february = all.find((a) => a.period === "2026-02")!;
    // 24.300 + 24.280 + 24.310 = 72.890; / 3 = 24.29666666...
    expect(february).toMatchObject({ partial: true, days: 3, mean: "24.29666667", sum: "72.89" });
    expect(all.find((a) => a.period === "2026-03" && a.key === "EUR")).toMatchObject({ partial: true, days: 3 });
  });

  it("averages per one unit, exactly when the mean terminates", () => {
    const jpy = monthly("2026-03-01", "2026-03-31").find((a) => a.key === "JPY")!;
    // 0.14870 + 0.14910 = 0.29780; / 2 = 0.1489
    expect(jpy).toMatchObject({ mean: "0.1489", exact: true, days: 2, min: "0.14870", max: "0.14910" });
  });

  it("names ISO weeks, quarters and years", () => {
    expect(periodOf("week", "2026-01-01")).toEqual({ name: "2026-W01", start: "2025-12-29", end: "2026-01-04" });
    expect(periodOf("week", "2027-01-01")).toEqual({ name: "2026-W53", start: "2026-12-28", end: "2027-01-03" });
    expect(periodOf("quarter", "2026-05-17")).toEqual({ name: "2026-Q2", start: "2026-04-01", end: "2026-06-30" });
    expect(periodOf("month", "2028-02-10")).toEqual({ name: "2028-02", start: "2028-02-01", end: "2028-02-29" });
    expect(periodOf("year", "2026-05-17")).toEqual({ name: "2026", start: "2026-01-01", end: "2026-12-31" });
    expect(() => readGroup("fortnight")).toThrow(/week, month, quarter, year/);
  });
});

// Convert's unrounded result: at most 20 significant digits, or the whole integer part when that is
// longer (docs/API.md, "Convert"), whatever the amount's 30 digits.
import { describe, expect, it } from "vitest";

import { convert, UNROUNDED_DIGITS, type Table } from "../../src/publish/cross.js";

const header = { bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" as const };
const table: Table = {
  header,
  date: "2026-01-05",
  figures: new Map([
    ["EUR", { effectiveDate: "2026-01-05", currency: "EUR", rate: "24.195", unitMultiplier: 0 }],
    ["USD", { effectiveDate: "2026-01-05", currency: "USD", rate: "20.742", unitMultiplier: 0 }],
  ]),
};
const significant = (text: string) => text.replace(".", "").replace(/^0+/, "").length;

describe("Convert's unrounded result", () => {
  it("keeps 20 significant digits of a 30-digit amount's quotient with a short integer part", () => {
    const amount = "1.23456789012345678901234567890";
    const c = convert(table, amount, "USD", "EUR");
    // 1.23456789012345678901234567890 x 20.742 / 24.195, cut at 19 decimals (20 digits with its "1").
    const cut = (123456789012345678901234567890n * 20742n * 10n ** 19n) / (24195n * 10n ** 29n);
    expect(c.unrounded).toBe(`${cut / 10n ** 19n}.${(cut % 10n ** 19n).toString().padStart(19, "0")}`);
    expect(significant(c.unrounded)).toBe(UNROUNDED_DIGITS);
    expect(c.unroundedExact).toBe(false);
  });

  it("keeps the whole integer part, and no decimal, when it is longer than 20 digits", () => {
    const amount = "123456789012345678901234567890";
    const c = convert(table, amount, "USD", "EUR");
    // 123456789012345678901234567890 x 20742 / 24195, integer division.
    const whole = (123456789012345678901234567890n * 20742n) / 24195n;
    expect(c.unrounded).toBe(whole.toString());
    expect(c.unroundedExact).toBe(false);
    expect(c.unrounded.length).toBeLessThanOrEqual(30);
  });

  it("is exact and as short as it is when the quotient ends", () => {
    const c = convert(table, "24.195", "EUR", "CZK");
    // 24.195 x 24.195 = 585.398025, exactly.
    expect(c.unrounded).toBe("585.398025");
    expect(c.unroundedExact).toBe(true);
  });
});

import { describe, expect, it } from "vitest";

import { FIGURE_BOUNDS, figureBoundsProblem, figureWithinBounds } from "../../src/feed/figure-bounds.js";

describe("figure bounds", () => {
  it("accepts ordinary rates, units and amounts", () => {
    for (const text of ["1.0850", "25.125", "0.000123", "1000000", "0", "-3.5", "123456789012345678"]) {
      expect(figureBoundsProblem(text), text).toBeUndefined();
    }
  });

  it("accepts exactly 30 significant digits and refuses 31", () => {
    const thirty = `1.${"2".repeat(29)}`;
    expect(figureWithinBounds(thirty)).toBe(true);
    expect(figureBoundsProblem(`${thirty}3`)).toMatch(/31 significant digits/);
  });

  it("counts trailing zeros as significant but not leading ones", () => {
    expect(figureWithinBounds(`0.0000${"1".repeat(30)}`)).toBe(true);
    expect(figureWithinBounds(`1${"0".repeat(17)}.${"0".repeat(12)}`)).toBe(true);
    expect(figureWithinBounds(`1${"0".repeat(17)}.${"0".repeat(13)}`)).toBe(false);
  });

  it("refuses magnitudes no exchange rate has", () => {
    expect(figureBoundsProblem(`1${"0".repeat(18)}`)).toMatch(/19 integer digits/);
    expect(figureWithinBounds(`0.${"0".repeat(17)}1`)).toBe(true);
    expect(figureBoundsProblem(`0.${"0".repeat(18)}1`)).toMatch(/below 10\^-18/);
  });

  it("refuses long text before reading it, and quotes none of it", () => {
    const huge = "9".repeat(10_000_000);
    const problem = figureBoundsProblem(huge);
    expect(problem).toBe(`a figure of 10000000 characters is beyond the bound of ${FIGURE_BOUNDS.maxTextLength}`);
  });

  it("refuses text that is not a plain decimal", () => {
    expect(figureBoundsProblem("1e5")).toMatch(/not a plain decimal/);
    expect(figureBoundsProblem("12,5")).toMatch(/not a plain decimal/);
  });
});

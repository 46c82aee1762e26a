import { describe, expect, it } from "vitest";

import { invert, mean, multiply, perUnits, readDecimal } from "../../src/feed/decimal.js";

describe("readDecimal", () => {
  it.each([
    ["1.0850", {}, "1.0850"],
    ["  24,170 ", { decimalComma: true }, "24.170"],
    ["1 234,5678", { decimalComma: true, thousands: " " }, "1234.5678"],
    ["1.234.567,89", { decimalComma: true, thousands: "." }, "1234567.89"],
    ["12,345.60", { thousands: "," }, "12345.60"],
    ["1\u00a0234,5", { decimalComma: true }, "1234.5"],
    [".5", {}, "0.5"],
    ["+3.10", {}, "3.10"],
    ["007.50", {}, "7.50"],
    ["0.000001", {}, "0.000001"],
  ])("reads %j with %j as %s", (raw, syntax, expected) => {
    expect(readDecimal(raw, syntax)).toBe(expected);
  });

  it.each(["", "   ", ",", "\u00a0", ".", "N/E", "ND", "-", "1e3", "1.2.3", "12,5", "-1.5", "0x10", "NaN", "Infinity"])(
    "refuses %j",
    (raw) => {
      expect(readDecimal(raw)).toBeUndefined();
    },
  );

  it.each([
    ["3.576,17", { thousands: "," }],
    ["1,25", { thousands: "," }],
    ["12,34,567.8", { thousands: "," }],
    ["1.234,5", { thousands: ",", decimalComma: false }],
    ["1 234.567,8", { thousands: " .", decimalComma: true }],
  ])("refuses %j with %j rather than misreading a separator", (raw, syntax) => {
    expect(readDecimal(raw, syntax)).toBeUndefined();
  });

  it("reads each text by its own syntax's separators, one syntax after another", () => {
    for (let round = 0; round < 2; round++) {
      expect(readDecimal("1 234,5", { decimalComma: true, thousands: " " })).toBe("1234.5");
      expect(readDecimal("1 234,5", { decimalComma: true, thousands: "." })).toBeUndefined();
      expect(readDecimal("1.234,5", { decimalComma: true, thousands: "." })).toBe("1234.5");
      expect(readDecimal("1.234,5", { decimalComma: true, thousands: " " })).toBeUndefined();
      expect(readDecimal(",5", { decimalComma: true })).toBe("0.5");
    }
  });
});

describe("exact arithmetic", () => {
  it("takes the exact mean of a buying and a selling rate", () => {
    expect(mean("1.2345", "1.2346")).toBe("1.23455");
    expect(mean("0.1", "0.2")).toBe("0.15"); // 0.15000000000000002 in binary floating point
  });

  it("multiplies exactly", () => {
    expect(multiply("12957.47", "31.1034768")).toBe("403022.367531696");
    expect(multiply("0.1", "0.2")).toBe("0.02");
  });

  it("inverts to 10 significant digits", () => {
    expect(invert("1.0850")).toBe("0.9216589862");
    expect(invert("0.0001234")).toBe("8103.727715");
    expect(invert("4")).toBe("0.25");
  });

  it("keeps power-of-ten units as unitMultiplier and divides other counts exactly", () => {
    expect(perUnits("6.304", "100")).toEqual({ rate: "6.304", unitMultiplier: 2 });
    expect(perUnits("1.233", 1000)).toEqual({ rate: "1.233", unitMultiplier: 3 });
    expect(perUnits("24.170", "1")).toEqual({ rate: "24.170" });
    expect(perUnits("12.50", "5")).toEqual({ rate: "2.5", derivation: "unit-normalised" });
    expect(perUnits("10", "3")).toEqual({ rate: "3.333333333", derivation: "unit-normalised" });
    expect(() => perUnits("1", "0")).toThrow(RangeError);
    expect(() => perUnits("1", "2.5")).toThrow(RangeError);
  });
});

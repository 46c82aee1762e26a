import { describe, expect, it } from "vitest";

import { pairQuery } from "../../src/cli/commands/pair.js";

const TODAY = "2026-03-10";

describe("exrates pair: the options as one query", () => {
  it("reads Latest, a date, and a grouped range", () => {
    expect(pairQuery("usd", "jpy", {}, TODAY)).toEqual({ base: "USD", quote: "JPY" });
    expect(pairQuery("USD", "JPY", { date: "2026-03-02", banks: "ecb,cnb" }, TODAY)).toEqual({
      base: "USD",
      quote: "JPY",
      date: "2026-03-02",
      banks: ["CNB", "ECB"],
    });
    expect(pairQuery("EUR", "CZK", { from: "2026-01-01", group: "Month" }, TODAY)).toEqual({
      base: "EUR",
      quote: "CZK",
      range: { from: "2026-01-01", to: TODAY },
      group: "month",
    });
  });

  it("refuses what it cannot honour, with a reason", () => {
    expect(() => pairQuery("USD", "usd", {}, TODAY)).toThrow("A pair needs two currencies");
    expect(() => pairQuery("USD", "JPY", { date: "2026-03-02", from: "2026-03-01" }, TODAY)).toThrow(
      "one or the other",
    );
    expect(() => pairQuery("USD", "JPY", { group: "month" }, TODAY)).toThrow("--group and --to are read with --from");
    expect(() => pairQuery("USD", "JPY", { from: "2026-03-01", group: "fortnight" }, TODAY)).toThrow(
      "week, month, quarter, year",
    );
    expect(() => pairQuery("USD", "JPY", { from: "2026-03-01", asOf: "2026-03-05T00:00:00Z" }, TODAY)).toThrow(
      "--as-of is answered for Latest and a date",
    );
    expect(() => pairQuery("US", "JPY", {}, TODAY)).toThrow("is not a currency code");
  });
});

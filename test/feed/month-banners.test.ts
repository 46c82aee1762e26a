import { describe, expect, it } from "vitest";

import { MonthBlocks } from "../../src/feed/month-blocks.js";
import { editDistance, monthNumber, readMonthBanner } from "../../src/feed/month-names.js";

const month = (m: number, year: number | undefined, how: string) => ({
  kind: "month",
  month: m,
  how,
  ...(year !== undefined && { year }),
});

describe("month banners by rule", () => {
  it.each([
    ["Sept. 2024", ["en"], month(9, 2024, "name")],
    ["Sep 2024", ["en"], month(9, 2024, "name")],
    ["SEPTEMBER 2024", ["en"], month(9, 2024, "name")],
    ["september", ["en"], month(9, undefined, "name")],
    ["Feb.2026", ["en"], month(2, 2026, "name")],
    ["Jan-24", ["en"], month(1, 2024, "name")],
    ["2024 Mar", ["en"], month(3, 2024, "name")],
    // Other languages, wide and abbreviated, format and stand-alone, diacritics folded.
    ["Février 2026", ["fr"], month(2, 2026, "name")],
    ["FEVRIER 2026", ["fr"], month(2, 2026, "name")],
    ["févr. 2026", ["fr"], month(2, 2026, "name")],
    ["Août", ["fr"], month(8, undefined, "name")],
    ["Setiembre 2025", ["es", "es-PE"], month(9, 2025, "name")],
    ["февраль 2026", ["ru"], month(2, 2026, "name")],
    ["февраля 2026", ["ru"], month(2, 2026, "name")],
    ["Dhjetor 2013", ["sq"], month(12, 2013, "name")],
    // Misspellings within reach of exactly one month.
    ["Febuary 2026", ["en"], month(2, 2026, "misspelling")],
    ["Setpember 2025", ["en"], month(9, 2025, "misspelling")],
    ["Agust 2025", ["en"], month(8, 2025, "misspelling")],
    ["Decmber", ["en"], month(12, undefined, "misspelling")],
    // Decorations stripped.
    ["*Jan. 2024", ["en"], month(1, 2024, "name")],
    ["March 2024*", ["en"], month(3, 2024, "name")],
    ["April 2024¹", ["en"], month(4, 2024, "name")],
    ["May 2024 (1)", ["en"], month(5, 2024, "name")],
    ["† June 2024 [a]", ["en"], month(6, 2024, "name")],
    // A bare year heads a block starting in January.
    ["2026", ["en"], month(1, 2026, "year")],
    // A date cell's text, or a serial typed where the banner goes.
    ["2025-10-01", ["en"], month(10, 2025, "date")],
    ["45658", ["en"], month(1, 2025, "date")],
  ] as const)("reads %j", (text, locales, expected) => {
    expect(readMonthBanner(text, locales)).toEqual(expected);
  });

  it("reads date cells and spreadsheet serials given as values", () => {
    expect(readMonthBanner(new Date(Date.UTC(2024, 6, 1)))).toEqual(month(7, 2024, "date"));
    // 45717 is 2025-03-01 in Excel's 1900 system.
    expect(readMonthBanner(45717)).toEqual(month(3, 2025, "date"));
    // A figure is no serial: a fraction, or a number outside 1950..2099.
    // A year typed as a number heads a January block.
    expect(readMonthBanner(2026)).toEqual(month(1, 2026, "year"));
    expect(readMonthBanner(1305.5)).toBeUndefined();
    expect(readMonthBanner(1305)).toBeUndefined();
  });

  it("names the candidates of an ambiguous banner", () => {
    expect(readMonthBanner("Mai 2026")).toEqual({ kind: "ambiguous", candidates: ["March", "May"] });
    expect(readMonthBanner("Juny 2026")).toEqual({ kind: "ambiguous", candidates: ["June", "July"] });
  });

  it("tells a banner no month reads from text that is no banner", () => {
    expect(readMonthBanner("Quux 2026")).toEqual({ kind: "unreadable" });
    for (const text of ["Average", "Avg", "Total", "DATE", "Notes", "12", "", "USD 1"])
      expect(readMonthBanner(text), text).toBeUndefined();
  });

  it("measures edit distance with adjacent transpositions", () => {
    expect(editDistance("setpember", "september")).toBe(1);
    expect(editDistance("febuary", "february")).toBe(1);
    expect(editDistance("mai", "may")).toBe(1);
    expect(editDistance("june", "july")).toBe(2);
  });

  it("keeps monthNumber for plain names", () => {
    expect(monthNumber("Sept.")).toBe(9);
    expect(monthNumber("janvier", ["fr"])).toBe(1);
  });
});

describe("month blocks", () => {
  it("dates the days of each block, a bare year as January", () => {
    const blocks = new MonthBlocks();
    expect(blocks.banner("2026", "row 1")).toBe(true);
    expect(blocks.day(5)).toEqual({ date: "2026-01-05" });
    expect(blocks.banner("Febuary 2026", "row 3")).toBe(true);
    expect(blocks.day("2")).toEqual({ date: "2026-02-02" });
    expect(blocks.day(30)).toEqual({ problem: "2026-2-30 is not a real date" });
    expect(blocks.banner("Average", "row 9")).toBe(false);
  });

  it("holds a day before any banner, under an ambiguous or unreadable banner, or without a year", () => {
    const blocks = new MonthBlocks();
    expect(blocks.day(1)).toEqual({ problem: "day 1: a day before any month banner" });
    blocks.banner("Mai 2026", "row 2");
    expect(blocks.day(4)).toEqual({ problem: 'day 4: the month banner "Mai 2026" (row 2) could be March or May' });
    blocks.banner("Quux 2026", "row 5");
    expect(blocks.day(4)).toEqual({ problem: 'day 4: the month banner "Quux 2026" (row 5) cannot be read' });
    blocks.banner("MARCH", "row 8");
    expect(blocks.day(4)).toEqual({ problem: 'day 4: the month banner "MARCH" (row 8) gives no year' });
    const withSheetYear = new MonthBlocks(["en"], 2019);
    withSheetYear.banner("MARCH", "row 8");
    expect(withSheetYear.day(4)).toEqual({ date: "2019-03-04" });
  });

  it("holds a block landing on days another banner gave, naming both, and never merges it", () => {
    const blocks = new MonthBlocks();
    blocks.banner("Jan. 2024", "row 1");
    expect(blocks.day(2)).toEqual({ date: "2024-01-02" });
    // A second banner read as January too (a bare year where February was meant).
    blocks.banner("2024", "row 40");
    const held = {
      problem:
        'the block under "2024" (row 40) lands on 2024-01-02, already read under "Jan. 2024" (row 1): a layout error, not merged',
    };
    expect(blocks.day(2)).toEqual(held);
    // The rest of that block is held too, even days the first block did not give.
    expect(blocks.day(3)).toEqual({ problem: `day 3: ${held.problem}` });
    // The next banner starts afresh.
    blocks.banner("Mar. 2024", "row 70");
    expect(blocks.day(3)).toEqual({ date: "2024-03-03" });
  });

  it("places rows carrying their own date, holding a date outside the block's month", () => {
    const blocks = new MonthBlocks();
    blocks.banner("FEBRUARY", "row 20");
    expect(blocks.place("2026-02-11")).toEqual({ date: "2026-02-11" });
    expect(blocks.place("2026-01-12")).toEqual({
      problem: 'dated 2026-01-12 under the month banner "FEBRUARY" (row 20): a typing slip, the day meant is unknown',
    });
    blocks.banner("FEBUARY", "row 50");
    const again = blocks.place("2026-02-11");
    expect("problem" in again && again.problem).toMatch(/already read under "FEBRUARY"/);
  });
});

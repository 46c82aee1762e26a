import { describe, expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import { csvColumns, readCsv } from "../../src/feed/csv.js";
import { readSdmxCsv } from "../../src/feed/sdmx-csv.js";

describe("readCsv", () => {
  it("reads rows, trimmed, skipping empty lines, with the given delimiter", () => {
    expect(readCsv("AAA", "a; b\n\n1 ;2\n", { delimiter: ";" })).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<html><body>oops</body></html>"],
    ["an unclosed quote", 'a,b\n1,"2\n'],
    ["rows of different lengths", "a,b\n1,2,3\n"],
  ])("refuses %s naming the bank", (_what, text) => {
    expect(() => readCsv("AAA", text)).toThrow(FeedError);
    expect(() => readCsv("AAA", text)).toThrow(/^AAA: /);
  });

  it("accepts ragged rows when asked", () => {
    expect(readCsv("AAA", "a,b\n1,2,3\n", { relaxColumnCount: true })[1]).toEqual(["1", "2", "3"]);
  });

  it("finds columns by name and refuses a missing one as a changed layout", () => {
    expect(csvColumns("AAA", ["DATE", "RATE"], ["RATE", "DATE"])).toEqual({ RATE: 1, DATE: 0 });
    expect(() => csvColumns("AAA", ["DATE"], ["RATE"], "the AAA file")).toThrow(
      'AAA: not the AAA file: no RATE column in "DATE"',
    );
  });
});

describe("readSdmxCsv", () => {
  const layout = {
    what: "an AAA SDMX-CSV answer",
    currency: "BASE_CUR",
    unitMultiplier: "UNIT_MULT",
    select: { FREQ: "B" },
    expect: { QUOTE_CUR: "NOK" },
    skip: new Set(["TWI"]),
  };
  const head = "FREQ,BASE_CUR,QUOTE_CUR,UNIT_MULT,TIME_PERIOD,OBS_VALUE\n";

  it("reads the selected series by column name, with units, skipping indices and empty observations", () => {
    const text =
      head +
      "B,USD,NOK,0,2026-03-02,10.5120\nB,JPY,NOK,2,2026-03-02,7.0310\nM,USD,NOK,0,2026-02,10.4\n" +
      "B,TWI,NOK,0,2026-03-02,120.1\nB,I44,NOK,0,2026-03-02,117.2\nB,SEK,NOK,0,2026-03-02,NaN\n";
    expect(readSdmxCsv("AAA", text, layout)).toEqual({
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "10.5120" },
        { effectiveDate: "2026-03-02", currency: "JPY", rate: "7.0310", unitMultiplier: 2 },
      ],
      held: [],
    });
  });

  it("holds a line with a bad date, figure, code or unit, naming the line", () => {
    const text =
      head +
      "B,USD,NOK,0,2026-03-02,10.5120\nB,EUR,NOK,0,2026-02-30,11.2\nB,GBP,NOK,0,2026-03-02,1e3\n" +
      "B,QQQ,NOK,0,2026-03-02,1.5\nB,CHF,NOK,x,2026-03-02,11.9\n";
    const { records, held } = readSdmxCsv("AAA", text, layout);
    expect(records).toHaveLength(1);
    expect(held.map((h) => [h.source, h.kind])).toEqual([
      ["line 3", "bad-date"],
      ["line 4", "bad-rate"],
      ["line 5", "unknown-currency"],
      ["line 6", "unknown-unit"],
    ]);
  });

  it("refuses another dataset, a missing column, a malformed file and an empty body", () => {
    expect(() => readSdmxCsv("AAA", `${head}B,USD,SEK,0,2026-03-02,1.0\n`, layout)).toThrow(
      'AAA: line 2: QUOTE_CUR "SEK" is not NOK',
    );
    expect(() =>
      readSdmxCsv("AAA", "FREQ,BASE_CUR,TIME_PERIOD,OBS_VALUE,UNIT_MULT\nB,USD,2026-03-02,1,0\n", layout),
    ).toThrow(/no QUOTE_CUR column/);
    expect(() => readSdmxCsv("AAA", `${head}B,USD,NOK,0,2026-03-02,"1.0\n`, layout)).toThrow(/malformed CSV/);
    expect(() => readSdmxCsv("AAA", "", layout)).toThrow(/^AAA: empty body/);
  });
});

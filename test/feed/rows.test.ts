import { describe, expect, it } from "vitest";

import { FeedError, RowProblem } from "../../src/errors.js";
import {
  AnswerRows,
  asParsedAnswer,
  readRows,
  requireDate,
  requireDateParts,
  requireDecimal,
  requireUnits,
  rowProblem,
} from "../../src/feed/rows.js";

const usd = { effectiveDate: "2026-03-02", currency: "USD", rate: "20.611" };

describe("the row reader", () => {
  it("takes the records of good rows and holds a row whose reading throws a RowProblem, with where and what", () => {
    const rows = new AnswerRows("AAA");
    rows.read("row 1", () => usd);
    rows.read("row 2", () => ({ ...usd, rate: requireDecimal("AAA", "n/a", "rate") }), {
      currency: "EUR",
      rate: "n/a",
    });
    rows.read("row 3", () => [usd, { ...usd, currency: "JPY" }]);
    rows.read("row 4", () => undefined); // a row that is not a rate
    expect(rows.result()).toEqual({
      records: [usd, usd, { ...usd, currency: "JPY" }],
      held: [
        {
          currency: "EUR",
          rate: "n/a",
          kind: "bad-rate",
          reason: 'rate: "n/a" is not a decimal number',
          source: "row 2",
        },
      ],
    });
  });

  it("lets any other error refuse the whole answer", () => {
    const rows = new AnswerRows("AAA");
    expect(() =>
      rows.read("row 1", () => {
        throw new FeedError("AAA", "no rates table (has the page changed?)");
      }),
    ).toThrow("AAA: no rates table");
    expect(() => rows.read("row 2", () => JSON.parse("{") as never)).toThrow(SyntaxError);
  });

  it("is a FeedError outside a row reader, so a problem met there refuses the answer", () => {
    expect(() => rowProblem("AAA", "bad-row", "x")).toThrow(FeedError);
    expect(() => requireDecimal("AAA", "1,5", "rate")).toThrow(RowProblem);
  });

  it("reads an iterable with readRows, one row per item", () => {
    const answer = readRows(
      "AAA",
      ["20.611", "x", "24.170"],
      (_item, i) => `line ${i + 1}`,
      (item) => ({ ...usd, rate: requireDecimal("AAA", item, "OBS") }),
    );
    expect(answer.records.map((r) => r.rate)).toEqual(["20.611", "24.170"]);
    expect(answer.held.map((h) => [h.source, h.kind, h.rate])).toEqual([["line 2", "bad-rate", "x"]]);
  });

  it("has readers whose problems carry the right kind and the raw text", () => {
    const caught = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as RowProblem;
      }
      throw new Error("did not throw");
    };
    expect(requireDate("AAA", "2026-03-02", "02.03.2026")).toBe("2026-03-02");
    expect(caught(() => requireDate("AAA", undefined, "31.06.2026"))).toMatchObject({
      kind: "bad-date",
      fields: { effectiveDate: "31.06.2026" },
    });
    expect(requireDateParts("AAA", 2024, 2, 29)).toBe("2024-02-29");
    expect(caught(() => requireDateParts("AAA", 2025, 2, 29))).toMatchObject({ kind: "bad-date" });
    expect(requireUnits("AAA", "1 000")).toBe("1000");
    expect(requireUnits("AAA", 100)).toBe("100");
    expect(caught(() => requireUnits("AAA", "1.5"))).toMatchObject({ kind: "unknown-unit" });
    expect(caught(() => requireUnits("AAA", undefined))).toMatchObject({ kind: "unknown-unit" });
  });

  it("turns a bare array of records into an answer that holds nothing", () => {
    expect(asParsedAnswer([usd])).toEqual({ records: [usd], held: [] });
  });
});

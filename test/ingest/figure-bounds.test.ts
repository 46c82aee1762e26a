// A figure beyond the bounds (src/feed/figure-bounds.ts) in an answer shaped like the CNB's: that row is
// held with a reason that quotes none of its digits, every other row is stored, and nothing computes on it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { FigureOutOfBounds } from "../../src/errors.js";
import { figureProblem, readDecimal } from "../../src/feed/decimal.js";
import { requireDecimal } from "../../src/feed/rows.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { listAnomalies } from "../../src/store/anomalies.js";
import type { FeedDocument } from "../../src/types.js";
import { tempStore } from "../support/store.js";

const DAY = "2026-03-02";
const HUGE = `2${"7".repeat(9_999_999)}`; // 10,000,000 digits

const answer = (rows: Array<{ code: string; amount?: number; rate: string }>): FeedDocument => {
  const body = `{"rates":[${rows
    .map((r) => `{"validFor":"${DAY}","currencyCode":"${r.code}","amount":${r.amount ?? 1},"rate":${r.rate}}`)
    .join(",")}]}`;
  const at = new Date("2026-03-02T13:31:00Z");
  const url = "https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=2026";
  return {
    url,
    method: "GET",
    status: 200,
    contentType: "application/json",
    body: Buffer.from(body),
    startedAt: at,
    finishedAt: at,
  };
};

let ctx: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(() => ctx.cleanup());

describe("a figure beyond the bounds", () => {
  it("is held with its reason while the other rows of the answer are stored", async () => {
    const doc = answer([
      { code: "EUR", rate: "24.170" },
      { code: "USD", rate: HUGE },
      { code: "JPY", amount: 100, rate: "13.141" },
    ]);
    const started = Date.now();
    const outcome = await storeParsed(ctx.store, cnb.bank, await parseDocuments(cnb, [doc]), "fetch");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([outcome.inserted, outcome.held]).toEqual([2, 1]);
    const rates = ctx.store.sqlite
      .prepare("select currency, rate, unit_multiplier as unit from rates where bank_id = 'CNB' order by currency")
      .all();
    expect(rates).toEqual([
      { currency: "EUR", rate: "24.170", unit: 0 },
      { currency: "JPY", rate: "13.141", unit: 2 },
    ]);
    const [a, ...rest] = await listAnomalies(ctx.store);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ bankId: "CNB", currency: "USD", kind: "bad-rate", status: "held", source: "rates[1]" });
    expect(a!.reason).toBe("rate: a figure of 10000000 characters is beyond the bound of 64");
    expect(a!.rate).toBe(`2${"7".repeat(31)}... (10000000 characters)`);
  });

  it("throws a FigureOutOfBounds with its own code from the kit's decimal reader", () => {
    expect(readDecimal(HUGE)).toBeUndefined();
    expect(readDecimal(`1.${"2".repeat(30)}`)).toBeUndefined();
    expect(readDecimal(`1.${"2".repeat(29)}`)).toBe(`1.${"2".repeat(29)}`);
    expect(readDecimal("1 234 567,25", { decimalComma: true, thousands: " " })).toBe("1234567.25");
    expect(figureProblem(`1${"0".repeat(18)},5`, { decimalComma: true })).toMatch(/19 integer digits/);
    expect(figureProblem("n/a")).toBeUndefined();
    let thrown: unknown;
    try {
      requireDecimal("CNB", `0,${"0".repeat(18)}1`, "Value", { decimalComma: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FigureOutOfBounds);
    expect(thrown).toMatchObject({
      code: "EXRATES_FIGURE_BOUNDS",
      kind: "bad-rate",
      reason: "Value: a figure below 10^-18 is beyond the bounds",
    });
  });

  it("is held by the ingest gate whatever the adapter passed on", () => {
    const { records, held } = gateRecords("CZK", [
      { effectiveDate: DAY, currency: "EUR", rate: "24.170" },
      { effectiveDate: DAY, currency: "USD", rate: HUGE },
      { effectiveDate: DAY, currency: "GBP", rate: `${"9".repeat(19)}` },
    ]);
    expect(records).toEqual([{ effectiveDate: DAY, currency: "EUR", rate: "24.170" }]);
    expect(held.map((h) => [h.currency, h.kind, h.reason])).toEqual([
      ["USD", "bad-rate", `rate of USD on ${DAY}: a figure of 10000000 characters is beyond the bound of 64`],
      ["GBP", "bad-rate", `rate of GBP on ${DAY}: a figure of 19 integer digits is beyond the bound of 10^18`],
    ]);
    expect(held[0]!.rate).toHaveLength(`2${"7".repeat(31)}... (10000000 characters)`.length);
  });
});

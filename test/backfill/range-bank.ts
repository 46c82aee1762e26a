// A bank whose feed answers a range with one USD rate per weekday, and an HTTP client that echoes the
// range asked: backfills without a network, for test/backfill/*.
import { addDays, weekday } from "../../src/feed/dates.js";
import { noPublication } from "../../src/feed/rows.js";
import type { BankAdapter, FetchRange, ParsedAnswer, RateRecord } from "../../src/types.js";
import { fakeHttp } from "../support/http.js";
import { testBank } from "../support/publish.js";

/** A bank whose feed answers a range with one USD rate per weekday (rate derived from the date). */
export function rangeBank(
  id: string,
  options: {
    maxRangeDays?: number;
    failFrom?: string;
    /** The dates the feed's answer holds for a range asked (default: that range). */
    serves?: (range: { from: string; to: string }) => { from: string; to: string };
    /** Weekdays without rates besides 2026-01-01 (holidays). */
    holidays?: string[];
  } = {},
): BankAdapter & { calls: FetchRange[] } {
  const calls: FetchRange[] = [];
  const base = testBank(id, {
    coverageStart: "2026-01-01",
    maxRangeDays: options.maxRangeDays ?? 30,
    sourceUrl: `https://${id.toLowerCase()}.example/feed`,
  });
  return {
    ...base,
    calls,
    async fetch(range, { http }) {
      calls.push(range);
      if (range.kind !== "range") throw new Error("only ranges");
      const served = options.serves?.(range) ?? range;
      return [await http.get(`https://${id.toLowerCase()}.example/feed?from=${served.from}&to=${served.to}`)];
    },
    parse(body): RateRecord[] | ParsedAnswer {
      const { from, to } = JSON.parse(Buffer.from(body).toString()) as { from: string; to: string };
      if (options.failFrom && from >= options.failFrom) throw new Error("boom");
      const records: RateRecord[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) {
        if (weekday(d) <= 5 && d !== "2026-01-01" && !options.holidays?.includes(d))
          records.push({ effectiveDate: d, currency: "USD", rate: `20.${d.slice(5, 7)}${d.slice(8, 10)}` });
      }
      // As a real feed says it (an empty list for the dates asked): nothing published, not a changed layout.
      return records.length ? records : noPublication(`no rates from ${from} to ${to}`);
    },
  };
}

export const echo = fakeHttp((req) => {
  const u = new URL(req.url);
  return { body: JSON.stringify({ from: u.searchParams.get("from"), to: u.searchParams.get("to") }) };
});

import { describe, expect, it } from "vitest";

import cbtt from "../../adapters/CBTT.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL_2026 = "https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate/2026-2026";
const parse = (body: Buffer | string) => cbtt.parse(Buffer.from(body), { url: URL_2026 });
const mean = (effectiveDate: string, currency: string, rate: string) => ({
  effectiveDate,
  currency,
  rate,
  derivation: "mean" as const,
});
/** An answer of one day with the given legs. */
const oneDay = (legs: Record<string, string | null>, famedate: unknown = "2026-02-09") =>
  JSON.stringify({ cbttdailyforexrates: [{ famedate, ...legs }] });

describe("CBTT adapter", () => {
  it("publishes the exact mean of the two legs, only where both exist; Euro_ is EUR; all-null days give nothing", async () => {
    expect(await answerOf(parse(fixture("CBTT/forex-rate.json")))).toEqual({
      records: [
        mean("2026-02-09", "USD", "6.7555"),
        mean("2026-02-09", "CAD", "5.10755"),
        mean("2026-02-09", "GBP", "9.4661"),
        mean("2026-02-09", "EUR", "8.22765"),
        mean("2026-02-09", "BBD", "3.407"),
        mean("2026-02-09", "GYD", "0.0321"),
        mean("2026-02-09", "JMD", "0.04195"),
        mean("2026-02-10", "USD", "6.7534"),
        // Buying above selling (two averages over different trades): still their midpoint.
        mean("2026-02-10", "CAD", "5.8515"),
        mean("2026-02-10", "EUR", "8.25055"),
        mean("2026-02-10", "CHF", "8.68"),
        mean("2026-02-10", "BBD", "3.405"),
        mean("2026-02-10", "GYD", "0.0321"),
        mean("2026-02-10", "JMD", "0.042"),
      ],
      held: [],
    });
  });

  it("skips a currency with one leg null (no mid to publish) without holding it", async () => {
    const answer = await answerOf(
      parse(oneDay({ CHF_Buying: "8.2210", CHF_Selling: null, USD_Buying: null, USD_Selling: "6.7990" })),
    );
    expect(answer).toEqual({ records: [], held: [] });
  });

  it("reads the all-null object a span without any day answers as the bank publishing nothing", async () => {
    expect(await answerOf(parse(fixture("CBTT/empty-span.json")))).toEqual({
      records: [],
      held: [],
      noPublication: "a span without any day (one object whose every field is null)",
    });
    const allNull = { USD_Buying: null, USD_Selling: null, CHF_Buying: null, CHF_Selling: null };
    expect(await answerOf(parse(oneDay(allNull, "2026-01-01")))).toEqual({
      records: [],
      held: [],
      noPublication: "every day of the span has all its legs null (no trades reported)",
    });
    // A lone leg is a figure the bank gave (not published by rule): not a statement that nothing was published.
    expect(await answerOf(parse(oneDay({ ...allNull, CHF_Buying: "8.2210" })))).toEqual({ records: [], held: [] });
  });

  itRefusesWhole("CBTT", parse, [
    ["truncated JSON", '{"cbttdailyforexrates":[{"famedate":"2026-02-09","USD_Buying":"6.71'],
    [
      "another shape (a WordPress error)",
      '{"code":"rest_no_route","message":"No route was found","data":{"status":404}}',
    ],
    ["the latest-only route's shape", '{"cbttdailyforexrates":"2026-02-09"}'],
    ["a field that is not a leg", oneDay({ USD_Buying: "6.7120", USD_Selling: "6.7990", USD_Mid: "6.7555" })],
  ]);

  const good = { USD_Buying: "6.7120", USD_Selling: "6.7990" };
  it.each([
    ["a leg that is not a number", { ...good, GBP_Buying: "9,1207", GBP_Selling: "9.8115" }, { kind: "bad-rate" }],
    ["a zero leg", { ...good, GBP_Buying: "0.0000", GBP_Selling: "9.8115" }, { kind: "bad-rate" }],
    [
      "an unknown currency prefix",
      { ...good, XYZ_Buying: "1.0000", XYZ_Selling: "1.1000" },
      { kind: "unknown-currency", currency: "XYZ" },
    ],
  ] as const)("holds %s and takes the other currencies of the day", async (_what, legs, held) => {
    await expectOneHeld(parse(oneDay(legs)), { records: [mean("2026-02-09", "USD", "6.7555")], held });
  });

  it("holds the currencies of a day whose famedate is not a date", async () => {
    await expectOneHeld(parse(oneDay(good, "2026-02-30")), {
      records: [],
      held: { kind: "bad-date", effectiveDate: "2026-02-30", rate: "6.7120 / 6.7990" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded 2026 span (values read off the file by hand)", async () => {
    const r = recording("CBTT/001.json");
    const records = await recordsOf(cbtt.parse(r.body, { url: r.url }));
    // 169 days with rates x 7 currencies, and CHF on the 19 days both of its legs were published.
    expect(records).toHaveLength(169 * 7 + 19);
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-01-02", "USD")).toEqual(mean("2026-01-02", "USD", "6.75045")); // 6.7017 / 6.7992
    expect(find("2026-01-02", "EUR")).toEqual(mean("2026-01-02", "EUR", "8.18065")); // Euro_ 7.7751 / 8.5862
    expect(find("2026-01-02", "CHF")).toBeUndefined(); // both legs null
    expect(find("2026-09-08", "CHF")).toBeUndefined(); // CHF_Buying null, CHF_Selling 9.0349
    expect(find("2026-01-01", "USD")).toBeUndefined(); // a holiday: every leg null
    expect(find("2026-02-10", "CAD")).toEqual(mean("2026-02-10", "CAD", "5.8512")); // 6.0986 / 5.6038
  });

  it("asks for the span of years of a range, and the last ten days' years for the latest", async () => {
    const http = fakeHttp(() => ({ body: '{"cbttdailyforexrates":[]}' }));
    await cbtt.fetch({ kind: "range", from: "2024-12-20", to: "2025-12-19" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate/2024-2025",
    ]);
    http.seen.length = 0;
    await cbtt.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen).toHaveLength(1);
    expect(http.seen[0]!.url).toMatch(/\/forex-rate\/(20\d\d)-(20\d\d)$/);
  });
});

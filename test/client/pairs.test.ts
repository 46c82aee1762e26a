// The client's `pair(...)` and `range(..., { group })` against a real `exrates serve`: each answer equals
// the API's own JSON of the same request, figure for figure (the pair's route, a bank's grouped range),
// and the figures are the ones the feed published (CNB's EUR/CZK as published, a month's mean by hand).
import { Decimal } from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ExratesClient } from "@exrates/client";
import { ratesOf, serveRates, weekdays, type ServedRates } from "../support/served-rates.js";

const FIRST = "2026-02-23";
const LAST = "2026-03-06";
const DATES = weekdays(FIRST, LAST);

describe("ExratesClient: a pair across banks and averages of a period", { timeout: 120_000 }, () => {
  let served: ServedRates;
  let client: ExratesClient;
  let token: string;
  /** The API's JSON answer of a path, as sent. */
  const api = async (path: string): Promise<unknown> => {
    const response = await fetch(`${served.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });
    expect(response.status, path).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    served = await serveRates(DATES);
    client = new ExratesClient({ baseUrl: served.url, clientId: served.clientId, clientSecret: served.clientSecret });
    token = await served.token();
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it("answers a pair on a date as the API does, with CNB's figure as published", async () => {
    const date = "2026-03-04";
    const pair = await client.pair("EUR", "CZK", { date, banks: ["CNB"] });
    expect(pair).toEqual(await api(`/v1/Pairs/EUR/CZK/${date}?banks=CNB`));
    const eur = ratesOf(date).find((r) => r.currency === "EUR")!.rate;
    expect(pair.banks).toHaveLength(1);
    expect(pair.banks[0]).toMatchObject({ bankId: "CNB", rate: eur, quote: "direct", derived: false, through: "CZK" });
  });

  it("answers Latest and a cross through CZK as the API does", async () => {
    const latest = await client.pair("USD", "JPY");
    expect(latest).toEqual(await api("/v1/Pairs/USD/JPY/Latest"));
    const figure = latest.banks[0]!;
    expect(figure).toMatchObject({ bankId: "CNB", effectiveDate: LAST, quote: "cross", derived: true });
    // JPY per USD = (CZK per USD) / (CZK per 100 JPY / 100), to 10 significant digits half away from zero.
    const usd = ratesOf(LAST).find((r) => r.currency === "USD")!.rate;
    const jpy = ratesOf(LAST).find((r) => r.currency === "JPY")!.rate;
    const hand = new Decimal(usd).times(100).div(jpy).toSignificantDigits(10, Decimal.ROUND_HALF_UP);
    expect(new Decimal(figure.rate).eq(hand)).toBe(true);
  });

  it("answers a pair's range and its monthly averages as the API does", async () => {
    const range = await client.pair("EUR", "CZK", { from: "2026-03-02", to: LAST });
    expect(range).toEqual(await api(`/v1/Pairs/EUR/CZK?from=2026-03-02&to=${LAST}`));
    expect(range.days.map((d) => d.date)).toEqual(weekdays("2026-03-02", LAST));
    const averages = await client.pair("EUR", "CZK", { from: FIRST, to: LAST, group: "month" });
    expect(averages).toEqual(await api(`/v1/Pairs/EUR/CZK?from=${FIRST}&to=${LAST}&group=month`));
    expect(averages.averages.map((a) => [a.bankId, a.period, a.partial])).toEqual([
      ["CNB", "2026-02", true],
      ["CNB", "2026-03", true],
    ]);
  });

  it("yields a bank's grouped range as the API answers it, the mean equal to the hand-computed one", async () => {
    const yielded = [];
    for await (const a of client.range("CNB", { from: FIRST, to: LAST, group: "month", currencies: ["EUR"] }))
      yielded.push(a);
    const doc = (await api(`/v1/Banks/CNB/DailyRates?from=${FIRST}&to=${LAST}&group=month&currencies=EUR`)) as {
      averages: object[];
    };
    const of = { bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" };
    expect(yielded).toEqual(doc.averages.map((a) => ({ ...of, ...a })));
    const march = yielded.find((a) => a.period === "2026-03")!;
    const days = weekdays("2026-03-01", LAST);
    const sum = days.reduce((s, d) => s.plus(ratesOf(d).find((r) => r.currency === "EUR")!.rate), new Decimal(0));
    expect(march).toMatchObject({ currency: "EUR", days: days.length, first: days[0], last: LAST, partial: true });
    expect(new Decimal(march.sum).eq(sum)).toBe(true);
    expect(new Decimal(march.mean).eq(sum.div(days.length).toSignificantDigits(10, Decimal.ROUND_HALF_UP))).toBe(true);
  });

  it("refuses an unknown option, a group on a date and a bad group before any request", async () => {
    await expect(client.pair("EUR", "CZK", { dates: "2026-03-02" } as never)).rejects.toThrow(
      /pair: unknown option "dates"/,
    );
    await expect(client.pair("EUR", "CZK", { group: "month" } as never)).rejects.toThrow(/group is read on a range/);
    await expect(client.pair("EUR", "CZK", { from: FIRST, group: "decade" } as never)).rejects.toThrow(
      /group must be one of week, month, quarter, year/,
    );
    const grouped = client.range("CNB", { from: FIRST, group: "month", asOf: "2026-03-03T00:00:00Z" } as never);
    await expect(grouped.next()).rejects.toThrow(/range: unknown option "asOf"/);
  });
});

import { describe, expect, it } from "vitest";

import cbbh from "../../adapters/CBBH.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.cbbh.ba/CurrencyExchange/GetJson?date=2026-03-07";
const parse = (body: Buffer | string) => cbbh.parse(Buffer.from(body), { url: URL });

describe("CBBH adapter", () => {
  it("takes Middle per Units, keeping trailing zeros, 100 units as unitMultiplier 2 and EUR at parity", async () => {
    expect(await recordsOf(parse(fixture("CBBH/list.json")))).toEqual([
      { effectiveDate: "2026-03-07", currency: "EUR", rate: "1.955830" },
      { effectiveDate: "2026-03-07", currency: "HUF", rate: "0.509393", unitMultiplier: 2 },
      { effectiveDate: "2026-03-07", currency: "JPY", rate: "1.142958", unitMultiplier: 2 },
      { effectiveDate: "2026-03-07", currency: "TRY", rate: "0.047008" },
      { effectiveDate: "2026-03-07", currency: "USD", rate: "1.799880" },
    ]);
  });

  itRefusesWhole("CBBH", parse, [
    [
      "truncated JSON",
      '{"Date":"2026-03-07T00:00:00","CurrencyExchangeItems":[{"AlphaCode":"USD","Units":"1","Middle":"1.79',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["a list Date in another form", '{"Date":"07.03.2026","CurrencyExchangeItems":[]}'],
  ]);

  const item = (code: string, units: string, middle: string) =>
    `{"Country":"X","AlphaCode":"${code}","Units":"${units}","Buy":"1","Middle":"${middle}","Sell":"1","Star":null}`;
  const list = (date: string, ...items: string[]) =>
    `{"Date":"${date}T00:00:00","Number":46,"CurrencyExchangeItems":[${items.join(",")}]}`;
  const eur = item("EUR", "1", "1.955830");
  const huf = item("HUF", "100", "0.509393");
  it.each([
    ["a missing Middle", '{"AlphaCode":"USD","Units":"1","Buy":"1.7"}', { kind: "bad-rate" }],
    ["a fractional Units", item("USD", "1.5", "1.799880"), { kind: "unknown-unit" }],
    ["a Middle that is not a number", item("USD", "1", "-"), { kind: "bad-rate", rate: "-" }],
  ] as const)("holds an item with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(list("2026-03-07", eur, bad, huf)), {
      records: [
        { effectiveDate: "2026-03-07", currency: "EUR", rate: "1.955830" },
        { effectiveDate: "2026-03-07", currency: "HUF", rate: "0.509393", unitMultiplier: 2 },
      ],
      held: { ...held, currency: "USD", source: "CurrencyExchangeItems[1]" },
    });
  });

  it("holds every item of a list dated 30 February", async () => {
    const answer = await answerOf(parse(list("2026-02-30", eur, huf)));
    expect(answer.records).toEqual([]);
    expect(answer.held.map((h) => [h.kind, h.currency, h.source])).toEqual([
      ["bad-date", "EUR", "CurrencyExchangeItems[0]"],
      ["bad-date", "HUF", "CurrencyExchangeItems[1]"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded list exactly (values read off the file by hand)", async () => {
    const r = recording("CBBH/001.json");
    expect(await recordsOf(cbbh.parse(r.body, { url: r.url }))).toEqual([
      { effectiveDate: "2026-10-03", currency: "EUR", rate: "1.955830" },
      { effectiveDate: "2026-10-03", currency: "HUF", rate: "0.534015", unitMultiplier: 2 },
      { effectiveDate: "2026-10-03", currency: "USD", rate: "1.684211" },
    ]);
  });

  it("asks for tomorrow's list as the latest and for each Tuesday-Saturday of a range", async () => {
    const http = fakeHttp(() => ({ body: "{}" }));
    await cbbh.fetch({ kind: "range", from: "2026-03-06", to: "2026-03-10" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.cbbh.ba/CurrencyExchange/GetJson?date=2026-03-06",
      "https://www.cbbh.ba/CurrencyExchange/GetJson?date=2026-03-07",
      "https://www.cbbh.ba/CurrencyExchange/GetJson?date=2026-03-10",
    ]);
    const latest = fakeHttp(() => ({ body: "{}" }));
    await cbbh.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen).toHaveLength(1);
    expect(latest.seen[0]!.url).toMatch(/^https:\/\/www\.cbbh\.ba\/CurrencyExchange\/GetJson\?date=\d{4}-\d{2}-\d{2}$/);
  });
});

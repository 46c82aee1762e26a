import { describe, expect, it } from "vitest";

import cbbh from "../../adapters/CBBH.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.cbbh.ba/CurrencyExchange/GetJson?date=2026-03-07";
const parse = (body: Buffer | string) => cbbh.parse(Buffer.from(body), { url: URL });

describe("CBBH adapter", () => {
  it("takes Middle per Units, keeping trailing zeros, 100 units as unitMultiplier 2 and EUR at parity", async () => {
    expect(await parse(fixture("CBBH/list.json"))).toEqual([
      { effectiveDate: "2026-03-07", currency: "EUR", rate: "1.955830" },
      { effectiveDate: "2026-03-07", currency: "HUF", rate: "0.509393", unitMultiplier: 2 },
      { effectiveDate: "2026-03-07", currency: "JPY", rate: "1.142958", unitMultiplier: 2 },
      { effectiveDate: "2026-03-07", currency: "TRY", rate: "0.047008" },
      { effectiveDate: "2026-03-07", currency: "USD", rate: "1.799880" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Service unavailable</body></html>"],
    [
      "truncated JSON",
      '{"Date":"2026-03-07T00:00:00","CurrencyExchangeItems":[{"AlphaCode":"USD","Units":"1","Middle":"1.79',
    ],
    ["another bank's body", '{"rates":[{"validFor":"2026-03-02","currencyCode":"EUR","amount":1,"rate":24.1}]}'],
    ["a bad date", '{"Date":"2026-02-30T00:00:00","CurrencyExchangeItems":[]}'],
    [
      "a missing Middle",
      '{"Date":"2026-03-07T00:00:00","CurrencyExchangeItems":[{"AlphaCode":"USD","Units":"1","Buy":"1.7"}]}',
    ],
    [
      "a fractional unit",
      '{"Date":"2026-03-07T00:00:00","CurrencyExchangeItems":[{"AlphaCode":"USD","Units":"1.5","Middle":"1.7"}]}',
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBBH: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded list exactly (values read off the file by hand)", async () => {
    const r = recording("CBBH/001.json");
    expect(await cbbh.parse(r.body, { url: r.url })).toEqual([
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

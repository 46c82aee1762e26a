import { describe, expect, it } from "vitest";

import nbu from "../../adapters/NBU.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://bank.gov.ua/NBU_Exchange/exchange_site?start=20260306&end=20260309&sort=exchangedate&order=asc&json";
const parse = (body: Buffer | string) => nbu.parse(Buffer.from(body), { url: URL });

describe("NBU adapter", () => {
  it("keeps the rate per 10/100/1000 units as unitMultiplier and drops the weekend rows", async () => {
    expect(await recordsOf(parse(fixture("NBU/exchange.json")))).toEqual([
      { effectiveDate: "2026-03-06", currency: "USD", rate: "43.8060" },
      { effectiveDate: "2026-03-06", currency: "JPY", rate: "2.7825", unitMultiplier: 1 },
      { effectiveDate: "2026-03-06", currency: "VND", rate: "1.6714", unitMultiplier: 3 },
      { effectiveDate: "2026-03-06", currency: "XAU", rate: "226217.52" },
      { effectiveDate: "2026-03-09", currency: "HUF", rate: "12.8475", unitMultiplier: 2 },
    ]);
  });

  itRefusesWhole("NBU", parse, [
    [
      "a WAF page",
      "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected.</body></html>",
    ],
    ["truncated JSON", '[{"exchangedate":"06.03.2026","cc":"USD","rate":43.80'],
    ["another bank's body", '[{"seriesId":"SEKUSDPMI","date":"2026-03-24","value":9.4}]'],
    ["an object instead of an array", '{"error":"wrong parameters"}'],
  ]);

  const usd = '{"exchangedate":"06.03.2026","r030":840,"cc":"USD","rate":43.8060,"units":1}';
  const jpy = '{"exchangedate":"06.03.2026","r030":392,"cc":"JPY","rate":2.7825,"units":10}';
  const taken = [
    { effectiveDate: "2026-03-06", currency: "USD", rate: "43.8060" },
    { effectiveDate: "2026-03-06", currency: "JPY", rate: "2.7825", unitMultiplier: 1 },
  ];
  it.each([
    [
      "a date in another format",
      '{"exchangedate":"2026-03-06","cc":"EUR","rate":50.6,"units":1}',
      { kind: "bad-date", source: "row 3", effectiveDate: "2026-03-06", currency: "EUR" },
    ],
    [
      "a 31st of a 30-day month",
      '{"exchangedate":"31.04.2026","cc":"EUR","rate":50.6,"units":1}',
      { kind: "bad-date", source: "row 3", effectiveDate: "31.04.2026" },
    ],
    [
      "a missing rate",
      '{"exchangedate":"06.03.2026","cc":"EUR","units":1}',
      { kind: "bad-rate", source: "row 3", currency: "EUR" },
    ],
    [
      "fractional units",
      '{"exchangedate":"06.03.2026","cc":"EUR","rate":50.6,"units":1.5}',
      { kind: "unknown-unit", source: "row 3", currency: "EUR", rate: "50.6" },
    ],
    [
      "an empty code",
      '{"exchangedate":"06.03.2026","cc":"","rate":50.6,"units":1}',
      { kind: "unknown-currency", source: "row 3", rate: "50.6" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(`[${usd},${jpy},${bad}]`), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("NBU/001.json");
    const records = await recordsOf(nbu.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(7 * 45); // 10 days, of which 1, 7 and 8 March 2026 are weekend days
    expect(find("2026-03-01", "USD")).toBeUndefined();
    expect(find("2026-03-07", "USD")).toBeUndefined();
    expect(find("2026-03-06", "USD")).toEqual({ effectiveDate: "2026-03-06", currency: "USD", rate: "43.8069" });
    expect(find("2026-03-09", "VND")).toEqual({
      effectiveDate: "2026-03-09",
      currency: "VND",
      rate: "1.6682",
      unitMultiplier: 3,
    });
    expect(find("2026-03-09", "XAU")).toEqual({ effectiveDate: "2026-03-09", currency: "XAU", rate: "222416.33" });
    expect(find("2026-03-06", "JPY")).toEqual({
      effectiveDate: "2026-03-06",
      currency: "JPY",
      rate: "2.7825",
      unitMultiplier: 1,
    });
  });

  it("asks the exchange service over the range, dates as YYYYMMDD", async () => {
    const http = fakeHttp(() => ({ body: "[]" }));
    await nbu.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-10" }, { http, env: {} });
    await nbu.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://bank.gov.ua/NBU_Exchange/exchange_site?start=20260301&end=20260310&sort=exchangedate&order=asc&json",
    );
    expect(http.seen[1]!.url).toMatch(
      /^https:\/\/bank\.gov\.ua\/NBU_Exchange\/exchange_site\?start=\d{8}&end=\d{8}&sort=exchangedate&order=asc&json$/,
    );
  });
});

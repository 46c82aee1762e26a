import { describe, expect, it } from "vitest";

import amcm from "../../adapters/AMCM.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const parse = (body: Buffer | string) =>
  amcm.parse(Buffer.from(body), {
    url: "https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260518&End=20260520&QueryType=1",
  });

/** An answer of the given data items, around two good ones (EUR and JPY on 2026-05-20). */
const answer = (bad: string) =>
  `{"message":"OK","data":[` +
  `{"id":1,"date":"2026-05-20 00:00:00","currency":"EUR","unit":1.0,"usdMean":"9.3610","usdMeanValue":9.36100000},` +
  `${bad},` +
  `{"id":3,"date":"2026-05-20 00:00:00","currency":"JPY","unit":100.0,"usdMean":"5.0745","usdMeanValue":5.07450000}` +
  `],"code":0,"type":"Success"}`;
const taken = [
  { effectiveDate: "2026-05-20", currency: "EUR", rate: "9.3610" },
  { effectiveDate: "2026-05-20", currency: "JPY", rate: "5.0745", unitMultiplier: 2 },
];

describe("AMCM adapter", () => {
  it("takes the published mean, keeps per-100 units, skips LIQ and relabels ECU", async () => {
    expect(await recordsOf(parse(fixture("AMCM/financial_info.json")))).toEqual([
      { effectiveDate: "2026-05-20", currency: "EUR", rate: "9.3610" },
      { effectiveDate: "2026-05-20", currency: "JPY", rate: "5.0745", unitMultiplier: 2 },
      { effectiveDate: "1998-12-31", currency: "XEU", rate: "9.3530" },
      // Without the text field, the padded number is the figure.
      { effectiveDate: "2026-05-19", currency: "KRW", rate: "0.54000000", unitMultiplier: 2 },
    ]);
  });

  itRefusesWhole("AMCM", parse, [
    [
      "truncated JSON",
      '{"message":"OK","data":[{"date":"2026-05-20 00:00:00","currency":"EUR","unit":1.0,"usdMean":"9.36',
    ],
    ["another bank's body", '[{"currency_name":"USD","average_rate":"1463.065","post_date":"19-May-26"}]'],
    ["an error answer", '{"message":"Query period too long","data":null,"code":1,"type":"Error"}'],
    ["items of another layout", '{"message":"OK","data":[{"day":"2026-05-20","ccy":"EUR","mid":"9.3610"}]}'],
  ]);

  it.each([
    [
      "text and number that differ",
      '{"id":2,"date":"2026-05-20 00:00:00","currency":"GBP","unit":1.0,"usdMean":"10.8041","usdMeanValue":10.8042}',
      { kind: "conflict", currency: "GBP", rate: "10.8041" },
    ],
    [
      "a fractional unit",
      '{"id":2,"date":"2026-05-20 00:00:00","currency":"GBP","unit":1.5,"usdMean":"10.8041","usdMeanValue":10.8041}',
      { kind: "unknown-unit", currency: "GBP" },
    ],
    [
      "a date that does not exist",
      '{"id":2,"date":"2026-04-31 00:00:00","currency":"GBP","unit":1.0,"usdMean":"10.8041","usdMeanValue":10.8041}',
      { kind: "bad-date", effectiveDate: "2026-04-31 00:00:00" },
    ],
    [
      "a figure that is not a number",
      '{"id":2,"date":"2026-05-20 00:00:00","currency":"GBP","unit":1.0,"usdMean":"N/A","usdMeanValue":null}',
      { kind: "bad-rate", currency: "GBP" },
    ],
    [
      "a label that is no currency code",
      '{"id":2,"date":"2026-05-20 00:00:00","currency":"G B P","unit":1.0,"usdMean":"10.8041","usdMeanValue":10.8041}',
      { kind: "unknown-currency", currency: "G B P" },
    ],
  ] as const)("holds %s and takes the other rows", async (_what, bad, held) => {
    await expectOneHeld(parse(answer(bad)), { records: taken, held: { ...held, source: "data[1]" } });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("AMCM/001.json");
    const records = await recordsOf(amcm.parse(r.body, { url: r.url }));
    expect(records).toHaveLength(51); // 17 currencies on 3 days, LIQ skipped
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2026-05-20", "EUR")).toEqual({ effectiveDate: "2026-05-20", currency: "EUR", rate: "9.3610" });
    expect(find("2026-05-20", "JPY")).toEqual({
      effectiveDate: "2026-05-20",
      currency: "JPY",
      rate: "5.0745",
      unitMultiplier: 2,
    });
    expect(find("2026-05-20", "KRW")).toEqual({
      effectiveDate: "2026-05-20",
      currency: "KRW",
      rate: "0.5300",
      unitMultiplier: 2,
    });
    expect(find("2026-05-18", "USD")).toEqual({ effectiveDate: "2026-05-18", currency: "USD", rate: "8.0643" });
    expect(find("2026-05-19", "LIQ")).toBeUndefined();
  });

  it("asks one window with Begin/End as YYYYMMDD", async () => {
    const http = fakeHttp(() => ({ body: '{"data":[]}' }));
    await amcm.fetch({ kind: "range", from: "2026-02-19", to: "2026-05-19" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=20260219&End=20260519&QueryType=1",
    ]);
  });
});

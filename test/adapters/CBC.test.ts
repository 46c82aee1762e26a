import { describe, expect, it } from "vitest";

import cbc from "../../adapters/CBC.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01";
const parse = (body: Buffer | string) =>
  cbc.parse(Buffer.from(body), { url: URL, contentType: "text/plain; charset=utf-8" });
const file = (labels: string[], rows: string[][]) =>
  JSON.stringify({ data: { dataSets: rows, structure: { Table1: labels.map((data) => ({ data })) } } });

describe("CBC adapter", () => {
  it("reads foreign per USD as published, inverts the USD-per-unit columns, relabels NTD and skips '-'", async () => {
    expect(await parse(fixture("CBC/BP01D01.json"))).toEqual([
      { effectiveDate: "1993-01-05", currency: "TWD", rate: "25.405" },
      { effectiveDate: "1993-01-05", currency: "JPY", rate: "125.25" },
      // 1 / 1.5499 to 10 significant digits (worked out separately).
      { effectiveDate: "1993-01-05", currency: "GBP", rate: "0.6452029163", derivation: "inverted" },
      { effectiveDate: "1993-01-05", currency: "DEM", rate: "1.6255" },
      { effectiveDate: "2002-01-02", currency: "TWD", rate: "35.036" },
      { effectiveDate: "2002-01-02", currency: "JPY", rate: "132.13" },
      { effectiveDate: "2002-01-02", currency: "GBP", rate: "0.8", derivation: "inverted" },
      { effectiveDate: "2012-11-01", currency: "TWD", rate: "29.290" },
      { effectiveDate: "2012-11-01", currency: "JPY", rate: "79.98" },
      { effectiveDate: "2012-11-01", currency: "GBP", rate: "0.7727378101", derivation: "inverted" },
      { effectiveDate: "2012-11-01", currency: "VND", rate: "20850.0" },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>系統維護中</body></html>"],
    ["truncated JSON", '{"data":{"dataSets":[["19930105","25.405"'],
    ["another bank's body", '[{"Date": "22 January 2020", "Rate": "15.38"}]'],
    ["a label without a pair", file(["新台幣"], [["19930105", "25.405"]])],
    ["a pair not against the dollar", file(["JPY/TWD"], [["19930105", "4.93"]])],
    ["a short row", file(["NTD/USD", "JPY/USD"], [["19930105", "25.405"]])],
    ["a bad date", file(["NTD/USD"], [["1993-01-05", "25.405"]])],
    ["a non-decimal value", file(["NTD/USD"], [["19930105", "25,405"]])],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBC: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded history exactly (values read off the file by hand)", async () => {
    const r = recording("CBC/001.json");
    const records = await cbc.parse(r.body, { url: r.url, contentType: r.contentType });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("1993-01-05", "TWD")).toEqual({ effectiveDate: "1993-01-05", currency: "TWD", rate: "25.405" });
    expect(find("1993-01-05", "GBP")).toEqual({
      effectiveDate: "1993-01-05",
      currency: "GBP",
      rate: "0.6452029163",
      derivation: "inverted",
    });
    // AUD column, USD per AUD 0.6732 on 1993-01-05: 1 / 0.6732.
    expect(find("1993-01-05", "AUD")).toEqual({
      effectiveDate: "1993-01-05",
      currency: "AUD",
      rate: "1.485442662",
      derivation: "inverted",
    });
    expect(find("1993-01-05", "EUR")).toBeUndefined(); // "-" before the euro
    expect(find("2001-01-02", "DEM")).toEqual({ effectiveDate: "2001-01-02", currency: "DEM", rate: "2.0589" });
    expect(find("2002-01-02", "DEM")).toBeUndefined();
    expect(find("2012-11-01", "VND")).toEqual({ effectiveDate: "2012-11-01", currency: "VND", rate: "20850.0" });
    // EUR column, USD per EUR 1.2941 on 2012-11-01.
    expect(find("2012-11-01", "EUR")).toEqual({
      effectiveDate: "2012-11-01",
      currency: "EUR",
      rate: "0.7727378101",
      derivation: "inverted",
    });
  });

  it("asks the one whole-history file", async () => {
    const http = fakeHttp(() => ({ body: file([], []) }));
    await cbc.fetch({ kind: "latest" }, { http, env: {} });
    await cbc.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([URL, URL]);
  });
});

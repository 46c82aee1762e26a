import { describe, expect, it } from "vitest";

import cbc from "../../adapters/CBC.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://cpx.cbc.gov.tw/API/DataAPI/Get?FileName=BP01D01";
const parse = (body: Buffer | string) =>
  cbc.parse(Buffer.from(body), { url: URL, contentType: "text/plain; charset=utf-8" });
const file = (labels: string[], rows: string[][]) =>
  JSON.stringify({ data: { dataSets: rows, structure: { Table1: labels.map((data) => ({ data })) } } });

describe("CBC adapter", () => {
  it("reads foreign per USD as published, inverts the USD-per-unit columns, relabels NTD and skips '-'", async () => {
    expect(await recordsOf(parse(fixture("CBC/BP01D01.json")))).toEqual([
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

  itRefusesWhole("CBC", parse, [
    ["truncated JSON", '{"data":{"dataSets":[["19930105","25.405"'],
    ["another bank's body", '[{"Date": "22 January 2020", "Rate": "15.38"}]'],
    ["a label without a pair", file(["新台幣"], [["19930105", "25.405"]])],
    ["a pair not against the dollar", file(["JPY/TWD"], [["19930105", "4.93"]])],
  ]);

  // The whole history is one answer: one bad row or value must cost only itself.
  const labels = ["新台幣NTD/USD", "英鎊USD/GBP"];
  const good = [
    ["19930105", "25.405", "1.5499"],
    ["19930106", "25.427", "1.25"],
  ];
  const taken: RateRecord[] = [
    { effectiveDate: "1993-01-05", currency: "TWD", rate: "25.405" },
    { effectiveDate: "1993-01-05", currency: "GBP", rate: "0.6452029163", derivation: "inverted" },
    { effectiveDate: "1993-01-06", currency: "TWD", rate: "25.427" },
    { effectiveDate: "1993-01-06", currency: "GBP", rate: "0.8", derivation: "inverted" },
  ];
  it.each([
    [
      "a date that does not exist",
      ["19930230", "25.410", "1.5400"],
      { kind: "bad-date", effectiveDate: "19930230", source: "dataSets[1]" },
    ],
    ["a short row", ["19930107", "25.411"], { kind: "bad-row", source: "dataSets[1]" }],
    [
      "a value written with a decimal comma",
      ["19930107", "25,411", "-"],
      { kind: "bad-rate", currency: "TWD", rate: "25,411", source: 'dataSets[1] "新台幣NTD/USD"' },
    ],
    [
      "a zero value",
      ["19930107", "-", "0.0000"],
      { kind: "bad-rate", currency: "GBP", rate: "0.0000", source: 'dataSets[1] "英鎊USD/GBP"' },
    ],
  ] as const)("holds %s and takes every other row of the history", async (_what, bad, held) => {
    await expectOneHeld(parse(file(labels, [good[0]!, [...bad], good[1]!])), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded history exactly (values read off the file by hand)", async () => {
    const r = recording("CBC/001.json");
    const records = await recordsOf(cbc.parse(r.body, { url: r.url, contentType: r.contentType }));
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

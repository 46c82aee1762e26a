import { describe, expect, it } from "vitest";

import bob from "../../adapters/BOB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.bankofbotswana.bw/export/exchange-rates.csv?page&_format=csv";
const parse = (body: Buffer | string) => bob.parse(Buffer.from(body), { url: URL });

// The bank's labels that are no ISO codes, read by rule (SDR is the standard's own abbreviation: exact).
const YEN = 'name "YEN" resolved by unit, the one currency so called';
const CHN = 'name "CHN" resolved by territory CN';

describe("BOB adapter", () => {
  it("reads every column by its label, keeps the digits and skips 0.0000 placeholders", async () => {
    expect(await recordsOf(parse(fixture("BOB/exchange-rates.csv")))).toEqual([
      { effectiveDate: "2016-02-03", currency: "EUR", rate: "0.0795" },
      { effectiveDate: "2016-02-03", currency: "GBP", rate: "0.0602" },
      { effectiveDate: "2016-02-03", currency: "USD", rate: "0.0868" },
      { effectiveDate: "2016-02-03", currency: "XDR", rate: "0.0628" },
      { effectiveDate: "2016-02-03", currency: "JPY", rate: "10.3900", derivation: YEN },
      { effectiveDate: "2016-02-03", currency: "ZAR", rate: "1.4148" },
      { effectiveDate: "2016-02-02", currency: "CNY", rate: "0.5712", derivation: CHN },
      { effectiveDate: "2016-02-02", currency: "EUR", rate: "0.0803" },
      { effectiveDate: "2016-02-02", currency: "GBP", rate: "0.0609" },
      { effectiveDate: "2016-02-02", currency: "USD", rate: "0.0876" },
      { effectiveDate: "2016-02-02", currency: "XDR", rate: "0.0634" },
      { effectiveDate: "2016-02-02", currency: "JPY", rate: "10.5600", derivation: YEN },
      { effectiveDate: "2016-02-02", currency: "ZAR", rate: "1.4002" },
      { effectiveDate: "2005-01-17", currency: "EUR", rate: "0.1702" },
      { effectiveDate: "2005-01-17", currency: "GBP", rate: "0.1192" },
      { effectiveDate: "2005-01-17", currency: "USD", rate: "0.2232" },
      { effectiveDate: "2005-01-17", currency: "XDR", rate: "0.1482" },
      { effectiveDate: "2005-01-17", currency: "ZAR", rate: "1.3451" },
    ]);
  });

  itRefusesWhole("BOB", parse, [
    ["a truncated body", 'Date,CHN,EUR,GBP,USD,SDR,YEN,ZAR\n"02 Feb 2016",0.0000,0.0803,0.06'],
    [
      "another bank's CSV",
      "KEY,FREQ,CURRENCY,CURRENCY_DENOM,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,2026-03-02,1.0850\n",
    ],
    ["an export without its USD column", 'Date,EUR,GBP\n"02 Feb 2016",0.0803,0.0609\n'],
  ]);

  const around = (bad: string) => `Date,EUR,USD\n"03 Feb 2016",0.0795,0.0868\n${bad}\n"01 Feb 2016",0.0810,0.0880\n`;
  const feb3 = [
    { effectiveDate: "2016-02-03", currency: "EUR", rate: "0.0795" },
    { effectiveDate: "2016-02-03", currency: "USD", rate: "0.0868" },
  ];
  const feb1 = [
    { effectiveDate: "2016-02-01", currency: "EUR", rate: "0.0810" },
    { effectiveDate: "2016-02-01", currency: "USD", rate: "0.0880" },
  ];
  it("holds a line whose date does not exist and takes the others", async () => {
    await expectOneHeld(parse(around('"30 Feb 2016",0.0803,0.0876')), {
      records: [...feb3, ...feb1],
      held: { kind: "bad-date", effectiveDate: "30 Feb 2016", source: "line 3" },
    });
  });

  it("holds a figure that is not a number and takes the rest of its line", async () => {
    await expectOneHeld(parse(around('"02 Feb 2016",n/a,0.0876')), {
      records: [...feb3, { effectiveDate: "2016-02-02", currency: "USD", rate: "0.0876" }, ...feb1],
      held: { kind: "bad-rate", rate: "n/a", currency: "EUR", source: "line 3 EUR" },
    });
  });

  it("holds the figures of a column whose label no one knows and takes the others", async () => {
    await expectOneHeld(
      parse('Date,EUR,XYZ,USD\n"02 Feb 2016",0.0803,0.0609,0.0876\n"03 Feb 2016",0.0795,0.0000,0.0868\n'),
      {
        records: [
          { effectiveDate: "2016-02-02", currency: "EUR", rate: "0.0803" },
          { effectiveDate: "2016-02-02", currency: "USD", rate: "0.0876" },
          { effectiveDate: "2016-02-03", currency: "EUR", rate: "0.0795" },
          { effectiveDate: "2016-02-03", currency: "USD", rate: "0.0868" },
        ],
        held: { kind: "unknown-currency", currency: "XYZ", rate: "0.0609", source: "line 2 XYZ" },
      },
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded export exactly (values read off the file by hand)", async () => {
    const r = recording("BOB/001.csv");
    const records = await recordsOf(bob.parse(r.body, { url: r.url }));
    const on = (date: string) => records.filter((x) => x.effectiveDate === date);
    // "02 Feb 2016",0.0000,0.0803,0.0609,0.0876,0.0634,10.5600,1.4002
    expect(on("2016-02-02")).toEqual([
      { effectiveDate: "2016-02-02", currency: "EUR", rate: "0.0803" },
      { effectiveDate: "2016-02-02", currency: "GBP", rate: "0.0609" },
      { effectiveDate: "2016-02-02", currency: "USD", rate: "0.0876" },
      { effectiveDate: "2016-02-02", currency: "XDR", rate: "0.0634" },
      { effectiveDate: "2016-02-02", currency: "JPY", rate: "10.5600", derivation: YEN },
      { effectiveDate: "2016-02-02", currency: "ZAR", rate: "1.4002" },
    ]);
    // "18 May 2007",0.0000,0.1203,0.0822,0.1624,0.1071,0.0000,1.1479 (YEN not published)
    expect(on("2007-05-18").map((x) => `${x.currency}=${x.rate}`)).toEqual([
      "EUR=0.1203",
      "GBP=0.0822",
      "USD=0.1624",
      "XDR=0.1071",
      "ZAR=1.1479",
    ]);
    expect(records.at(-1)).toEqual({ effectiveDate: "2009-04-27", currency: "ZAR", rate: "1.1929" });
  });

  it("asks the one export URL for the latest and for a range", async () => {
    const http = fakeHttp(() => ({ body: "Date,USD\n" }));
    await bob.fetch({ kind: "latest" }, { http, env: {} });
    await bob.fetch({ kind: "range", from: "2024-01-01", to: "2024-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${URL}`, `GET ${URL}`]);
  });
});

import { describe, expect, it } from "vitest";

import cbs, { cbsColumn } from "../../adapters/CBS.js";
import { gateRecords } from "../../src/ingest/validate.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://cbs.gov.ws/daily-exchange-rates";
const XLSX_URL = "https://cbs.gov.ws/media/Historical-Daily-Rates-June032026.xlsx";
const parse = (body: Buffer | string) => cbs.parse(Buffer.from(body), { url: XLSX_URL });

// The bank's abbreviations, read by rule.
const YEN = 'name "YEN" resolved by unit, the one currency so called';
const US = 'name "US" resolved by territory US';
const AUS = 'name "AUS" resolved by territory AU';

describe("CBS adapter", () => {
  it("reads month sections by their labels in both label orders, skips n/a and average rows, holds a date outside its month", async () => {
    const answer = await answerOf(parse(fixture("CBS/Historical-Daily-Rates.xlsx")));
    expect(answer.held).toMatchObject([
      { kind: "bad-date", source: 'sheet "2016" row 8', effectiveDate: "2016-01-04" },
    ]);
    expect(answer.held[0]!.reason).toMatch(
      /under the month banner "FEBRUARY" \(sheet "[^"]+" row \d+\): a typing slip/,
    );
    expect(answer.records).toEqual([
      { effectiveDate: "2016-01-04", currency: "USD", rate: "0.38291" },
      { effectiveDate: "2016-01-04", currency: "EUR", rate: "0.35245" },
      { effectiveDate: "2016-01-04", currency: "JPY", rate: "46.06197", derivation: YEN },
      { effectiveDate: "2016-01-04", currency: "CNY", rate: "2.5181" },
      { effectiveDate: "2016-01-05", currency: "USD", rate: "0.3829" },
      { effectiveDate: "2016-01-05", currency: "EUR", rate: "0.3553" },
      { effectiveDate: "2016-01-05", currency: "JPY", rate: "45.8000", derivation: YEN },
      { effectiveDate: "2016-02-01", currency: "USD", rate: "0.38474" },
      { effectiveDate: "2016-02-01", currency: "EUR", rate: "0.35259" },
      { effectiveDate: "2016-02-01", currency: "JPY", rate: "46.58459", derivation: YEN },
      { effectiveDate: "2016-02-01", currency: "CNY", rate: "2.52952" },
      { effectiveDate: "2011-01-04", currency: "USD", rate: "0.42358", derivation: US },
      { effectiveDate: "2011-01-04", currency: "AUD", rate: "0.42093", derivation: AUS },
      { effectiveDate: "2011-01-04", currency: "EUR", rate: "0.31785" },
    ]);
  });

  it("reads the labels' foreign side through ISO codes, ICU's names and, by rule, the bank's abbreviations", () => {
    const labels = [
      "TALA/USD",
      "US/TALA",
      "NZ/TALA",
      "AUS/TALA",
      "TALA/EURO",
      "EUR/TALA",
      "TALA/FJD",
      "TALA/YEN",
      "TALA/GBP",
    ];
    expect(labels.map((l) => cbsColumn(l, "here"))).toEqual([
      { currency: "USD" },
      { currency: "USD", derivation: US },
      { currency: "NZD", derivation: 'name "NZ" resolved by territory NZ' },
      { currency: "AUD", derivation: AUS },
      { currency: "EUR" },
      { currency: "EUR" },
      { currency: "FJD" },
      { currency: "JPY", derivation: YEN },
      { currency: "GBP" },
    ]);
    expect(cbsColumn("TALA/CNH", "here")).toEqual({ currency: "CNH" }); // a market code
    expect(cbsColumn("TALA/MARS", "here")).toHaveProperty("problem");
    expect(() => cbsColumn("USD/EUR", "here")).toThrow(/^CBS: here: column label "USD\/EUR" is not a TALA pair/);
  });

  it("treats the daily exchange rates page as navigation, never parsed", () => {
    expect(cbs.navigation?.test(PAGE)).toBe(true);
    expect(cbs.navigation?.test(XLSX_URL)).toBe(false);
  });

  itRefusesWhole("CBS", parse, [
    ["a truncated workbook", fixture("CBS/Historical-Daily-Rates.xlsx").subarray(0, 3000)],
    ["another bank's workbook", fixture("BOA/Cotation-DZD.xlsx")],
  ]);

  it("holds a figure typed wrongly, a column of an unknown currency and a date that does not exist; publishes CNH", async () => {
    const answer = await answerOf(parse(fixture("CBS/held-rows.xlsx")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "0.36512" },
      { effectiveDate: "2026-03-02", currency: "NZD", rate: "0.61234" },
      { effectiveDate: "2026-03-02", currency: "CNH", rate: "2.5200" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "0.36498" },
    ]);
    expect(answer.held).toMatchObject([
      { kind: "unknown-currency", source: 'sheet "2026" row 3 E3', currency: "MARS", rate: "1.5" },
      { kind: "bad-rate", source: 'sheet "2026" row 4 D4', currency: "NZD", rate: "0.6l234" },
      { kind: "bad-date", source: 'sheet "2026" row 5', effectiveDate: "31-Feb-26" },
    ]);
    // CNH, the offshore yuan, is a market code the gate lets through (src/feed/market-codes.ts).
    const gated = gateRecords("WST", answer.records, answer.held);
    expect(gated.held).toHaveLength(3);
    expect(gated.records).toHaveLength(4);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBS/002.xlsx");
    const records = await recordsOf(cbs.parse(r.body, { url: r.url }));
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x.rate]));
    // Sheet 2008 row 3: 3-Jan-08 | 0.39258 | 0.50908 | 0.44617 | 0.2664 | 0.60799 | 42.95227 | 0.19886
    expect(on("2008-01-03")).toEqual({
      USD: "0.39258",
      NZD: "0.50908",
      AUD: "0.44617",
      EUR: "0.2664",
      FJD: "0.60799",
      JPY: "42.95227",
      GBP: "0.19886",
    });
    // Sheet 2009 row 3 (labels US/TALA ...): 5-Jan-09 | 0.34554 | ... | YEN 32.2248
    expect(on("2009-01-05")).toMatchObject({ USD: "0.34554", NZD: "0.58665", JPY: "32.2248" });
    // Sheet "2010" holds 2011: 4-Jan-11 USD 0.42358.
    expect(on("2011-01-04").USD).toBe("0.42358");
    // Sheet 2026 row 34, in the FEBRUARY section between 11 and 13 Feb, is dated 12-Jan-26 (0.37157):
    // held, so 12 January keeps row 8's figure and 12 February has none.
    expect(on("2026-01-12").USD).toBe("0.35933");
    expect(on("2026-02-12")).toEqual({});
    expect(cbs.navigation?.test(recording("CBS/001.html").url)).toBe(true);
  });

  it("fetches the page, then the dated workbook it links to (path escaped)", async () => {
    const html =
      '<html><body><a href="/media/Historical Daily-Rates-June032026.xlsx">Historical Daily Rates.</a></body></html>';
    const http = fakeHttp((req) => (req.url === PAGE ? { body: html } : { body: "" }));
    const docs = await cbs.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    await cbs.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    const file = "https://cbs.gov.ws/media/Historical%20Daily-Rates-June032026.xlsx";
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      `GET ${file}`,
      `GET ${PAGE}`,
      `GET ${file}`,
    ]);
  });
});

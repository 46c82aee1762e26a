import { describe, expect, it } from "vitest";

import mas, { MAS_ALIASES, downloadForm, isFormPage } from "../../adapters/MAS.js";
import { currencyFromName, resolveCurrencyName } from "../../src/feed/currency-names.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx";
const parse = (body: Buffer | string, contentType = "text/csv; charset=utf-8") =>
  mas.parse(Buffer.from(body), { url: PAGE, contentType });

describe("MAS adapter", () => {
  it("carries year and month down the groups, keeps per-100 quotes as unitMultiplier 2 and every digit", async () => {
    expect(await recordsOf(parse(fixture("MAS/ExchangeRates.csv")))).toEqual([
      { effectiveDate: "2025-12-31", currency: "EUR", rate: "1.5100" },
      { effectiveDate: "2025-12-31", currency: "USD", rate: "1.2850" },
      { effectiveDate: "2025-12-31", currency: "JPY", rate: "0.8200", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "IDR", rate: "0.007700", unitMultiplier: 2 },
      { effectiveDate: "2026-01-02", currency: "EUR", rate: "1.4940" },
      { effectiveDate: "2026-01-02", currency: "USD", rate: "1.2674" },
      { effectiveDate: "2026-01-02", currency: "JPY", rate: "0.8107", unitMultiplier: 2 },
      { effectiveDate: "2026-01-02", currency: "IDR", rate: "0.007529", unitMultiplier: 2 },
      { effectiveDate: "2026-01-05", currency: "EUR", rate: "1.4877" },
      { effectiveDate: "2026-01-05", currency: "USD", rate: "1.2726" },
      { effectiveDate: "2026-01-05", currency: "IDR", rate: "0.007548", unitMultiplier: 2 },
    ]);
  });

  it("reads `No Results Found` as the bank saying that nothing was published", async () => {
    expect(await parse("MAS: Financial Database - Exchange Rates\n\nNo Results Found\n")).toEqual({
      records: [],
      held: [],
      noPublication: "No Results Found: no rates in the months asked",
    });
  });

  it("tells the form page by what it holds, not by the method: navigation when served to a GET, refused after a POST", async () => {
    const page = fixture("MAS/ExchangeRates.aspx.html");
    const csv = fixture("MAS/ExchangeRates.csv");
    expect(isFormPage({ body: page })).toBe(true);
    expect(isFormPage({ method: "GET", body: page })).toBe(true);
    expect(isFormPage({ method: "GET", body: csv })).toBe(false); // a saved CSV read as GET is the data
    expect(isFormPage({ method: "POST", body: page })).toBe(false);
    await expect(async () => parse(page, "text/html; charset=utf-8")).rejects.toThrow(
      "MAS: the ExchangeRates.aspx form where the CSV was expected (a download the site did not run)",
    );
    await expect(async () => parse("<html><body>Server Error</body></html>")).rejects.toThrow(
      /^MAS: an HTML page where the exchange rates CSV was expected/,
    );
  });

  it("resolves the currency names by ICU's names and the kit's rules, its aliases only where neither reaches", () => {
    for (const name of Object.keys(MAS_ALIASES)) {
      expect(currencyFromName(name)).toBeUndefined();
      expect(() => resolveCurrencyName("MAS", name)).toThrow(/^MAS: /);
    }
    expect(resolveCurrencyName("MAS", "Saudi Arabia Riyal")).toEqual({
      currency: "SAR",
      derivation: 'name "Saudi Arabia Riyal" resolved by territory SA',
    });
    expect(currencyFromName("New Taiwan Dollar")).toBe("TWD");
  });

  itRefusesWhole("MAS", parse, [
    ["a truncated body", "End of Period,,,S$ Per Unit of Euro,S$ Per Unit of US Dollar\n2026,Mar,02,1.4940"],
    ["another bank's CSV", 'Date,CHN,EUR\n"02 Feb 2016",0.0000,0.0803\n'],
    ["a header of no known column", "End of Period,,,Index of Martian Dollar\n2026,Mar,02,1.4940\n"],
    ["an unterminated quote", 'End of Period,,,S$ Per Unit of Euro\n2026,Mar,02,"1.4940\n'],
  ]);

  const csv = (header: string, ...rows: string[]) =>
    `MAS: Financial Database - Exchange Rates\n\nEnd of Period,,,S$ Per Unit of Euro,S$ Per 100 Units of Japanese Yen${header}\n${rows.join("\n")}\n\n"* Daily figures are values as of noon."\n`;
  const taken = [
    { effectiveDate: "2026-03-02", currency: "EUR", rate: "1.4940" },
    { effectiveDate: "2026-03-02", currency: "JPY", rate: "0.8107", unitMultiplier: 2 },
    { effectiveDate: "2026-03-03", currency: "EUR", rate: "1.4877" },
  ];
  it.each([
    [
      "a figure that is not a number",
      csv("", "2026,Mar,02,1.4940,0.8107", ",,03,1.4877,0.80x1"),
      { kind: "bad-rate", rate: "0.80x1", source: 'row 4 "S$ Per 100 Units of Japanese Yen"' },
    ],
    [
      "a currency no name table knows",
      csv(",S$ Per Unit of Martian Dollar", "2026,Mar,02,1.4940,0.8107,-", ",,03,1.4877,,7.5"),
      { kind: "unknown-currency", currency: "Martian Dollar", rate: "7.5" },
    ],
    [
      "a column whose unit cannot be established",
      csv(",S$ Per 1000 Units of Korean Won", "2026,Mar,02,1.4940,0.8107,n.a.", ",,03,1.4877,,1.04"),
      { kind: "unknown-unit", rate: "1.04" },
    ],
  ] as const)("holds %s and takes the other figures", async (_what, body, held) => {
    await expectOneHeld(parse(body), { records: taken, held });
  });

  it("holds every figure of a day that does not exist", async () => {
    const answer = await answerOf(parse(csv("", "2026,Feb,27,1.4940,0.8107", ",,30,1.4877,0.8091")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-02-27", currency: "EUR", rate: "1.4940" },
      { effectiveDate: "2026-02-27", currency: "JPY", rate: "0.8107", unitMultiplier: 2 },
    ]);
    expect(answer.held.map((x) => [x.kind, x.effectiveDate, x.rate])).toEqual([
      ["bad-date", "2026 Feb 30", "1.4877"],
      ["bad-date", "2026 Feb 30", "0.8091"],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded CSV exactly (values read off the file by hand)", async () => {
    const r = recording("MAS/002.csv");
    const records = await recordsOf(mas.parse(r.body, { url: r.url, contentType: r.contentType }));
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x]));
    // 2026,Mar,02,1.4940,1.7043,1.2674,90.10,... ,0.007529 (IDR), 0.8107 (JPY), ..., 0.004843 (VND)
    expect(on("2026-03-02").EUR).toEqual({ effectiveDate: "2026-03-02", currency: "EUR", rate: "1.4940" });
    expect(on("2026-03-02").AUD).toEqual({
      effectiveDate: "2026-03-02",
      currency: "AUD",
      rate: "90.10",
      unitMultiplier: 2,
    });
    expect(on("2026-03-02").VND).toEqual({
      effectiveDate: "2026-03-02",
      currency: "VND",
      rate: "0.004843",
      unitMultiplier: 2,
    });
    // ,,18,1.4727,1.7055,1.2765,... (year and month carried down)
    expect(on("2026-03-18").USD?.rate).toBe("1.2765");
    expect(records).toHaveLength(13 * 21);
    const page = recording("MAS/001.html");
    expect(mas.navigationAnswer?.({ ...page, method: "GET", body: page.body })).toBe(true);
    // The form built from the recorded page is, byte for byte, the body that fetched the recorded CSV.
    expect(downloadForm(page.body.toString(), "2026-03-01", "2026-03-31")).toBe(r.requestBody);
  });

  it("posts the Download form with the page's view state, months and every checkbox, one call per year", async () => {
    const http = fakeHttp((req) =>
      req.method === "GET" ? { body: fixture("MAS/ExchangeRates.aspx.html") } : { body: "No Results Found" },
    );
    const docs = await mas.fetch({ kind: "range", from: "2025-11-15", to: "2026-03-18" }, { http, env: {} });
    // The form page is read only to build the POST: a navigation answer, never parsed.
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined, "navigation", undefined]);
    const form = (y1: string, y2: string, m1: string, m2: string) =>
      "__VIEWSTATE=F3Hh%2B%2Fv%3D&__VIEWSTATEGENERATOR=C335971F&__EVENTVALIDATION=g56c%2Fj7%3D" +
      `&ctl00%24ContentPlaceHolder1%24StartYearDropDownList=${y1}&ctl00%24ContentPlaceHolder1%24EndYearDropDownList=${y2}` +
      `&ctl00%24ContentPlaceHolder1%24StartMonthDropDownList=${m1}&ctl00%24ContentPlaceHolder1%24EndMonthDropDownList=${m2}` +
      "&ctl00%24ContentPlaceHolder1%24FrequencyDropDownList=D&ctl00%24ContentPlaceHolder1%24DownloadButton=Download" +
      "&ctl00%24ContentPlaceHolder1%24EndOfPeriodPerUnitCheckBoxList%240=on&ctl00%24ContentPlaceHolder1%24EndOfPeriodPer100UnitsCheckBoxList%240=on";
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${PAGE}`,
      `POST ${PAGE} ${form("2025", "2025", "11", "12")}`,
      `GET ${PAGE}`,
      `POST ${PAGE} ${form("2026", "2026", "1", "3")}`,
    ]);
    await mas.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.slice(4).map((r) => r.method)).toEqual(
      http.seen.length === 6 ? ["GET", "POST"] : ["GET", "POST", "GET", "POST"],
    );
  });
});

import { describe, expect, it } from "vitest";

import cbe, { cbeCurrency, historicalForm } from "../../adapters/CBE.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data";
const API = "https://www.cbe.org.eg/api/statistics/GetHistoricalData";
const parse = (body: Buffer | string) =>
  cbe.parse(Buffer.from(body), { url: API, contentType: "application/octet-stream" });

describe("CBE adapter", () => {
  it("takes the exact mean of Buy and Sell by their labels, the yen per 100 as unitMultiplier 2", async () => {
    expect(await recordsOf(parse(fixture("CBE/GetHistoricalData.xlsx")))).toEqual([
      { effectiveDate: "2026-04-09", currency: "USD", rate: "53.14005", derivation: "mean" }, // (53.0734 + 53.2067) / 2
      { effectiveDate: "2026-04-08", currency: "USD", rate: "53.3259", derivation: "mean" }, // (53.2558 + 53.396) / 2
      { effectiveDate: "2026-04-09", currency: "JPY", rate: "33.4498", unitMultiplier: 2, derivation: "mean" },
      { effectiveDate: "2026-04-09", currency: "GBP", rate: "71.36445", derivation: "mean" },
    ]);
  });

  it("resolves the 18 form names through ICU's English names and the bank's three own, with the yen per 100", () => {
    const names = [
      "US Dollar",
      "Euro",
      "Pound Sterling",
      "Canadian Dollar",
      "Danish Krone",
      "Norwegian Krone",
      "Swedish Krona",
      "Swiss Franc",
      "Japanese Yen 100",
      "Saudi Riyal",
      "Kuwaiti Dinar",
      "UAE Dirham",
      "Australian Dollar",
      "Bahraini Dinar",
      "Omani Riyal",
      "Qatari Riyal",
      "Jordanian Dinar",
      "Chinese Yuan",
    ];
    expect(cbeCurrency("Omani Riyal", "2026-03-02")).toEqual({
      currency: "OMR",
      derivation: 'name "Omani Riyal" resolved by spelling, 1 edit from "Omani Rial"',
      units: "1",
    });
    expect(cbeCurrency("Pound Sterling")).toEqual({ currency: "GBP", units: "1" }); // ISO 4217's name
    expect(names.map((n) => `${cbeCurrency(n).currency} ${cbeCurrency(n).units}`)).toEqual([
      "USD 1",
      "EUR 1",
      "GBP 1",
      "CAD 1",
      "DKK 1",
      "NOK 1",
      "SEK 1",
      "CHF 1",
      "JPY 100",
      "SAR 1",
      "KWD 1",
      "AED 1",
      "AUD 1",
      "BHD 1",
      "OMR 1",
      "QAR 1",
      "JOD 1",
      "CNY 1",
    ]);
  });

  it("treats the form page as navigation, never parsed", () => {
    expect(cbe.navigation?.test(PAGE)).toBe(true);
    expect(cbe.navigation?.test(API)).toBe(false);
  });

  itRefusesWhole("CBE", parse, [
    [
      "the WAF's Request Rejected page",
      "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected.</body></html>",
    ],
    ["a truncated workbook", fixture("CBE/GetHistoricalData.xlsx").subarray(0, 2000)],
    ["another bank's workbook", fixture("SBP/BFER_Daily.xlsx")],
  ]);

  it("holds a non-existent date, an unknown name and a non-numeric Buy, and reads every table of every sheet", async () => {
    const answer = await answerOf(parse(fixture("CBE/held-rows.xlsx")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-04-09", currency: "USD", rate: "53.14005", derivation: "mean" }, // (53.0734 + 53.2067) / 2
      { effectiveDate: "2026-04-09", currency: "GBP", rate: "71.36445", derivation: "mean" }, // (71.2723 + 71.4566) / 2
      { effectiveDate: "2026-04-08", currency: "AED", rate: "14.52", derivation: "mean" }, // second table: (14.5 + 14.54) / 2
      // second sheet: (138.1 + 138.5) / 2, the bank's "Omani Riyal" read as a misspelling
      {
        effectiveDate: "2026-04-08",
        currency: "OMR",
        rate: "138.3",
        derivation: 'mean; name "Omani Riyal" resolved by spelling, 1 edit from "Omani Rial"',
      },
    ]);
    expect(answer.held).toMatchObject([
      { kind: "bad-date", source: 'sheet "Official Exchange Rates" row 4', effectiveDate: "31/04/2026" },
      { kind: "unknown-currency", source: 'sheet "Official Exchange Rates" row 5', currency: "Martian Dollar" },
      { kind: "bad-rate", source: 'sheet "Official Exchange Rates" row 6', currency: "Euro" },
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBE/002.xlsx");
    const records = await recordsOf(cbe.parse(r.body, { url: r.url, contentType: r.contentType }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    // Row 3: 09/04/2026 | US Dollar | 53.0734 | 53.2067
    expect(find("2026-04-09", "USD")).toEqual({
      effectiveDate: "2026-04-09",
      currency: "USD",
      rate: "53.14005",
      derivation: "mean",
    });
    // Row 10: 09/04/2026 | Euro | 62.0322 | 62.1986
    expect(find("2026-04-09", "EUR")?.rate).toBe("62.1154");
    // Row 59: 09/04/2026 | Japanese Yen 100 | 33.4068 | 33.4928
    expect(find("2026-04-09", "JPY")).toEqual({
      effectiveDate: "2026-04-09",
      currency: "JPY",
      rate: "33.4498",
      unitMultiplier: 2,
      derivation: "mean",
    });
    expect(records).toHaveLength(126);
    const page = recording("CBE/001.html");
    expect(cbe.navigation?.test(page.url)).toBe(true);
    // The form built from the recorded page is, byte for byte, the body that fetched the recorded workbook.
    expect(historicalForm(page.body.toString(), "2026-04-01", "2026-04-09")).toBe(r.requestBody);
  });

  it("refuses to post when the page has no form (the WAF's page)", async () => {
    const http = fakeHttp(() => ({ body: "<html><body>Request Rejected</body></html>" }));
    await expect(cbe.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^CBE: no historicalDataForm/);
  });

  it("gets the page, then posts its form with the token, the range as DD/MM/YYYY and every currency", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: fixture("CBE/historical-data.html") } : { body: "" }));
    const docs = await cbe.fetch({ kind: "range", from: "2026-04-01", to: "2026-04-09" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    expect(http.seen.map((r) => `${r.method} ${r.url}${r.body ? ` ${r.body}` : ""}`)).toEqual([
      `GET ${PAGE}`,
      `POST ${API} __RequestVerificationToken=tok-EN_123&DataSourceId=19CFFDDBFF494350A5E9C6A4397FC7DF` +
        "&FallbackUrl=%2Fen%2Feconomic-research%2Fstatistics%2Fcbe-exchange-rates%2Fhistorical-data&LanguageName=en" +
        "&FromDateRaw=01%2F04%2F2026&ToDateRaw=09%2F04%2F2026&SelectedSelectOptions=US+Dollar&SelectedSelectOptions=Japanese+Yen+100&SubmitAction=2",
    ]);
    expect(http.seen[1]!.headers).toMatchObject({ Referer: PAGE, Origin: "https://www.cbe.org.eg" });
    expect(http.seen[1]!.headers?.["User-Agent"]).toMatch(/^Mozilla\/5\.0/);
  });
});

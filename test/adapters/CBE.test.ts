import { describe, expect, it } from "vitest";

import cbe, { CBE_NAMES, historicalForm } from "../../adapters/CBE.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data";
const API = "https://www.cbe.org.eg/api/statistics/GetHistoricalData";
const parse = (body: Buffer | string, url = API) =>
  cbe.parse(Buffer.from(body), { url, contentType: "application/octet-stream" });

describe("CBE adapter", () => {
  it("takes the exact mean of Buy and Sell by their labels, the yen per 100 as unitMultiplier 2", async () => {
    expect(await parse(fixture("CBE/GetHistoricalData.xlsx"))).toEqual([
      { effectiveDate: "2026-04-09", currency: "USD", rate: "53.14005", derivation: "mean" }, // (53.0734 + 53.2067) / 2
      { effectiveDate: "2026-04-08", currency: "USD", rate: "53.3259", derivation: "mean" }, // (53.2558 + 53.396) / 2
      { effectiveDate: "2026-04-09", currency: "JPY", rate: "33.4498", unitMultiplier: 2, derivation: "mean" },
      { effectiveDate: "2026-04-09", currency: "GBP", rate: "71.36445", derivation: "mean" },
    ]);
  });

  it("maps the 18 form names", () => {
    expect(Object.fromEntries(Object.entries(CBE_NAMES).map(([k, v]) => [k, v.currency]))).toEqual({
      "US Dollar": "USD",
      Euro: "EUR",
      "Pound Sterling": "GBP",
      "Canadian Dollar": "CAD",
      "Danish Krone": "DKK",
      "Norwegian Krone": "NOK",
      "Swedish Krona": "SEK",
      "Swiss Franc": "CHF",
      "Japanese Yen 100": "JPY",
      "Saudi Riyal": "SAR",
      "Kuwaiti Dinar": "KWD",
      "UAE Dirham": "AED",
      "Australian Dollar": "AUD",
      "Bahraini Dinar": "BHD",
      "Omani Riyal": "OMR",
      "Qatari Riyal": "QAR",
      "Jordanian Dinar": "JOD",
      "Chinese Yuan": "CNY",
    });
  });

  it("reads the historical-data page as no records, and refuses a page without the form", async () => {
    expect(await parse(fixture("CBE/historical-data.html"), PAGE)).toEqual([]);
    await expect(async () => parse("<html><body>Request Rejected</body></html>", PAGE)).rejects.toThrow(
      /^CBE: no historicalDataForm/,
    );
  });

  it.each([
    ["an empty body", ""],
    [
      "the WAF's Request Rejected page",
      "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected.</body></html>",
    ],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "SBP"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("CBE/GetHistoricalData.xlsx").subarray(0, 2000)
        : kind === "SBP"
          ? fixture("SBP/BFER_Daily.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBE: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBE/002.xlsx");
    const records = await cbe.parse(r.body, { url: r.url, contentType: r.contentType });
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
    expect(await cbe.parse(page.body, { url: PAGE })).toEqual([]);
    // The form built from the recorded page is, byte for byte, the body that fetched the recorded workbook.
    expect(historicalForm(page.body.toString(), "2026-04-01", "2026-04-09")).toBe(r.requestBody);
  });

  it("gets the page, then posts its form with the token, the range as DD/MM/YYYY and every currency", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: fixture("CBE/historical-data.html") } : { body: "" }));
    await cbe.fetch({ kind: "range", from: "2026-04-01", to: "2026-04-09" }, { http, env: {} });
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

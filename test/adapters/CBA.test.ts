import { describe, expect, it } from "vitest";

import cba, { latestRequest, rangeRequest } from "../../adapters/CBA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://api.cba.am/exchangerates.asmx";
const parse = (body: Buffer | string) => cba.parse(Buffer.from(body), { url: ENDPOINT });
const soapOf = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;

describe("CBA adapter", () => {
  it("reads ExchangeRatesLatest: amounts as unitMultiplier, metals per gram to the troy ounce (products by hand)", async () => {
    expect(await parse(fixture("CBA/latest.xml"))).toEqual([
      { effectiveDate: "2026-03-18", currency: "USD", rate: "377.39" },
      { effectiveDate: "2026-03-18", currency: "IRR", rate: "0.028677", unitMultiplier: 2 },
      { effectiveDate: "2026-03-18", currency: "JPY", rate: "23.735", unitMultiplier: 1 },
      { effectiveDate: "2026-03-18", currency: "CHF", rate: "480.2" },
      { effectiveDate: "2026-03-18", currency: "XAU", rate: "1893299.7362928", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-03-18", currency: "XAG", rate: "30272.391899904", derivation: "per-troy-ounce" },
    ]);
  });

  it("reads the diffgram of a date range, each row dated by its RateDate", async () => {
    expect(await parse(fixture("CBA/range.xml"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "376.88" },
      { effectiveDate: "2026-03-02", currency: "KZT", rate: "7.8180", unitMultiplier: 1 },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "377.10" },
    ]);
  });

  it("reads an empty range as no records", async () => {
    const empty = soapOf(
      '<ExchangeRatesByDateRangeByISOResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateRangeByISOResult><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" /></ExchangeRatesByDateRangeByISOResult></ExchangeRatesByDateRangeByISOResponse>',
    );
    expect(await parse(empty)).toEqual([]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Runtime Error</body></html>"],
    [
      "truncated XML",
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ExchangeRatesLatestResponse><ExchangeRatesLatestResult><CurrentDate>2026-03-18',
    ],
    [
      "another bank's body (CBR)",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode><Nominal>1</Nominal><Value>76,5</Value></Valute></ValCurs>',
    ],
    [
      "a SOAP fault",
      soapOf(
        "<soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring></soap:Fault>",
      ),
    ],
    [
      "a bad rate",
      soapOf(
        "<ExchangeRatesLatestResponse><ExchangeRatesLatestResult><CurrentDate>2026-03-18T00:00:00</CurrentDate><Rates><ExchangeRate><ISO>USD</ISO><Amount>1</Amount><Rate>377,39</Rate></ExchangeRate></Rates></ExchangeRatesLatestResult></ExchangeRatesLatestResponse>",
      ),
    ],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const latest = recording("CBA/001.xml");
    const day = await cba.parse(latest.body, { url: latest.url });
    expect(day).toHaveLength(30);
    expect(day.find((x) => x.currency === "UZS")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "UZS",
      rate: "0.31003",
      unitMultiplier: 1,
    });
    expect(day.find((x) => x.currency === "GBP")).toEqual({
      effectiveDate: "2026-03-18",
      currency: "GBP",
      rate: "504.04",
    });
    const range = recording("CBA/002.xml");
    const rows = await cba.parse(range.body, { url: range.url });
    expect(rows).toHaveLength(240);
    expect(rows[0]).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "376.88" });
    expect(rows[5]).toEqual({ effectiveDate: "2026-03-02", currency: "IRR", rate: "0.028685", unitMultiplier: 2 });
    // 63278 AMD per gram times 31.1034768 (Python decimal).
    expect(rows.find((x) => x.currency === "XAU" && x.effectiveDate === "2026-03-02")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "XAU",
      rate: "1968165.8049504",
      derivation: "per-troy-ounce",
    });
  });

  it("posts ExchangeRatesLatest, then the range by the listed ISO codes in 365-day chunks", async () => {
    const http = fakeHttp((req) => ({
      body: req.body?.includes("ExchangeRatesLatest ") ? fixture("CBA/latest.xml") : fixture("CBA/range.xml"),
    }));
    await cba.fetch({ kind: "range", from: "2025-01-01", to: "2026-03-11" }, { http, env: {} });
    expect(http.seen.map((r) => [r.method, r.url, r.headers?.SOAPAction])).toEqual([
      ["POST", ENDPOINT, '"http://www.cba.am/ExchangeRatesLatest"'],
      ["POST", ENDPOINT, '"http://www.cba.am/ExchangeRatesByDateRangeByISO"'],
      ["POST", ENDPOINT, '"http://www.cba.am/ExchangeRatesByDateRangeByISO"'],
    ]);
    expect(http.seen.map((r) => r.body)).toEqual([
      latestRequest(),
      rangeRequest(["USD", "IRR", "JPY", "CHF", "XAU", "XAG"], "2025-01-01", "2025-12-31"),
      rangeRequest(["USD", "IRR", "JPY", "CHF", "XAU", "XAG"], "2026-01-01", "2026-03-11"),
    ]);
    expect(http.seen[1]!.body).toContain(
      "<ISOCodes>USD,IRR,JPY,CHF,XAU,XAG</ISOCodes>\n  <DateFrom>2025-01-01</DateFrom>\n  <DateTo>2025-12-31</DateTo>",
    );
    const latest = fakeHttp(() => ({ body: fixture("CBA/latest.xml") }));
    await cba.fetch({ kind: "latest" }, { http: latest, env: {} });
    expect(latest.seen.map((r) => r.body)).toEqual([latestRequest()]);
    expect(latestRequest()).toContain('<ExchangeRatesLatest xmlns="http://www.cba.am/" />');
  });
});

import { describe, expect, it } from "vitest";

import cba, { latestRequest, rangeRequest } from "../../adapters/CBA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const ENDPOINT = "https://api.cba.am/exchangerates.asmx";
const parse = (body: Buffer | string) => cba.parse(Buffer.from(body), { url: ENDPOINT });
const soapOf = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${inner}</soap:Body></soap:Envelope>`;

describe("CBA adapter", () => {
  it("reads ExchangeRatesLatest: amounts as unitMultiplier, metals per gram to the troy ounce (products by hand)", async () => {
    expect(await recordsOf(parse(fixture("CBA/latest.xml")))).toEqual([
      { effectiveDate: "2026-03-18", currency: "USD", rate: "377.39" },
      { effectiveDate: "2026-03-18", currency: "IRR", rate: "0.028677", unitMultiplier: 2 },
      { effectiveDate: "2026-03-18", currency: "JPY", rate: "23.735", unitMultiplier: 1 },
      { effectiveDate: "2026-03-18", currency: "CHF", rate: "480.2" },
      { effectiveDate: "2026-03-18", currency: "XAU", rate: "1893299.7362928", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-03-18", currency: "XAG", rate: "30272.391899904", derivation: "per-troy-ounce" },
    ]);
  });

  it("reads the diffgram of a date range, each row dated by its RateDate", async () => {
    expect(await recordsOf(parse(fixture("CBA/range.xml")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "376.88" },
      { effectiveDate: "2026-03-02", currency: "KZT", rate: "7.8180", unitMultiplier: 1 },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "377.10" },
    ]);
  });

  it("reads an empty range as no records", async () => {
    const empty = soapOf(
      '<ExchangeRatesByDateRangeByISOResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateRangeByISOResult><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" /></ExchangeRatesByDateRangeByISOResult></ExchangeRatesByDateRangeByISOResponse>',
    );
    expect(await answerOf(parse(empty))).toEqual({
      records: [],
      held: [],
      noPublication: "an empty diffgram: no rates in the range asked",
    });
  });

  itRefusesWhole("CBA", parse, [
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
      "another operation's answer",
      soapOf("<ISOCodesResponse><ISOCodesResult><string>USD</string></ISOCodesResult></ISOCodesResponse>"),
    ],
  ]);

  const rate = (iso: string, amount: string, value: string) =>
    `<ExchangeRate><ISO>${iso}</ISO><Amount>${amount}</Amount><Rate>${value}</Rate></ExchangeRate>`;
  const latestOf = (...rates: string[]) =>
    soapOf(
      `<ExchangeRatesLatestResponse><ExchangeRatesLatestResult><CurrentDate>2026-03-18T00:00:00</CurrentDate><Rates>${rates.join("")}</Rates></ExchangeRatesLatestResult></ExchangeRatesLatestResponse>`,
    );
  it.each([
    [
      "a Rate written with a decimal comma",
      rate("EUR", "1", "410,12"),
      { kind: "bad-rate", currency: "EUR", rate: "410,12" },
    ],
    ["an Amount that is not a whole number", rate("EUR", "", "410.12"), { kind: "unknown-unit", currency: "EUR" }],
    ["a gold price for 10 grams", rate("XAU", "10", "632780"), { kind: "unknown-unit", currency: "XAU" }],
  ] as const)("holds %s and takes the other rates", async (_what, bad, held) => {
    await expectOneHeld(parse(latestOf(rate("USD", "1", "377.39"), bad, rate("JPY", "10", "23.735"))), {
      records: [
        { effectiveDate: "2026-03-18", currency: "USD", rate: "377.39" },
        { effectiveDate: "2026-03-18", currency: "JPY", rate: "23.735", unitMultiplier: 1 },
      ],
      held: { ...held, source: `<ExchangeRate> 2 (${held.currency})` },
    });
  });

  it("holds a diffgram row dated on a day that does not exist and takes the others", async () => {
    const row = (id: number, iso: string, value: string, date: string) =>
      `<ExchangeRatesByRange diffgr:id="ExchangeRatesByRange${id}" msdata:rowOrder="${id - 1}"><Rate>${value}</Rate><Amount>1</Amount><ISO>${iso}</ISO><RateDate>${date}T00:00:00+04:00</RateDate></ExchangeRatesByRange>`;
    const body = soapOf(
      `<ExchangeRatesByDateRangeByISOResponse xmlns="http://www.cba.am/"><ExchangeRatesByDateRangeByISOResult><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><DocumentElement xmlns="">${row(1, "USD", "376.88", "2026-03-02")}${row(2, "USD", "377.00", "2026-02-30")}${row(3, "USD", "377.10", "2026-03-03")}</DocumentElement></diffgr:diffgram></ExchangeRatesByDateRangeByISOResult></ExchangeRatesByDateRangeByISOResponse>`,
    );
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "376.88" },
        { effectiveDate: "2026-03-03", currency: "USD", rate: "377.10" },
      ],
      held: {
        kind: "bad-date",
        currency: "USD",
        effectiveDate: "2026-02-30T00:00:00+04:00",
        source: '<ExchangeRatesByRange diffgr:id="ExchangeRatesByRange2">',
      },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const latest = recording("CBA/001.xml");
    const day = await recordsOf(cba.parse(latest.body, { url: latest.url }));
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
    const rows = await recordsOf(cba.parse(range.body, { url: range.url }));
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

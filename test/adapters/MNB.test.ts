import { describe, expect, it } from "vitest";

import mnb, { MNB_CURRENCIES, mnbRequest } from "../../adapters/MNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "http://www.mnb.hu/arfolyamok.asmx";
const parse = (body: Buffer | string) => mnb.parse(Buffer.from(body), { url: URL });
const envelope = (result: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetExchangeRatesResponse xmlns="http://www.mnb.hu/webservices/"><GetExchangeRatesResult>${result}</GetExchangeRatesResult></GetExchangeRatesResponse></s:Body></s:Envelope>`;

describe("MNB adapter", () => {
  it("unescapes the inner document, reads decimal commas and keeps unit 100 as unitMultiplier 2", async () => {
    expect(await recordsOf(parse(fixture("MNB/GetExchangeRates.xml")))).toEqual([
      { effectiveDate: "2025-03-26", currency: "EUR", rate: "400.28" },
      { effectiveDate: "2025-03-26", currency: "JPY", rate: "247.00", unitMultiplier: 2 },
      { effectiveDate: "2025-03-26", currency: "USD", rate: "370.80" },
      { effectiveDate: "2025-03-25", currency: "IDR", rate: "2.23", unitMultiplier: 2 },
      { effectiveDate: "2025-03-25", currency: "USD", rate: "369.1" },
    ]);
  });

  it("reads an answer without days (e.g. an empty currency list) as no records", async () => {
    expect(await recordsOf(parse(envelope("&lt;MNBExchangeRates /&gt;")))).toEqual([]);
  });

  itRefusesWhole("MNB", parse, [
    [
      "a truncated answer",
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetExchangeRatesResponse><GetExchangeRatesResult>&lt;MNBExchangeRates&gt;&lt;Day date="2025-03-26"&gt;',
    ],
    [
      "a truncated inner document",
      envelope('&lt;MNBExchangeRates&gt;&lt;Day date="2025-03-26"&gt;&lt;Rate unit="1" curr="EUR"&gt;400,28'),
    ],
    [
      "another bank's body",
      '<?xml version="1.0" encoding="utf-8"?><DataSet><Body><OrigCurrency>RON</OrigCurrency></Body></DataSet>',
    ],
    [
      "a SOAP fault",
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>Invalid date</faultstring></s:Fault></s:Body></s:Envelope>',
    ],
  ]);

  const day = (date: string, ...rates: string[]) => `&lt;Day date="${date}"&gt;${rates.join("")}&lt;/Day&gt;`;
  const rate = (unit: string, curr: string, value: string) =>
    `&lt;Rate unit="${unit}" curr="${curr}"&gt;${value}&lt;/Rate&gt;`;
  const good = day("2025-03-26", rate("1", "EUR", "400,28"), rate("100", "JPY", "247,00"));
  it.each([
    ["a figure that is not a number", day("2025-03-25", rate("1", "USD", "400.280,1")), { kind: "bad-rate" }],
    ["a day that does not exist", day("2025-02-29", rate("1", "USD", "369,1")), { kind: "bad-date" }],
    ["a unit that is no whole number", day("2025-03-25", rate("", "USD", "369,1")), { kind: "unknown-unit" }],
    ["a code that is not ISO 4217", day("2025-03-25", rate("1", "XYZ", "369,1")), { kind: "unknown-currency" }],
  ] as const)("holds %s and takes the other rates", async (_what, bad, held) => {
    await expectOneHeld(parse(envelope(`&lt;MNBExchangeRates&gt;${good}${bad}&lt;/MNBExchangeRates&gt;`)), {
      records: [
        { effectiveDate: "2025-03-26", currency: "EUR", rate: "400.28" },
        { effectiveDate: "2025-03-26", currency: "JPY", rate: "247.00", unitMultiplier: 2 },
      ],
      held,
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("MNB/001.xml");
    const records = await recordsOf(mnb.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(3 * 32);
    expect(find("2025-03-26", "AUD")).toEqual({ effectiveDate: "2025-03-26", currency: "AUD", rate: "234.49" });
    expect(find("2025-03-26", "JPY")).toEqual({
      effectiveDate: "2025-03-26",
      currency: "JPY",
      rate: "247.00",
      unitMultiplier: 2,
    });
    expect(find("2025-03-25", "USD")).toEqual({ effectiveDate: "2025-03-25", currency: "USD", rate: "369.39" });
    expect(find("2025-03-24", "KRW")).toEqual({
      effectiveDate: "2025-03-24",
      currency: "KRW",
      rate: "25.06",
      unitMultiplier: 2,
    });
    expect(mnbRequest("2025-03-24", "2025-03-26")).toBe(r.requestBody);
  });

  it("POSTs the SOAP call with its SOAPAction over the range", async () => {
    const http = fakeHttp(() => ({ body: envelope("&lt;MNBExchangeRates /&gt;") }));
    await mnb.fetch({ kind: "range", from: "2025-03-24", to: "2025-03-26" }, { http, env: {} });
    await mnb.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => [r.method, r.url])).toEqual([
      ["POST", URL],
      ["POST", URL],
    ]);
    expect(http.seen[0]!.body).toContain(
      "<web:startDate>2025-03-24</web:startDate>\n<web:endDate>2025-03-26</web:endDate>",
    );
    expect(http.seen[0]!.body).toContain(`<web:currencyNames>${MNB_CURRENCIES.join(",")}</web:currencyNames>`);
    expect(http.seen[0]!.headers).toEqual({
      "content-type": "text/xml; charset=utf-8",
      SOAPAction: '"http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates"',
    });
    expect(http.seen[1]!.body).toMatch(/<web:startDate>\d{4}-\d{2}-\d{2}<\/web:startDate>/);
  });
});

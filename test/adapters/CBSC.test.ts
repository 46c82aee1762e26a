import { describe, expect, it } from "vitest";

import cbsc from "../../adapters/CBSC.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const LIVE = "https://www.cbs.sc/Controller/MarketinfoController.jsp?type=car";
const WORKBOOK = "https://www.cbs.sc/Downloads/StaExcel/Exchange%20Rates-Daily.xlsx";
const parse = (body: Buffer | string, url = LIVE) => cbsc.parse(Buffer.from(body), { url });

describe("CBSC adapter", () => {
  it("reads the live CAR answer (JSON wrapped in CRLF lines): the mid of each currency, as written", async () => {
    expect(await answerOf(parse(fixture("CBSC/car.json")))).toEqual({
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "14.5120" },
        { effectiveDate: "2026-03-02", currency: "GBP", rate: "19.6871" },
        { effectiveDate: "2026-03-02", currency: "EUR", rate: "16.7302" },
      ],
      held: [],
    });
  });

  it("reads every currency sheet of the history workbook, rounded to the 4 decimals the bank shows", async () => {
    expect(await answerOf(parse(fixture("CBSC/Exchange Rates-Daily.xlsx"), WORKBOOK))).toEqual({
      records: [
        { effectiveDate: "2000-01-04", currency: "USD", rate: "5.3815" },
        { effectiveDate: "2026-03-02", currency: "USD", rate: "14.6166" }, // 14.616577838181803
        { effectiveDate: "2026-03-03", currency: "USD", rate: "14.6100" },
        { effectiveDate: "2026-03-02", currency: "EUR", rate: "16.7303" }, // 16.730249999999998, half up
        { effectiveDate: "2020-04-08", currency: "GBP", rate: "17.8025" }, // 17.80245
      ], // GBP 2020-04-09 "No fixing": skipped
      held: [expect.objectContaining({ kind: "bad-date", effectiveDate: "31/02/2020", source: 'sheet "GBP" row 4' })],
    });
  });

  it.each([
    ["a date that does not exist", "30-Feb-2026", "14.5120", { kind: "bad-date", effectiveDate: "30-Feb-2026" }],
    ["a mid that is not a number", "02-Mar-2026", "14,512O", { kind: "bad-rate", rate: "14,512O" }],
  ] as const)("holds a currency with %s", async (_what, date, usd, held) => {
    await expectOneHeld(parse(`{"car":[{"currentDate":"${date}","usdmid":"${usd}"}]}`), {
      records: [],
      held: { ...held, currency: "USD", source: "car[0].usdmid" },
    });
  });

  it("holds a currency code that is not ISO 4217 and takes the others", async () => {
    await expectOneHeld(parse(`{"car":[{"currentDate":"02-Mar-2026","usdmid":"14.5120","xyzmid":"1.0"}]}`), {
      records: [{ effectiveDate: "2026-03-02", currency: "USD", rate: "14.5120" }],
      held: { kind: "unknown-currency", currency: "XYZ" },
    });
  });

  itRefusesWhole("CBSC", parse, [
    ["JSON without the car array", '{"rates":[]}'],
    ["truncated JSON", '\r\n{"car":[{"usdmid":"14.4077","currentDate":"09-Sep-2026"'],
    ["a workbook without a Date | SCR/... sheet", fixture("BCRD/TASA_DOLAR_REFERENCIA_MC.xlsx")],
    ["a truncated workbook", fixture("CBSC/Exchange Rates-Daily.xlsx").subarray(0, 2000)],
  ]);

  it("fetches the live answer for the latest; the workbook for a range, and the live answer when it reaches yesterday", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await cbsc.fetch({ kind: "latest" }, { http, env: {} });
    await cbsc.fetch({ kind: "range", from: "2000-01-04", to: "2020-12-31" }, { http, env: {} });
    await cbsc.fetch({ kind: "range", from: "2000-01-04", to: "2099-12-31" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([LIVE, WORKBOOK, WORKBOOK, LIVE]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("CBSC/001.json");
    expect(await recordsOf(cbsc.parse(r.body, { url: r.url }))).toEqual([
      { effectiveDate: "2026-09-09", currency: "USD", rate: "14.4077" },
      { effectiveDate: "2026-09-09", currency: "GBP", rate: "20.1872" },
      { effectiveDate: "2026-09-09", currency: "EUR", rate: "16.8958" },
    ]);
  });
});

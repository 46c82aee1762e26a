import { describe, expect, it } from "vitest";

import rbf, { RBF_LABELS, rbfCurrency } from "../../adapters/RBF.js";
import { currencyFromName } from "../../src/feed/currency-names.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/";
const XLSX_URL = "https://www.rbf.gov.fj/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => rbf.parse(Buffer.from(body), { url });

const US = 'name "US$" resolved by territory US';
const NZ = 'name "NZ$" resolved by territory NZ';
const YEN = 'name "YEN" resolved by unit, the one currency so called';

describe("RBF adapter", () => {
  it("reads the columns by their labels, keeps each typed figure exactly, holds a figure typed as text", async () => {
    await expectOneHeld(parse(fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")), {
      records: [
        { effectiveDate: "2026-05-18", currency: "XDR", rate: "0.328656" },
        { effectiveDate: "2026-05-18", currency: "GBP", rate: "0.3375" },
        { effectiveDate: "2026-05-18", currency: "JPY", rate: "71.35", derivation: YEN },
        { effectiveDate: "2026-05-18", currency: "CHF", rate: "0.3537" },
        { effectiveDate: "2026-05-18", currency: "AUD", rate: "0.6293" },
        { effectiveDate: "2026-05-18", currency: "NZD", rate: "0.7688", derivation: NZ },
        { effectiveDate: "2026-05-18", currency: "USD", rate: "0.4497", derivation: US },
        { effectiveDate: "2026-05-18", currency: "EUR", rate: "0.3869" },
        { effectiveDate: "2026-05-19", currency: "XDR", rate: "0.32971" },
        { effectiveDate: "2026-05-19", currency: "GBP", rate: "0.3354" },
        { effectiveDate: "2026-05-19", currency: "JPY", rate: "71.50", derivation: YEN },
        { effectiveDate: "2026-05-19", currency: "CHF", rate: "0.3540" },
        { effectiveDate: "2026-05-19", currency: "NZD", rate: "0.7666", derivation: NZ },
        { effectiveDate: "2026-05-19", currency: "USD", rate: "0.4507", derivation: US },
        { effectiveDate: "2026-05-19", currency: "EUR", rate: "0.3865" },
        { effectiveDate: "2026-05-20", currency: "XDR", rate: "0.328247" },
        { effectiveDate: "2026-05-20", currency: "GBP", rate: "0.3349" },
        { effectiveDate: "2026-05-20", currency: "JPY", rate: "71.38", derivation: YEN },
        { effectiveDate: "2026-05-20", currency: "CHF", rate: "0.3540" },
        { effectiveDate: "2026-05-20", currency: "AUD", rate: "0.6313" },
        { effectiveDate: "2026-05-20", currency: "NZD", rate: "0.7688", derivation: NZ },
        { effectiveDate: "2026-05-20", currency: "EUR", rate: "0.3866" },
      ],
      held: {
        kind: "bad-rate",
        source: 'sheet "Exchange Rates" H6',
        effectiveDate: "2026-05-20",
        currency: "US$",
        rate: "0,4487",
      },
    });
  });

  it("reads every label of the workbook, ICU's names first, then the bank's own labels", () => {
    const labels = ["     SDR", "    STG", "    YEN", "CHF", "A$", "NZ$", "US$", "EURO"];
    expect(labels.map((l) => rbfCurrency(l, "2026-05-20").currency)).toEqual([
      "XDR",
      "GBP",
      "JPY",
      "CHF",
      "AUD",
      "NZD",
      "USD",
      "EUR",
    ]);
    expect(rbfCurrency("US$", "2026-05-20")).toEqual({ currency: "USD", derivation: US });
    expect(rbfCurrency("     SDR")).toEqual({ currency: "XDR" });
    // Only what no rule reads is the bank's own.
    expect(Object.keys(RBF_LABELS)).toEqual(["STG", "A$"]);
    for (const label of Object.keys(RBF_LABELS)) expect(currencyFromName(label), label).toBeUndefined();
  });

  it("holds the cells of a column whose label no table knows", async () => {
    const ExcelJS = (await import("exceljs")).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Exchange Rates");
    ws.addRow(["DAILY EXCHANGE RATES"]);
    ws.addRow(["Period", "US$", "RMB"]);
    ws.addRow([new Date(Date.UTC(2026, 4, 18)), 0.4497, 3.0612]);
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    await expectOneHeld(parse(body), {
      records: [{ effectiveDate: "2026-05-18", currency: "USD", rate: "0.4497", derivation: US }],
      held: { kind: "unknown-currency", source: 'sheet "Exchange Rates" C3', currency: "RMB" },
    });
  });

  itRefusesWhole("RBF", parse, [
    ["a rejected request page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["a truncated workbook", fixture("RBF/8.8-Exchange-Rates-Daily.xlsx").subarray(0, 2500)],
    ["another bank's workbook", fixture("NRBT/average_daily_exchange_rates.xlsx")],
  ]);

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("RBF/002.xlsx");
    const records = await recordsOf(rbf.parse(r.body, { url: r.url }));
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x.rate]));
    // Row 6370: 18 May 26 | 0.328656 | 0.3375 | 71.35 | 0.3537 | 0.6293 | 0.7688 | 0.4497 | 0.3869
    expect(on("2026-05-18")).toEqual({
      XDR: "0.328656",
      GBP: "0.3375",
      JPY: "71.35",
      CHF: "0.3537",
      AUD: "0.6293",
      NZD: "0.7688",
      USD: "0.4497",
      EUR: "0.3869",
    });
    // Row 6372: E6372 is 0.354 shown as 0.3540.
    expect(on("2026-05-20")).toMatchObject({ XDR: "0.328247", CHF: "0.3540", USD: "0.4487" });
    // The statistics page is navigation: never parsed.
    expect(rbf.navigation!.test(recording("RBF/001.html").url)).toBe(true);
  });

  it("fetches the statistics page, then the workbook it links to", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: fixture("RBF/statistics-page.html") } : { body: "" }));
    const docs = await rbf.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => [d.url, d.role])).toEqual([
      [PAGE, "navigation"],
      [XLSX_URL, undefined],
    ]);
    expect(docs.map((d) => rbf.navigation!.test(d.url))).toEqual([true, false]);
    await rbf.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
    ]);
  });

  it("refuses a statistics page without the workbook's link", async () => {
    const http = fakeHttp(() => ({ body: "<html><body><a href='/x.pdf'>x</a></body></html>" }));
    await expect(rbf.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^RBF: no link to/);
  });
});

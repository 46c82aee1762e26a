import { describe, expect, it } from "vitest";

import cbs, { CBS_LABELS } from "../../adapters/CBS.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://cbs.gov.ws/daily-exchange-rates";
const XLSX_URL = "https://cbs.gov.ws/media/Historical-Daily-Rates-June032026.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => cbs.parse(Buffer.from(body), { url });

describe("CBS adapter", () => {
  it("reads month sections by their labels in both label orders, skips n/a, average rows and a date outside its month", async () => {
    expect(await parse(fixture("CBS/Historical-Daily-Rates.xlsx"))).toEqual([
      { effectiveDate: "2016-01-04", currency: "USD", rate: "0.38291" },
      { effectiveDate: "2016-01-04", currency: "EUR", rate: "0.35245" },
      { effectiveDate: "2016-01-04", currency: "JPY", rate: "46.06197" },
      { effectiveDate: "2016-01-04", currency: "CNY", rate: "2.5181" },
      { effectiveDate: "2016-01-05", currency: "USD", rate: "0.3829" },
      { effectiveDate: "2016-01-05", currency: "EUR", rate: "0.3553" },
      { effectiveDate: "2016-01-05", currency: "JPY", rate: "45.8000" },
      { effectiveDate: "2016-02-01", currency: "USD", rate: "0.38474" },
      { effectiveDate: "2016-02-01", currency: "EUR", rate: "0.35259" },
      { effectiveDate: "2016-02-01", currency: "JPY", rate: "46.58459" },
      { effectiveDate: "2016-02-01", currency: "CNY", rate: "2.52952" },
      { effectiveDate: "2011-01-04", currency: "USD", rate: "0.42358" },
      { effectiveDate: "2011-01-04", currency: "AUD", rate: "0.42093" },
      { effectiveDate: "2011-01-04", currency: "EUR", rate: "0.31785" },
    ]);
  });

  it("maps the label names to ISO codes", () => {
    expect(Object.entries(CBS_LABELS).sort()).toEqual(
      Object.entries({
        USD: "USD",
        US: "USD",
        NZD: "NZD",
        NZ: "NZD",
        AUD: "AUD",
        AUS: "AUD",
        EURO: "EUR",
        EUR: "EUR",
        FJD: "FJD",
        YEN: "JPY",
        JPY: "JPY",
        GBP: "GBP",
        CNY: "CNY",
        CNH: "CNH",
      }).sort(),
    );
  });

  it("reads the page as no records and refuses a page without a workbook link", async () => {
    expect(
      await parse(
        '<html><body><a href="/media/Historical-Daily-Rates-June032026.xlsx">Historical Daily Rates.</a></body></html>',
        PAGE,
      ),
    ).toEqual([]);
    await expect(async () => parse("<html><body>Down for maintenance</body></html>", PAGE)).rejects.toThrow(
      /^CBS: the daily exchange rates page has no link/,
    );
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "BOA"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("CBS/Historical-Daily-Rates.xlsx").subarray(0, 3000)
        : kind === "BOA"
          ? fixture("BOA/Cotation-DZD.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBS: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBS/002.xlsx");
    const records = await cbs.parse(r.body, { url: r.url });
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
    // skipped, so 12 January keeps row 8's figure and 12 February has none.
    expect(on("2026-01-12").USD).toBe("0.35933");
    expect(on("2026-02-12")).toEqual({});
    expect(await cbs.parse(recording("CBS/001.html").body, { url: PAGE })).toEqual([]);
  });

  it("fetches the page, then the dated workbook it links to (path escaped)", async () => {
    const html =
      '<html><body><a href="/media/Historical Daily-Rates-June032026.xlsx">Historical Daily Rates.</a></body></html>';
    const http = fakeHttp((req) => (req.url === PAGE ? { body: html } : { body: "" }));
    await cbs.fetch({ kind: "latest" }, { http, env: {} });
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

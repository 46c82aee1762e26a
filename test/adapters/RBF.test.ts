import { describe, expect, it } from "vitest";

import rbf, { RBF_COLUMNS } from "../../adapters/RBF.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/";
const XLSX_URL = "https://www.rbf.gov.fj/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => rbf.parse(Buffer.from(body), { url });

describe("RBF adapter", () => {
  it("reads the columns by their labels and keeps each typed figure exactly", async () => {
    expect(await parse(fixture("RBF/8.8-Exchange-Rates-Daily.xlsx"))).toEqual([
      { effectiveDate: "2026-05-18", currency: "XDR", rate: "0.328656" },
      { effectiveDate: "2026-05-18", currency: "GBP", rate: "0.3375" },
      { effectiveDate: "2026-05-18", currency: "JPY", rate: "71.35" },
      { effectiveDate: "2026-05-18", currency: "CHF", rate: "0.3537" },
      { effectiveDate: "2026-05-18", currency: "AUD", rate: "0.6293" },
      { effectiveDate: "2026-05-18", currency: "NZD", rate: "0.7688" },
      { effectiveDate: "2026-05-18", currency: "USD", rate: "0.4497" },
      { effectiveDate: "2026-05-18", currency: "EUR", rate: "0.3869" },
      { effectiveDate: "2026-05-19", currency: "XDR", rate: "0.32971" },
      { effectiveDate: "2026-05-19", currency: "GBP", rate: "0.3354" },
      { effectiveDate: "2026-05-19", currency: "JPY", rate: "71.50" },
      { effectiveDate: "2026-05-19", currency: "CHF", rate: "0.3540" },
      { effectiveDate: "2026-05-19", currency: "NZD", rate: "0.7666" },
      { effectiveDate: "2026-05-19", currency: "USD", rate: "0.4507" },
      { effectiveDate: "2026-05-19", currency: "EUR", rate: "0.3865" },
    ]);
  });

  it("maps every label of the workbook", () => {
    expect(RBF_COLUMNS).toEqual({
      SDR: "XDR",
      STG: "GBP",
      YEN: "JPY",
      CHF: "CHF",
      A$: "AUD",
      NZ$: "NZD",
      US$: "USD",
      EURO: "EUR",
    });
  });

  it("reads the statistics page as no records, and refuses a page without the link", async () => {
    expect(await parse(fixture("RBF/statistics-page.html"), PAGE)).toEqual([]);
    await expect(async () => parse("<html><body><a href='/x.pdf'>x</a></body></html>", PAGE)).rejects.toThrow(
      /^RBF: the statistics page has no link/,
    );
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "NRBT"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("RBF/8.8-Exchange-Rates-Daily.xlsx").subarray(0, 2500)
        : kind === "NRBT"
          ? fixture("NRBT/average_daily_exchange_rates.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^RBF: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("RBF/002.xlsx");
    const records = await rbf.parse(r.body, { url: r.url });
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
    expect(await rbf.parse(recording("RBF/001.html").body, { url: PAGE })).toEqual([]);
  });

  it("fetches the statistics page, then the workbook it links to", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: fixture("RBF/statistics-page.html") } : { body: "" }));
    const docs = await rbf.fetch({ kind: "latest" }, { http, env: {} });
    await rbf.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(docs).toHaveLength(2);
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
    ]);
  });
});

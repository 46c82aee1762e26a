import { describe, expect, it } from "vitest";

import boa from "../../adapters/BOA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bank-of-algeria.dz/donnees-historiques/";
const XLSX_URL = "https://www.bank-of-algeria.dz/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => boa.parse(Buffer.from(body), { url });
const PAGE_HTML = `<html><body><a href="/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx">Cotation DZD</a></body></html>`;

describe("BOA adapter", () => {
  it("reads one sheet per currency, the unit from the title, EURO as EUR", async () => {
    expect(await parse(fixture("BOA/Cotation-DZD.xlsx"))).toEqual([
      { effectiveDate: "2026-04-01", currency: "EUR", rate: "153.6719" },
      { effectiveDate: "2026-04-02", currency: "EUR", rate: "153.286" },
      { effectiveDate: "2026-04-01", currency: "JPY", rate: "83.5474", unitMultiplier: 2 },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" },
      { effectiveDate: "2026-04-02", currency: "USD", rate: "132.9223" },
    ]);
  });

  it("reads the landing page as no records and refuses one without the workbook link", async () => {
    expect(await parse(PAGE_HTML, PAGE)).toEqual([]);
    await expect(async () => parse("<html><body>Maintenance</body></html>", PAGE)).rejects.toThrow(
      /^BOA: the données historiques page has no link/,
    );
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Request Rejected</body></html>"],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "RBF"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("BOA/Cotation-DZD.xlsx").subarray(0, 3000)
        : kind === "RBF"
          ? fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("BOA/002.xlsx");
    const records = await boa.parse(r.body, { url: r.url });
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x]));
    const day = on("2026-04-01");
    expect(day.USD).toEqual({ effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" }); // USD - DZD!B6826
    expect(day.EUR).toEqual({ effectiveDate: "2026-04-01", currency: "EUR", rate: "153.6719" }); // EURO - DZD!B6826
    expect(day.JPY).toEqual({ effectiveDate: "2026-04-01", currency: "JPY", rate: "83.5474", unitMultiplier: 2 }); // "100 JPY / DZD"
    expect(day.CNY).toEqual({ effectiveDate: "2026-04-01", currency: "CNY", rate: "19.2963" }); // CNY - DZD!B2666
    expect(on("2026-04-08").CHF?.rate).toBe("167.824"); // CHF - DZD!B6831
    expect(records.some((x) => x.currency === "MRO")).toBe(false); // the MRO sheet holds no rows
    expect(await boa.parse(recording("BOA/001.html").body, { url: PAGE })).toEqual([]);
  });

  it("fetches the landing page, then the workbook it links to", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: PAGE_HTML } : { body: "" }));
    await boa.fetch({ kind: "latest" }, { http, env: {} });
    await boa.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
    ]);
  });
});

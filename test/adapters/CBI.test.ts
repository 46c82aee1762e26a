import { describe, expect, it } from "vitest";

import cbi, { CBI_CODES } from "../../adapters/CBI.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://cbi.iq/page/144";
const XLSX_URL = "https://cbi.iq/static/uploads/up/file-177909880482668.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => cbi.parse(Buffer.from(body), { url });
const PAGE_HTML =
  '<html><body><a href="https://cbi.iq/static/uploads/up/file-1.xlsx">اسعار صرف الدينار تجاه الدولار الأمريكي</a>' +
  '<a href="https://cbi.iq/static/uploads/up/file-177909880482668.xlsx">أسعار صرف الدينار العراقي اليومية تجاه العملات الرئيسية والذهب (بيع ، شراء)</a></body></html>';

describe("CBI adapter", () => {
  it("takes the exact mean of Buy ID and Sell ID in both layouts, gold as published, skipping holidays", async () => {
    expect(await parse(fixture("CBI/cbi-daily-rates.xlsx"))).toEqual([
      { effectiveDate: "2024-01-02", currency: "USD", rate: "1305", derivation: "mean" },
      { effectiveDate: "2024-01-02", currency: "CHF", rate: "1535.475", derivation: "mean" }, // (1529.592 + 1541.358) / 2
      { effectiveDate: "2024-01-02", currency: "AED", rate: "355.3435", derivation: "mean" }, // (353.982 + 356.705) / 2
      { effectiveDate: "2024-01-02", currency: "XAU", rate: "2676539.710" },
      { effectiveDate: "2026-01-04", currency: "USD", rate: "1305", derivation: "mean" }, // Sell ID 2 (1320) not used
      { effectiveDate: "2026-01-04", currency: "INR", rate: "14.445", derivation: "mean" }, // (14.39 + 14.5) / 2
      { effectiveDate: "2026-02-12", currency: "USD", rate: "1305", derivation: "mean" },
    ]);
  });

  it("maps the bank's own codes", () => {
    expect(CBI_CODES).toEqual({ "S.FR": "CHF", UAE: "AED", SDR: "XDR", GOLD: "XAU" });
  });

  it("reads page 144 as no records and refuses it without the gold workbook link", async () => {
    expect(await parse(PAGE_HTML, PAGE)).toEqual([]);
    await expect(async () =>
      parse('<html><body><a href="https://cbi.iq/static/uploads/up/file-1.xlsx">USD</a></body></html>', PAGE),
    ).rejects.toThrow(/^CBI: page 144 has no link/);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>503 Service Unavailable</body></html>"],
    ["a truncated workbook", "truncate"],
    ["another bank's workbook", "CBE"],
  ])("rejects %s with an error naming the bank", async (_what, kind) => {
    const body =
      kind === "truncate"
        ? fixture("CBI/cbi-daily-rates.xlsx").subarray(0, 3000)
        : kind === "CBE"
          ? fixture("CBE/GetHistoricalData.xlsx")
          : Buffer.from(kind);
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^CBI: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBI/002.xlsx");
    const records = await cbi.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency)?.rate;
    // Sheet 2024 row 8 (day 2): D8 1424.28, E8 1435.236; J8 1529.592, K8 1541.358 (S.FR); AD8 2676539.71 (Gold)
    expect(find("2024-01-02", "EUR")).toBe("1429.758");
    expect(find("2024-01-02", "CHF")).toBe("1535.475");
    expect(find("2024-01-02", "XAU")).toBe("2676539.710");
    expect(find("2024-01-01", "AED")).toBeUndefined(); // holiday row: only W7 (sell) is filled
    // Sheet 2026 row 10 (day 4, January under a bare "2026" banner): Z10 8.29, AA10 8.354 (JPY); AB10 8.418 is Sell ID 2
    expect(find("2026-01-04", "JPY")).toBe("8.322");
    expect(find("2026-01-04", "XAU")).toBe("5628857.000"); // BG10
    expect(new Set(records.map((x) => x.effectiveDate)).size).toBe(60);
    expect(await cbi.parse(recording("CBI/001.html").body, { url: PAGE })).toEqual([]);
  });

  it("fetches page 144, then the workbook whose link mentions gold", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: PAGE_HTML } : { body: "" }));
    await cbi.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${PAGE}`, `GET ${XLSX_URL}`]);
  });
});

import { describe, expect, it } from "vitest";

import cbi, { CBI_CODES } from "../../adapters/CBI.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://cbi.iq/page/144";
const XLSX_URL = "https://cbi.iq/static/uploads/up/file-177909880482668.xlsx";
const parse = (body: Buffer | string) => cbi.parse(Buffer.from(body), { url: XLSX_URL });
const PAGE_HTML =
  '<html><body><a href="https://cbi.iq/static/uploads/up/file-1.xlsx">اسعار صرف الدينار تجاه الدولار الأمريكي</a>' +
  '<a href="https://cbi.iq/static/uploads/up/file-177909880482668.xlsx">أسعار صرف الدينار العراقي اليومية تجاه العملات الرئيسية والذهب (بيع ، شراء)</a></body></html>';

describe("CBI adapter", () => {
  it("takes the exact mean of Buy ID and Sell ID in both layouts, gold as published, skipping holidays", async () => {
    expect(await recordsOf(parse(fixture("CBI/cbi-daily-rates.xlsx")))).toEqual([
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

  it("treats page 144 as navigation, never parsed", () => {
    expect(cbi.navigation?.test(PAGE)).toBe(true);
    expect(cbi.navigation?.test(XLSX_URL)).toBe(false);
  });

  itRefusesWhole("CBI", parse, [
    ["a truncated workbook", fixture("CBI/cbi-daily-rates.xlsx").subarray(0, 3000)],
    ["another bank's workbook", fixture("CBE/GetHistoricalData.xlsx")],
  ]);

  it("reads every table of a sheet and holds gold typed as text, 31 April and a day under an unreadable banner", async () => {
    const answer = await answerOf(parse(fixture("CBI/held-rows.xlsx")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "1305", derivation: "mean" },
      { effectiveDate: "2026-03-02", currency: "XAU", rate: "5628857.000" },
      { effectiveDate: "2026-03-03", currency: "USD", rate: "1305", derivation: "mean" },
      // The second table (label row 15): EUR, (1500 + 1510) / 2, Sell ID 2 not used.
      { effectiveDate: "2026-05-04", currency: "EUR", rate: "1505", derivation: "mean" },
    ]);
    expect(answer.held).toMatchObject([
      { kind: "bad-rate", source: 'sheet "2026" row 8', currency: "XAU", rate: "7,019.077.000" },
      { kind: "bad-date", source: 'sheet "2026" row 11', effectiveDate: "2026-4-31" },
      { kind: "bad-date", source: 'sheet "2026" row 19' },
    ]);
    expect(answer.held[2]!.reason).toBe(
      'day 5: the month banner "Mai 2026" (sheet "2026" row 18) could be March or May',
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("CBI/002.xlsx");
    const answer = await answerOf(cbi.parse(r.body, { url: r.url }));
    const records = answer.records;
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
    // Gold typed as text on 14, 19 and 28 January 2026 (sheet "2026" BG20, BG25, BG34): held.
    expect(answer.held.map((h) => [h.source, h.currency, h.rate])).toEqual([
      ['sheet "2026" row 20', "XAU", "6,006 ,624.000"],
      ['sheet "2026" row 25', "XAU", "6,070 ,604.150"],
      ['sheet "2026" row 34', "XAU", "7,019.077.000"],
    ]);
    expect(cbi.navigation?.test(recording("CBI/001.html").url)).toBe(true);
  });

  it("refuses page 144 without the gold workbook link", async () => {
    const http = fakeHttp(() => ({
      body: '<html><body><a href="https://cbi.iq/static/uploads/up/file-1.xlsx">USD</a></body></html>',
    }));
    await expect(cbi.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(/^CBI: no link to/);
  });

  it("fetches page 144, then the workbook whose link mentions gold", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: PAGE_HTML } : { body: "" }));
    const docs = await cbi.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${PAGE}`, `GET ${XLSX_URL}`]);
  });
});

import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import boal, { archiveFiles } from "../../adapters/BOAL.js";
import { HttpError } from "../../src/errors.js";
import { isNavigation } from "../../src/ingest/ingest.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bankofalbania.org/Markets/Official_exchange_rate/";
const ARCHIVE = `${PAGE}Exchage_rate_archive/`;
const FILE_2025 = "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_dhjetor_2025_32487.xlsx";
const parsePage = (body: Buffer | string) => boal.parse(Buffer.from(body), { url: PAGE });
const parseFile = (body: Buffer | string) => boal.parse(Buffer.from(body), { url: FILE_2025 });

describe("BOAL adapter", () => {
  it("reads today's page: the fixing at its date, the twice-monthly table at its own, per 100 where the rule says, not the bid/ask table", async () => {
    expect(await answerOf(parsePage(fixture("BOAL/page.html")))).toEqual({
      records: [
        { effectiveDate: "2026-03-03", currency: "USD", rate: "83.10" },
        { effectiveDate: "2026-03-03", currency: "EUR", rate: "96.05" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "55.72", unitMultiplier: 2 },
        { effectiveDate: "2026-03-03", currency: "XDR", rate: "113.20" },
        { effectiveDate: "2026-03-03", currency: "XAU", rate: "365120.40" },
        { effectiveDate: "2026-03-03", currency: "CNH", rate: "11.52" }, // a market code, published
        { effectiveDate: "2026-02-27", currency: "HUF", rate: "25.90", unitMultiplier: 2 },
        { effectiveDate: "2026-02-27", currency: "CZK", rate: "3.95" },
      ],
      held: [],
    });
  });

  it("reads every month sheet of a year's workbook: the lek column of each day, the averages and old working areas left out", async () => {
    expect(await answerOf(parseFile(fixture("BOAL/Kursi_i_kembimit_2025.xlsx")))).toEqual({
      records: [
        { effectiveDate: "2025-01-02", currency: "JPY", rate: "60.15", unitMultiplier: 2 },
        { effectiveDate: "2025-01-03", currency: "JPY", rate: "59.80", unitMultiplier: 2 },
        { effectiveDate: "2025-01-02", currency: "EUR", rate: "97.40" },
        { effectiveDate: "2025-01-03", currency: "EUR", rate: "97.38" },
        { effectiveDate: "2025-01-02", currency: "XAU", rate: "247512.10" },
        { effectiveDate: "2025-01-03", currency: "XAU", rate: "248761.93" },
        { effectiveDate: "2025-01-02", currency: "USD", rate: "93.74" },
        { effectiveDate: "2025-01-03", currency: "USD", rate: "94.02" },
        { effectiveDate: "2025-01-02", currency: "XDR", rate: "122.36" },
        { effectiveDate: "2025-01-03", currency: "XDR", rate: "122.76" },
        { effectiveDate: "2025-01-02", currency: "CNH", rate: "12.75" },
        { effectiveDate: "2025-01-03", currency: "CNH", rate: "12.77" },
        { effectiveDate: "2025-02-03", currency: "USD", rate: "95.10" },
      ],
      held: [],
    });
  });

  it("holds a figure typed as text, a name without a code and the figures under a day that does not exist", async () => {
    const answer = await answerOf(parseFile(fixture("BOAL/held-rows.xlsx")));
    expect(answer.records).toEqual([{ effectiveDate: "2025-03-03", currency: "USD", rate: "94.50" }]);
    expect(answer.held.map((h) => [h.kind, h.source])).toEqual([
      ["bad-date", 'sheet "Mars" row 18 31.02.2025'],
      ["bad-rate", 'sheet "Mars" row 19 03.03.2025'],
      ["bad-date", 'sheet "Mars" row 19 31.02.2025'],
      ["unknown-currency", 'sheet "Mars" row 20 03.03.2025'],
      ["bad-date", 'sheet "Mars" row 20 31.02.2025'],
    ]);
    expect(answer.held[1]).toMatchObject({ currency: "Lira turke (TRY)", rate: "2,6O" });
  });

  itRefusesWhole("BOAL", parsePage, [
    [
      "a page without the Last update tables",
      "<html><body><h1>Official exchange rate</h1><table></table></body></html>",
    ],
    ["a Cloudflare challenge", "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body></body></html>"],
  ]);

  it.each([
    ["a sheet without day headers", [["Kurset e Këmbimit"], [1, "Dollari Amerikan (USD)", 1, 94.5]], /no day headers/],
    [
      "day headers over other columns",
      [[undefined, undefined, "DT. 03.03.2025"], [], [undefined, undefined, "Kursi", "Kursi"]],
      /no "Lek për njësi"/,
    ],
    [
      "a day whose second column is not the lek per unit",
      [
        [undefined, undefined, "DT. 03.03.2025", undefined, undefined, "DT. 04.03.2025"],
        [undefined, undefined, "Kursi", "Lek për njësi ", undefined, "Kursi", "Kundrejt"],
      ],
      /the column of 04\.03\.2025 is not "Lek për njësi"/,
    ],
  ] as const)("refuses a workbook with %s as a whole", async (_what, rows, message) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Mars");
    for (const row of rows) ws.addRow([...row]);
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    await expect(async () => parseFile(body)).rejects.toThrow(message);
  });

  it("reads the archive page's yearly files and treats the page as navigation", () => {
    expect(archiveFiles(fixture("BOAL/archive.html").toString())).toEqual(
      new Map([
        [2025, FILE_2025],
        [2024, "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_2024_29746.xlsx"],
        [2012, "https://www.bankofalbania.org/rc/doc/kursi_2012_10998.xls"],
      ]),
    );
    const page = { method: "GET" as const, contentType: "text/html", body: fixture("BOAL/archive.html") };
    expect(isNavigation(boal, { ...page, url: ARCHIVE })).toBe(true);
    expect(isNavigation(boal, { ...page, url: PAGE })).toBe(false);
  });

  it("fetches today's page for the latest, and for a range the archive page then each past year's file", async () => {
    const http = fakeHttp((req) => {
      if (req.url === ARCHIVE) return { body: fixture("BOAL/archive.html") };
      if (req.url.endsWith(".xlsx")) return { body: fixture("BOAL/Kursi_i_kembimit_2025.xlsx") };
      return { body: fixture("BOAL/page.html") };
    });
    await boal.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([PAGE]);
    http.seen.length = 0;
    const docs = await boal.fetch({ kind: "range", from: "2024-11-01", to: "2025-02-28" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      ARCHIVE,
      "https://www.bankofalbania.org/rc/doc/Kursi_i_kembimit_2024_29746.xlsx",
      FILE_2025,
    ]);
    expect(docs[0]!.role).toBe("navigation");
  });

  it("fetches today's page for the current year, which has no file yet, and refuses a missing older year", async () => {
    const year = Number(new Date().toISOString().slice(0, 4));
    const http = fakeHttp((req) => {
      if (req.url === ARCHIVE) return { body: fixture("BOAL/archive.html") };
      if (req.url === PAGE) return { body: fixture("BOAL/page.html") };
      throw new HttpError(`${req.url}: HTTP 404`, 404);
    });
    await boal.fetch({ kind: "range", from: `${year}-01-01`, to: `${year}-03-31` }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([PAGE]);
    await expect(
      boal.fetch({ kind: "range", from: "2013-01-01", to: "2013-12-31" }, { http, env: {} }),
    ).rejects.toThrow(/^BOAL: the archive page has no file for 2013/);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded page and 2024 workbook (values read off the files by hand)",
    async () => {
      const page = recording("BOAL/001.html");
      const today = await answerOf(boal.parse(page.body, { url: page.url }));
      expect(today.held).toEqual([]);
      expect(today.records).toHaveLength(16 + 4);
      const find = (records: typeof today.records, date: string, currency: string) =>
        records.find((r) => r.effectiveDate === date && r.currency === currency);
      expect(find(today.records, "2026-05-22", "USD")).toEqual({
        effectiveDate: "2026-05-22",
        currency: "USD",
        rate: "82.24",
      });
      expect(find(today.records, "2026-05-22", "XAU")?.rate).toBe("371473.97");
      expect(find(today.records, "2026-05-15", "RUB")).toEqual({
        effectiveDate: "2026-05-15",
        currency: "RUB",
        rate: "111.96",
        unitMultiplier: 2,
      });
      const file = recording("BOAL/002.xlsx");
      const year = await answerOf(boal.parse(file.body, { url: file.url }));
      expect(year.held).toEqual([]);
      // 246 fixing days of 2024, 16 lines each.
      expect(year.records).toHaveLength(246 * 16);
      expect(find(year.records, "2024-01-03", "JPY")).toEqual({
        effectiveDate: "2024-01-03",
        currency: "JPY",
        rate: "66.15",
        unitMultiplier: 2,
      });
      expect(find(year.records, "2024-01-03", "XAU")?.rate).toBe("193869.19");
      expect(find(year.records, "2024-01-05", "CHF")?.rate).toBe("112.53");
      expect(find(year.records, "2024-01-04", "GBP")?.rate).toBe("120.59");
      expect(find(year.records, "2024-12-31", "USD")?.effectiveDate).toBe("2024-12-31");
    },
  );
});

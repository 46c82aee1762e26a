// National Reserve Bank of Tonga: the whole archive of the authorized persons' (formerly commercial
// banks') average daily exchange rates as one XLSX (average_daily_exchange_rates.xlsx, no parameters),
// one sheet per two years ("2025 to 2026"), every sheet read. Each sheet has three blocks of columns
// under merged banners ending in BUY, MID and SELL, separated by spacer columns (which may hold stray
// figures), with the ISO codes in the row below; the official figure is the MID block. Foreign units
// per 1 TOP (Indirect). Published on working days, between 04:00 and 06:30 UTC (from 17:00 in
// Nuku'alofa). Public holidays are written as text across the rate cells and are skipped; any other
// text in a rate cell is held. Numbers are the typed figures (4 decimals, `0.0000` format), read
// exactly through the kit's spreadsheet reader. A sheet whose banners are not all there means the
// layout changed and refuses the workbook.

import { AnswerRows, FeedError, defineAdapter, requireCurrencyCode, rowProblem } from "../src/feed/kit.js";
import { cellDate, cellDecimal, cellText, readXlsx, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "NRBT";
const WORKBOOK = "https://www.reservebank.to/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx";

interface Layout {
  /** Row of the currency codes. */
  codeRow: number;
  /** Column number to the code written above it, MID block only. */
  mid: Map<number, string>;
}

/** Finds the banner row and the MID block by their labels; undefined for a sheet without banners. */
function layoutOf(ws: Worksheet): Layout | undefined {
  for (let r = 1; r <= Math.min(ws.rowCount, 20); r++) {
    const row = ws.getRow(r);
    const banner = new Map<number, string>();
    for (let c = 1; c <= ws.columnCount; c++) {
      const last = cellText(row.getCell(c)).split(/\s+/).pop()?.toUpperCase() ?? "";
      if (last === "BUY" || last === "MID" || last === "SELL") banner.set(c, last);
    }
    if (![...banner.values()].includes("MID")) continue;
    if (![...banner.values()].includes("BUY") || ![...banner.values()].includes("SELL")) {
      throw new FeedError(ID, `sheet "${ws.name}": the BUY, MID and SELL banners are not all there`);
    }
    // The codes are on the first row below the banners that has any.
    for (let cr = r + 1; cr <= r + 4; cr++) {
      const codes = ws.getRow(cr);
      const mid = new Map<number, string>();
      for (const [c, block] of banner) {
        const code = cellText(codes.getCell(c));
        if (block === "MID" && code !== "") mid.set(c, code);
      }
      if (mid.size > 0) return { codeRow: cr, mid };
    }
    throw new FeedError(ID, `sheet "${ws.name}": no currency codes under the MID banner`);
  }
  return undefined;
}

const nrbt = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "National Reserve Bank of Tonga", abbreviatedName: "NRBT" }],
    // Published within 04:00-06:30 UTC, i.e. from 17:00 in Nuku'alofa (UTC+13).
    dailyUpdateTime: "17:00:00",
    bankCurrency: "TOP",
    countryCode: ["TO"],
    region: ["Oceania"],
    timeZone: "Pacific/Tongatapu",
    website: "https://www.reservebank.to",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // The workbook keeps five two-year sheets; the recorded one starts in 2017.
    coverageStart: "2017-01-02",
    maxRangeDays: 36500,
    sourceUrl: WORKBOOK,
  },

  async fetch(_range, { http }) {
    return [await http.get(WORKBOOK, { accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" })];
  },

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let blocks = 0;
    for (const ws of wb.worksheets) {
      const layout = layoutOf(ws);
      if (!layout) continue;
      blocks++;
      for (const row of ws.rows()) {
        if (row.number <= layout.codeRow) continue;
        const date = cellDate(row.getCell(1));
        if (!date) continue; // titles, blank spacer rows, the contact block
        for (const [c, code] of layout.mid) {
          if (code === "TOP") continue;
          const cell = row.getCell(c);
          const text = cellText(cell);
          rows.read(
            `sheet "${ws.name}" ${cell.address}`,
            () => {
              const rate = cellDecimal(cell);
              if (rate === undefined) {
                if (text === "" || /holiday|closed/i.test(text)) return undefined;
                rowProblem(ID, "bad-rate", `"${text}" is neither a rate nor a holiday note`);
              }
              if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
              return { effectiveDate: date, currency: requireCurrencyCode(ID, code), rate };
            },
            { effectiveDate: date, currency: code, rate: text },
          );
        }
      }
    }
    if (blocks === 0)
      throw new FeedError(ID, "no sheet with a MID block: not the NRBT average daily exchange rates workbook");
    return rows.result();
  },
});

export default nrbt;

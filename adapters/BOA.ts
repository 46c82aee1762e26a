// Bank of Algeria: the daily rates of the dinar since 2000 as one XLSX linked from the "données
// historiques" page (under /stoodroa/YYYY/MM/, refreshed about monthly). One sheet per currency:
// the title cell names the pair and its unit (`USD / DZD`, `100 JPY / DZD`), the label row repeats
// the pair, then one row per day (a date cell and the rate). DZD per unit (Direct); the per-100
// yen is kept as unitMultiplier 2. Figures are the typed ones (4 decimals), read exactly.
// Note for operations: the server sends only its leaf certificate, so the DigiCert intermediate has
// to be in the trust store of the shared HTTP client.
import type { Worksheet } from "exceljs";

import { FeedError, defineAdapter, perUnits, type RateRecord } from "../src/feed/kit.js";
import { checkLandingPage, fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
import { cellDate, cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

const ID = "BOA";
const PAGE = "https://www.bank-of-algeria.dz/donnees-historiques/";
const WORKBOOK_LINK = /\/stoodroa\/\d{4}\/\d{2}\/Cotation-DZD-[^/]*\.xlsx$/i;
const SOURCE: LinkedFile = {
  bankId: ID,
  page: PAGE,
  link: WORKBOOK_LINK,
  pageName: "the données historiques page",
  fileName: "the Cotation-DZD workbook",
  accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** Names the bank writes instead of a code. */
const ALIASES: Readonly<Record<string, string>> = { EURO: "EUR" };

/** `100 JPY / DZD` → { units: "100", code: "JPY" }. */
function pairOf(label: string): { units: string; code: string } | undefined {
  const m = /^(?:(\d+)\s+)?([A-Z]{3,4})\s*\/\s*DZD$/.exec(label.trim());
  if (!m) return undefined;
  const code = ALIASES[m[2]!] ?? m[2]!;
  return /^[A-Z]{3}$/.test(code) ? { units: m[1] ?? "1", code } : undefined;
}

function parseSheet(ws: Worksheet, records: RateRecord[]): boolean {
  // The title (A2) and the label (B4 or wherever it is) are found by their "/ DZD" shape.
  let title: { units: string; code: string } | undefined;
  let label: { units: string; code: string } | undefined;
  let labelRow = 0;
  let rateCol = 0;
  for (let r = 1; r <= Math.min(ws.rowCount, 10) && !labelRow; r++) {
    const row = ws.getRow(r);
    for (let c = 1; c <= Math.min(ws.columnCount, 5); c++) {
      const cell = row.getCell(c);
      if (cell.isMerged && cell.master !== cell) continue;
      const pair = /\/\s*DZD\s*$/.test(cellText(cell)) ? pairOf(cellText(cell)) : undefined;
      if (/\/\s*DZD\s*$/.test(cellText(cell)) && !pair)
        throw new FeedError(ID, `sheet "${ws.name}": unreadable pair "${cellText(cell)}"`);
      if (!pair) continue;
      if (!title) title = pair;
      else {
        label = pair;
        labelRow = r;
        rateCol = c;
        break;
      }
    }
  }
  if (!title || !label) return false;
  if (title.code !== label.code)
    throw new FeedError(ID, `sheet "${ws.name}": title ${title.code} and label ${label.code} disagree`);
  const units = title.units !== "1" ? title.units : label.units;
  for (let r = labelRow + 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const date = cellDate(row.getCell(rateCol - 1));
    const cell = row.getCell(rateCol);
    if (!date) {
      if (cellText(row.getCell(rateCol - 1)) === "" && cellText(cell) === "") continue;
      throw new FeedError(ID, `sheet "${ws.name}" row ${r}: "${cellText(row.getCell(rateCol - 1))}" is not a date`);
    }
    const rate = cellDecimal(cell);
    if (rate === undefined) {
      if (cellText(cell) === "") continue;
      throw new FeedError(ID, `sheet "${ws.name}" ${date}: "${cellText(cell)}" is not a rate`);
    }
    if (!/[1-9]/.test(rate)) continue;
    records.push({ effectiveDate: date, currency: label.code, ...perUnits(rate, units) });
  }
  return true;
}

const boa = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Algeria", abbreviatedName: "BA" },
      { languageCode: "fr", name: "Banque d'Algérie", abbreviatedName: "BA" },
      { languageCode: "ar", name: "بنك الجزائر", abbreviatedName: "بنك الجزائر" },
    ],
    // BANKS.md: checked within 12:00-14:30 UTC, i.e. from 13:00 in Algiers (UTC+1).
    dailyUpdateTime: "13:00:00",
    bankCurrency: "DZD",
    countryCode: ["DZ"],
    region: ["Africa"],
    timeZone: "Africa/Algiers",
    website: "https://www.bank-of-algeria.dz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-02",
    maxRangeDays: 36500,
    sourceUrl: PAGE,
  },

  fetch: (_range, { http }) => fetchLinkedFile(http, SOURCE),

  async parse(body, { url }) {
    if (!/\.xlsx(\?|$)/i.test(url)) return checkLandingPage(SOURCE, body, url);
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let sheets = 0;
    for (const ws of wb.worksheets) if (parseSheet(ws, records)) sheets++;
    if (sheets === 0) throw new FeedError(ID, 'no sheet with an "XXX / DZD" pair: not the Bank of Algeria workbook');
    return records;
  },
});

export default boa;

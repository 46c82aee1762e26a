// Central Bank of Samoa: the whole archive of its daily rates as one XLSX, linked from the daily
// exchange rates page under a file name that changes daily (`/media/Historical-Daily-Rates-June032026.xlsx`).
// One sheet per year (sheet names are not trusted: "2010" holds 2011 and the reverse), month
// sections each with a banner row (JANUARY) and a label row (DATE | TALA/USD | ... or, in 2009-2012,
// US/TALA | ...). Whatever the label's order, the figures are foreign units per 1 WST (Indirect), as the
// page says ("Units of Foreign Currency per ST1.00") and the values show. Average rows under the
// months have no date and are skipped; `n/a` cells too. Figures are the typed ones (5 significant
// decimals although the sheet shows 4; the page publishes the same 5), read exactly. A row whose date
// is not in its month section's month is skipped (see parseSheet).
import type { Worksheet } from "exceljs";

import { FeedError, defineAdapter, type RateRecord } from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";
import { checkLandingPage, fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
import { cellDate, cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

const ID = "CBS";
const PAGE = "https://cbs.gov.ws/daily-exchange-rates";
const WORKBOOK_LINK = /^https:\/\/(www\.)?cbs\.gov\.ws\/.*\.xlsx$/i;
const SOURCE: LinkedFile = {
  bankId: ID,
  page: PAGE,
  link: WORKBOOK_LINK,
  pageName: "the daily exchange rates page",
  fileName: "the historical daily rates workbook",
  accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The foreign side of the bank's labels (`TALA/EURO`, `AUS/TALA`) to ISO 4217 codes. */
export const CBS_LABELS: Readonly<Record<string, string>> = {
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
};

function currencyOf(label: string, where: string): string {
  const sides = label
    .toUpperCase()
    .split("/")
    .map((s) => s.trim());
  if (sides.length !== 2 || !sides.includes("TALA"))
    throw new FeedError(ID, `${where}: column label "${label}" is not a TALA pair`);
  const foreign = sides[0] === "TALA" ? sides[1]! : sides[0]!;
  const code = CBS_LABELS[foreign];
  if (!code) throw new FeedError(ID, `${where}: unknown currency "${foreign}" in "${label}"`);
  return code;
}

function parseSheet(ws: Worksheet, records: RateRecord[]): number {
  let dateCol = 0;
  let columns = new Map<number, string>();
  let sections = 0;
  let bannerMonth: number | undefined;
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const banner = monthNumber(cellText(row.getCell(2)));
    if (banner && /^[A-Z]+$/.test(cellText(row.getCell(2)))) {
      bannerMonth = banner;
      continue;
    }
    let labelCol = 0;
    for (let c = 1; c <= Math.min(ws.columnCount, 4); c++)
      if (cellText(row.getCell(c)).toUpperCase() === "DATE") labelCol = c;
    if (labelCol) {
      dateCol = labelCol;
      columns = new Map();
      for (let c = labelCol + 1; c <= ws.columnCount; c++) {
        const label = cellText(row.getCell(c));
        if (label !== "") columns.set(c, currencyOf(label, `sheet "${ws.name}" row ${r}`));
      }
      sections++;
      continue;
    }
    if (!dateCol) continue;
    const date = cellDate(row.getCell(dateCol));
    if (!date) continue; // monthly and quarterly averages, blank rows
    // A date outside its month section is a typing slip in the bank's sheet (2026: "12-Jan-26"
    // between 11 and 13 February). Which day was meant is not ours to guess: the row is skipped.
    if (bannerMonth !== undefined && Number(date.slice(5, 7)) !== bannerMonth) continue;
    for (const [c, currency] of columns) {
      const cell = row.getCell(c);
      const rate = cellDecimal(cell);
      if (rate === undefined) {
        const text = cellText(cell);
        if (text === "" || /^(n\/a|-+)$/i.test(text)) continue;
        throw new FeedError(ID, `sheet "${ws.name}" ${cell.address}: "${text}" is not a rate`);
      }
      if (/[1-9]/.test(rate)) records.push({ effectiveDate: date, currency, rate });
    }
  }
  return sections;
}

const cbs = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of Samoa", abbreviatedName: "CBS" }],
    // BANKS.md: published within 19:00-21:30 UTC (Sunday to Thursday), i.e. from 08:00 the next day in Apia (UTC+13).
    dailyUpdateTime: "08:00:00",
    bankCurrency: "WST",
    countryCode: ["WS"],
    region: ["Oceania"],
    timeZone: "Pacific/Apia",
    website: "https://cbs.gov.ws",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2008-01-03",
    maxRangeDays: 36500,
    sourceUrl: PAGE,
  },

  fetch: (_range, { http }) => fetchLinkedFile(http, SOURCE),

  async parse(body, { url }) {
    if (!/\.xlsx(\?|$)/i.test(url)) return checkLandingPage(SOURCE, body, url);
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let sections = 0;
    for (const ws of wb.worksheets) sections += parseSheet(ws, records);
    if (sections === 0)
      throw new FeedError(ID, 'no "DATE | TALA/..." label row: not the Central Bank of Samoa workbook');
    return records;
  },
});

export default cbs;

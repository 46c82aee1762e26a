// State Bank of Pakistan: daily average banks' floating exchange rates (PKR per 1 unit, Direct),
// as XLSX: BFER_Daily.xlsx (the current month) and BFER_Daily_Arch.xlsx (the archive since 2013).
// Wide layout: one row per currency (country, currency *name*), one column per date; the date row is
// found by its shape (a `Currency` label followed by date cells), not by position, and may repeat.
// The cells hold unrounded averages (279.35178571428565) shown with six decimals (`0.000000`); the
// published figure is the shown one, so cells are read as displayed (src/feed/spreadsheet.ts).
// Names, misspelt as the bank writes them, map through the table below; an unknown name is an error.
// The old /ecodata/ URLs answer the site's home page with status 200: an HTML body is refused.
import type { Worksheet } from "exceljs";

import { FeedError, defineAdapter, type FeedDocument, type IsoDate, type RateRecord } from "../src/feed/kit.js";
import { cellDate, cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

const ID = "SBP";
const BASE = "https://www.sbp.org.pk/assets/document";
const CURRENT = `${BASE}/BFER_Daily.xlsx`;
const ARCHIVE = `${BASE}/BFER_Daily_Arch.xlsx`;

/** The workbook's currency names (with the bank's spellings) to ISO 4217 codes. */
export const SBP_NAMES: Readonly<Record<string, string>> = {
  "australian dollar": "AUD",
  "bahraini dinar": "BHD",
  "canadian dollar": "CAD",
  "chinese yuan": "CNY",
  "danish krone": "DKK",
  "hongkong dollar": "HKD",
  "hong kong dollar": "HKD",
  "japnese yen": "JPY",
  "japanese yen": "JPY",
  "kuwaiti dinar": "KWD",
  "malaysian ringgit": "MYR",
  "new zealand dollar": "NZD",
  "norwegian krone": "NOK",
  "omani riyal": "OMR",
  "qatari riyal": "QAR",
  "singaporian dollar": "SGD",
  "singapore dollar": "SGD",
  "swedish krona": "SEK",
  "swiss franc": "CHF",
  "saudi arabian riyal": "SAR",
  "thai bhat": "THB",
  "thai baht": "THB",
  "turkish lira": "TRY",
  "uae dirham": "AED",
  "uk pound sterling": "GBP",
  "u.s. dollar": "USD",
  euro: "EUR",
};

const ACCEPT = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function parseSheet(ws: Worksheet, records: RateRecord[]): number {
  let dates: Map<number, IsoDate> | undefined;
  let nameCol = 0;
  let headers = 0;
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    // A date row: a "Currency" label, then date cells.
    let label = 0;
    for (let c = 1; c <= Math.min(ws.columnCount, 4); c++)
      if (cellText(row.getCell(c)).toLowerCase() === "currency") label = c;
    if (label) {
      const found = new Map<number, IsoDate>();
      for (let c = label + 1; c <= ws.columnCount; c++) {
        const d = cellDate(row.getCell(c));
        if (d) found.set(c, d);
        else if (cellText(row.getCell(c)) !== "")
          throw new FeedError(
            ID,
            `sheet "${ws.name}" ${row.getCell(c).address}: "${cellText(row.getCell(c))}" in the date row is not a date`,
          );
      }
      if (found.size === 0) throw new FeedError(ID, `sheet "${ws.name}" row ${r}: a "Currency" label without dates`);
      dates = found;
      nameCol = label;
      headers++;
      continue;
    }
    if (!dates) continue;
    const name = cellText(row.getCell(nameCol)).replace(/\s+/g, " ");
    if (name === "") continue;
    const currency = SBP_NAMES[name.toLowerCase()];
    if (!currency) {
      // Rows below the table (contact person, phone) have no figures; an unknown name with figures is an error.
      const hasFigures = [...dates.keys()].some((c) => cellDecimal(row.getCell(c)) !== undefined);
      if (!hasFigures) continue;
      throw new FeedError(ID, `sheet "${ws.name}" row ${r}: unknown currency name "${name}"`);
    }
    for (const [c, date] of dates) {
      const cell = row.getCell(c);
      const rate = cellDecimal(cell, "displayed");
      if (rate === undefined) {
        const text = cellText(cell);
        if (text === "" || /^(-+|n\/?a)$/i.test(text)) continue;
        throw new FeedError(ID, `${date} ${currency}: "${text}" is not a rate`);
      }
      if (/[1-9]/.test(rate)) records.push({ effectiveDate: date, currency, rate });
    }
  }
  return headers;
}

const sbp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "State Bank of Pakistan", abbreviatedName: "SBP" },
      { languageCode: "ur", name: "بینک دولت پاکستان", abbreviatedName: "SBP" },
    ],
    // BANKS.md: checked within 05:00-15:30 UTC (monthly files), i.e. from 10:00 in Karachi (UTC+5).
    dailyUpdateTime: "10:00:00",
    bankCurrency: "PKR",
    countryCode: ["PK"],
    region: ["Asia"],
    timeZone: "Asia/Karachi",
    website: "https://www.sbp.org.pk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2013-01-01",
    maxRangeDays: 36500,
    sourceUrl: CURRENT,
  },

  async fetch(range, { http }) {
    const docs: FeedDocument[] = [await http.get(CURRENT, { accept: ACCEPT })];
    // The archive is asked for backfills; it comes last so that it wins where the two overlap.
    if (range.kind === "range") docs.push(await http.get(ARCHIVE, { accept: ACCEPT }));
    return docs;
  },

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let headers = 0;
    for (const ws of wb.worksheets) headers += parseSheet(ws, records);
    if (headers === 0)
      throw new FeedError(ID, 'no "Currency" row with dates: not the SBP floating exchange rates workbook');
    return records;
  },
});

export default sbp;

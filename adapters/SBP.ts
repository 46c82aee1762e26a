// State Bank of Pakistan: daily average banks' floating exchange rates (PKR per 1 unit, Direct),
// as XLSX: BFER_Daily.xlsx (the current month) and BFER_Daily_Arch.xlsx (the archive since 2013),
// no parameters. Updated on working days from about 10:00 Karachi time. Wide layout: title rows, then
// a date row ("Country / Monetary Union | Currency | 1-Apr-26 | 2-Apr-26 …"), then one row per
// currency (country, currency *name*), one column per date, and contact rows below. The date row is
// found by its shape (a `Currency` label followed by date cells), not by position; a file may list
// its dates in several such tables one after another, and every table of every sheet is read.
// The cells hold unrounded averages (279.35178571428565) shown with six decimals (`0.000000`); the
// published figure is the shown one, so cells are read as displayed (the kit's spreadsheet reader).
// Names are read by the kit's resolver: ICU's English names ("Swiss Franc", "Euro"), then its rules,
// which also read the bank's own spellings ("Japnese Yen", "Thai Bhat", "UK Pound Sterling"); a row
// with figures under a name it cannot resolve, or that fits two currencies, is held. Empty, dash and
// n/a cells are days without a figure. The old /ecodata/ URLs answer the site's home page with status
// 200: an HTML body is refused.

import {
  AnswerRows,
  FeedError,
  currencyOf,
  defineAdapter,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";
import { cellDate, cellDecimal, cellText, readXlsx, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "SBP";
const BASE = "https://www.sbp.org.pk/assets/document";
const CURRENT = `${BASE}/BFER_Daily.xlsx`;
const ARCHIVE = `${BASE}/BFER_Daily_Arch.xlsx`;

/**
 * The currency of a name of the workbook on a date, and how it was resolved when not exactly (the
 * bank's spellings are misspellings and abbreviations the resolver reads by rule: no alias table).
 */
export const sbpCurrency = (name: string, date?: IsoDate): CurrencyResolution =>
  resolveCurrencyName(ID, name, { date });

const ACCEPT = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Reads every table of a sheet into `rows`; returns how many date rows (tables) it found. */
function parseSheet(ws: Worksheet, rows: AnswerRows): number {
  let dates: Map<number, IsoDate> | undefined;
  let nameCol = 0;
  let headers = 0;
  for (const row of ws.rows()) {
    const r = row.number;
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
    for (const [c, date] of dates) {
      const cell = row.getCell(c);
      const text = cellText(cell);
      // Rows below a table (contact person, phone) and days without a figure have nothing to read.
      if (text === "" || /^(-+|n\.?\/?a\.?)$/i.test(text)) continue;
      rows.read(
        `sheet "${ws.name}" ${cell.address}`,
        () => {
          const currency = currencyOf(sbpCurrency(name, date));
          const rate = cellDecimal(cell, "displayed");
          if (rate === undefined) rowProblem(ID, "bad-rate", `"${text}" is not a rate`);
          if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
          return { effectiveDate: date, currency, rate };
        },
        { effectiveDate: date, currency: name, rate: text },
      );
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
    // The files are updated within 05:00-15:30 UTC, i.e. from 10:00 in Karachi (UTC+5).
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
    const rows = new AnswerRows(ID);
    let headers = 0;
    for (const ws of wb.worksheets) headers += parseSheet(ws, rows);
    if (headers === 0)
      throw new FeedError(ID, 'no "Currency" row with dates: not the SBP floating exchange rates workbook');
    return rows.result();
  },
});

export default sbp;

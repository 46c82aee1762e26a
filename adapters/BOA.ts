// Bank of Algeria: the daily rates of the dinar since 2000, as one XLSX workbook linked from the
// "données historiques" page (https://www.bank-of-algeria.dz/donnees-historiques/). The workbook sits
// under /stoodroa/YYYY/MM/Cotation-DZD-....xlsx, its name changes with each upload (about monthly), so
// `fetch` reads the page (navigation, never parsed) for the link, then the workbook.
// - One sheet per currency: the title cell names the pair and its unit (`USD / DZD`, `100 JPY / DZD`,
//   `EURO / DZD` with the currency's name), the label row repeats the pair (`EUR / DZD`), then one row per
//   day (a date cell, and the rate in the label's column). Sheets without such a pair are not rates.
// - DZD per unit (Direct); the per-100 yen is kept as unitMultiplier 2. Figures are the typed ones (4
//   decimals), read exactly; 0 and empty cells are days without a figure.
// - Checked on business days from 13:00 Algiers time (12:00-14:30 UTC).
// - Operations: the server sends only its leaf certificate, so the DigiCert intermediate has to be in the
//   trust store of the shared HTTP client.

import {
  AnswerRows,
  FeedError,
  currencyOf,
  defineAdapter,
  perUnits,
  requireDate,
  requireDecimal,
  requireUnits,
  resolveCurrencyName,
  type CurrencyResolution,
} from "../src/feed/kit.js";
import { fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
import { cellDate, cellDecimal, cellText, readXlsx, type Worksheet } from "../src/feed/spreadsheet.js";

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

/** A `100 JPY / DZD` cell: the units and the label of the currency, as written. */
interface Pair {
  units: string;
  label: string;
}

/** `100 JPY / DZD` → { units: "100", label: "JPY" }; undefined when the cell is no such pair. */
function pairOf(text: string): Pair | undefined {
  const m = /^(?:(\S+)\s+)?(\S+)\s*\/\s*DZD$/.exec(text.trim());
  return m ? { units: m[1] ?? "1", label: m[2]! } : undefined;
}

/** Reads one sheet's rows into `rows`; false when the sheet has no `... / DZD` title and label. */
function readSheet(ws: Worksheet, rows: AnswerRows): boolean {
  // The title (A2) and the label (B4 or wherever it is) are found by their "/ DZD" shape.
  let title: Pair | undefined;
  let label: Pair | undefined;
  let labelRow = 0;
  let rateCol = 0;
  for (let r = 1; r <= Math.min(ws.rowCount, 10) && !labelRow; r++) {
    const row = ws.getRow(r);
    for (let c = 1; c <= Math.min(ws.columnCount, 5); c++) {
      const cell = row.getCell(c);
      if (cell.isMerged && cell.master !== cell) continue;
      const pair = /\/\s*DZD\s*$/.test(cellText(cell)) ? pairOf(cellText(cell)) : undefined;
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
  const [titled, labelled] = [title, label];
  const sheet = `sheet "${ws.name}"`;
  // The currency (a code or its name, `EURO`) and its unit are the sheet's: a sheet whose pair cannot
  // be read is held as one row; a title and a label naming two currencies mean the layout changed.
  let currency: string | undefined;
  let resolved: CurrencyResolution | undefined;
  let units: string | undefined;
  const names = { locales: ["en", "fr"] };
  rows.read(
    sheet,
    () => {
      const fromTitle = resolveCurrencyName(ID, titled.label, names).currency;
      resolved = resolveCurrencyName(ID, labelled.label, names);
      currency = resolved.currency;
      if (fromTitle !== currency)
        throw new FeedError(ID, `${sheet}: title ${titled.label} and label ${labelled.label} disagree`);
      units = requireUnits(ID, titled.units !== "1" ? titled.units : labelled.units, `${currency} units`);
      return undefined;
    },
    { currency: labelled.label },
  );
  if (!currency || !resolved || !units) return true;
  const named = resolved;
  for (const row of ws.rows()) {
    const r = row.number;
    if (r <= labelRow) continue;
    const dateCell = row.getCell(rateCol - 1);
    const cell = row.getCell(rateCol);
    const [day, raw] = [cellText(dateCell), cellText(cell)];
    if (raw === "") continue; // no figure: a day without one, or a note
    const [code, unitCount] = [currency, units];
    rows.read(
      `${sheet} row ${r}`,
      () => {
        const date = requireDate(ID, cellDate(dateCell), day);
        const rate = cellDecimal(cell) ?? requireDecimal(ID, raw, `${code} on ${date}`);
        if (!/[1-9]/.test(rate)) return undefined;
        return { effectiveDate: date, currency: currencyOf(named), ...perUnits(rate, unitCount) };
      },
      { effectiveDate: day, currency: code, rate: raw },
    );
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
    // Checked within 12:00-14:30 UTC, i.e. from 13:00 in Algiers (UTC+1).
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

  navigation: /^https:\/\/www\.bank-of-algeria\.dz\/donnees-historiques\/?$/,

  fetch: (_range, { http }) => fetchLinkedFile(http, SOURCE),

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let sheets = 0;
    for (const ws of wb.worksheets) if (readSheet(ws, rows)) sheets++;
    if (sheets === 0) throw new FeedError(ID, 'no sheet with an "XXX / DZD" pair: not the Bank of Algeria workbook');
    return rows.result();
  },
});

export default boa;

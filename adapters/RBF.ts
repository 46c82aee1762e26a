// Reserve Bank of Fiji: table 8.8 "Daily exchange rates (RBF mid-rate per Fiji dollar)", an XLSX
// linked from the statistics page (its file name changes with each upload). One row per day, one
// column per currency under the bank's labels (SDR, STG, YEN, A$, NZ$, US$, EURO), foreign units
// per 1 FJD (Indirect). Cells are the typed figures and are read exactly: the SDR is typed with six
// decimals although the sheet shows four, and the six are the bank's figure.
import { FeedError, defineAdapter, type RateRecord } from "../src/feed/kit.js";
import { checkLandingPage, fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
import { cellDate, cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

const ID = "RBF";
const PAGE = "https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/";
const WORKBOOK_LINK = /\/8\.8-Exchange-Rates-Daily[^/]*\.xlsx$/i;
const SOURCE: LinkedFile = {
  bankId: ID,
  page: PAGE,
  link: WORKBOOK_LINK,
  pageName: "the statistics page",
  fileName: "the 8.8 Exchange Rates Daily workbook",
  accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** The workbook's column labels to ISO 4217 codes; an unknown label is an error. */
export const RBF_COLUMNS: Readonly<Record<string, string>> = {
  SDR: "XDR",
  STG: "GBP",
  YEN: "JPY",
  CHF: "CHF",
  A$: "AUD",
  NZ$: "NZD",
  US$: "USD",
  EURO: "EUR",
};

const rbf = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Reserve Bank of Fiji", abbreviatedName: "RBF" }],
    // BANKS.md: published within 02:00-04:30 UTC, i.e. from 14:00 in Suva (UTC+12).
    dailyUpdateTime: "14:00:00",
    bankCurrency: "FJD",
    countryCode: ["FJ"],
    region: ["Oceania"],
    timeZone: "Pacific/Fiji",
    website: "https://www.rbf.gov.fj",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2002-01-02",
    maxRangeDays: 36500,
    sourceUrl: PAGE,
  },

  fetch: (_range, { http }) => fetchLinkedFile(http, SOURCE),

  async parse(body, { url }) {
    if (!/\.xlsx(\?|$)/i.test(url)) return checkLandingPage(SOURCE, body, url);
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let found = false;
    for (const ws of wb.worksheets) {
      let columns: Map<number, string> | undefined;
      for (let r = 1; r <= ws.rowCount; r++) {
        const row = ws.getRow(r);
        if (!columns) {
          if (cellText(row.getCell(1)) !== "Period") continue;
          columns = new Map();
          for (let c = 2; c <= ws.columnCount; c++) {
            const label = cellText(row.getCell(c));
            if (label === "") continue;
            const code = RBF_COLUMNS[label];
            if (!code) throw new FeedError(ID, `sheet "${ws.name}": unknown column label "${label}"`);
            columns.set(c, code);
          }
          if (![...columns.values()].includes("USD"))
            throw new FeedError(ID, `sheet "${ws.name}": the "US$" column is missing`);
          found = true;
          continue;
        }
        const date = cellDate(row.getCell(1));
        if (!date) {
          if (cellText(row.getCell(1)) === "") continue;
          throw new FeedError(ID, `sheet "${ws.name}" row ${r}: "${cellText(row.getCell(1))}" is not a date`);
        }
        for (const [c, currency] of columns) {
          const cell = row.getCell(c);
          const rate = cellDecimal(cell);
          if (rate === undefined) {
            const text = cellText(cell);
            if (text === "" || /^(-+|n\/?a)$/i.test(text)) continue;
            throw new FeedError(ID, `${date} ${currency}: "${text}" is not a rate`);
          }
          if (/[1-9]/.test(rate)) records.push({ effectiveDate: date, currency, rate });
        }
      }
    }
    if (!found) throw new FeedError(ID, 'no "Period" header row: not the RBF daily exchange rates workbook');
    return records;
  },
});

export default rbf;

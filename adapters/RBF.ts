// Reserve Bank of Fiji: table 8.8 "Daily exchange rates (RBF mid-rate per Fiji dollar)", an XLSX
// linked from the statistics page (its file name changes with each upload: 8.8-Exchange-Rates-Daily-9.xlsx);
// the page is a navigation answer, recorded and never parsed. The workbook's sheet "Exchange Rates"
// has two title rows, then a header row starting "Period" with the bank's labels (padded: "     SDR",
// STG, YEN, CHF, A$, NZ$, US$, EURO), then one row per working day since 2002, dated by date cells.
// Foreign units per 1 FJD (Indirect), published between 02:00 and 04:30 UTC (from 14:00 in Suva).
// Labels are read as ISO codes or ICU's currency names (EURO) first, then the bank's own labels below.
// Cells are the typed figures and are read exactly: the SDR is typed with six decimals although the
// sheet shows four, and the six are the bank's figure. Empty, dash and n/a cells are days without a
// figure; any other text is held. Every sheet with a "Period" header is read (the workbook also has
// an empty Sheet1).
import {
  AnswerRows,
  FeedError,
  currencyOf,
  defineAdapter,
  foldName,
  requireDate,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type IsoDate,
} from "../src/feed/kit.js";
import { fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
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

/**
 * The workbook's labels no rule resolves, each with why. The kit's resolver reads the others: `EURO`
 * (ICU's name), `SDR` (the standard's abbreviation), `YEN` (a unit), `US$` and `NZ$` (territories).
 */
export const RBF_LABELS: Readonly<Record<string, string>> = {
  // STG, the market's abbreviation of sterling: no territory, no unit.
  STG: "GBP",
  // "A" alone (A$) is too short to name Australia by rule.
  A$: "AUD",
};
const ALIASES = Object.fromEntries(Object.entries(RBF_LABELS).map(([label, code]) => [foldName(label), code]));

/** The currency of a column label on a date, and how it was resolved; or a RowProblem (`unknown-currency`). */
export const rbfCurrency = (label: string, date?: IsoDate): CurrencyResolution =>
  resolveCurrencyName(ID, label, { aliases: ALIASES, date });

const rbf = defineAdapter({
  navigation: /\/\/www\.rbf\.gov\.fj\/statistics\//,
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Reserve Bank of Fiji", abbreviatedName: "RBF" }],
    // Published within 02:00-04:30 UTC, i.e. from 14:00 in Suva (UTC+12).
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

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let found = false;
    for (const ws of wb.worksheets) {
      let columns: Map<number, string> | undefined;
      for (const row of ws.rows()) {
        if (!columns) {
          if (cellText(row.getCell(1)) !== "Period") continue;
          columns = new Map();
          for (let c = 2; c <= ws.columnCount; c++) {
            const label = cellText(row.getCell(c));
            if (label !== "") columns.set(c, label);
          }
          if (![...columns.values()].includes("US$"))
            throw new FeedError(ID, `sheet "${ws.name}": the "US$" column is missing`);
          found = true;
          continue;
        }
        const date = cellDate(row.getCell(1));
        const rawDate = cellText(row.getCell(1));
        for (const [c, label] of columns) {
          const cell = row.getCell(c);
          const text = cellText(cell);
          rows.read(
            `sheet "${ws.name}" ${cell.address}`,
            () => {
              const rate = cellDecimal(cell);
              if (rate === undefined) {
                if (text === "" || /^(-+|n\/?a)$/i.test(text)) return undefined;
                rowProblem(ID, "bad-rate", `"${text}" is not a rate`);
              }
              if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
              const effectiveDate = requireDate(ID, date, rawDate);
              return { effectiveDate, currency: currencyOf(rbfCurrency(label, effectiveDate)), rate };
            },
            { effectiveDate: date ?? rawDate, currency: label, rate: text },
          );
        }
      }
    }
    if (!found) throw new FeedError(ID, 'no "Period" header row: not the RBF daily exchange rates workbook');
    return rows.result();
  },
});

export default rbf;

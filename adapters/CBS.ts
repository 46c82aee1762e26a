// Central Bank of Samoa: the whole archive of its daily exchange rates as one workbook.
// - The page https://cbs.gov.ws/daily-exchange-rates (navigation: fetched only for the link) links to an
//   XLSX whose name changes with each upload (`/media/Historical-Daily-Rates-June032026.xlsx`).
// - One sheet per year, since 2008 (sheet names are not trusted: "2010" holds 2011 and the reverse).
//   Month sections, each with a banner row (`JANUARY`) and a label row `DATE | TALA/USD | TALA/NZD | ...`
//   (in 2009-2012 `US/TALA | NZ/TALA | ...`), then one row per day with a real date cell. Monthly and
//   quarterly average rows have no date (or `Jan`, `Jun qtr avg`) and are skipped; `n/a` means no figure.
// - Quotes: whatever the label's order, the figures are foreign units per 1 WST (Indirect), as the page
//   says ("Units of Foreign Currency per ST1.00") and the values show. The figures are the typed ones (5
//   decimals although the sheet shows 4; the page publishes the same 5), read exactly.
// - Labels name the foreign side by ISO code or the bank's abbreviation (`US`, `NZ`, `AUS`, `EURO`, `YEN`).
//   `CNH` (the offshore yuan, a column since 2019) is a market code, published as such.
// - Published Sunday to Thursday between 19:00 and 21:30 UTC, that is 08:00 to 10:30 the next day in Apia
//   (UTC+13); polled from 08:00 Apia time.
// - A row dated outside its month section is a typing slip (2026: `12-Jan-26` between 11 and 13
//   February): which day was meant is not ours to guess, the row is held.
// Each day row is read per column: a cell that is not a number holds that currency on that day; a label
// the bank's abbreviations do not explain holds its column. A label that is not a TALA pair, or a
// workbook without any `DATE | TALA/...` label row, is not the bank's layout and is refused whole.

import {
  AnswerRows,
  FeedError,
  RowProblem,
  currencyOf,
  defineAdapter,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type RateRecord,
} from "../src/feed/kit.js";
import { MonthBlocks } from "../src/feed/month-blocks.js";
import { fetchLinkedFile, type LinkedFile } from "../src/feed/html-links.js";
import { cellDate, cellDecimal, cellText, readXlsx, type Worksheet } from "../src/feed/spreadsheet.js";

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

/** A column: the currency it is for (and how it was resolved), or the problem that holds its cells. */
type Column = CurrencyResolution | { problem: RowProblem };

/**
 * The foreign currency of a label (`TALA/EURO`, `AUS/TALA`), by the kit's resolver: ISO codes and market
 * codes (CNH), ICU's names, and by rule the bank's abbreviations (`US` and `NZ`, territory codes; `AUS`,
 * Australia's ISO 3166 code; `YEN`, a unit). Another three-letter code is passed on for the ingest gate
 * to judge; an unknown name holds the column's cells.
 */
export function cbsColumn(label: string, where: string): Column {
  const sides = label
    .toUpperCase()
    .split("/")
    .map((s) => s.trim());
  if (sides.length !== 2 || !sides.includes("TALA"))
    throw new FeedError(ID, `${where}: column label "${label}" is not a TALA pair`);
  const foreign = sides[0] === "TALA" ? sides[1]! : sides[0]!;
  try {
    return resolveCurrencyName(ID, foreign);
  } catch (error) {
    if (!(error instanceof RowProblem)) throw error;
    return /^[A-Z]{3}$/.test(foreign) ? { currency: foreign } : { problem: error };
  }
}

/** Date cells written as text that look like a date (`31-Feb-26`), not like an average row's label. */
const DATE_LIKE = /^\d{1,2}[-/. ][A-Za-z0-9]{1,9}[-/. ]\d{2,4}$/;

/** Text in capitals, with at least three letters (a month banner's shape in this workbook). */
const isCapitals = (text: string) => /\p{Lu}.*\p{Lu}.*\p{Lu}/u.test(text) && text === text.toUpperCase();

/** Reads every month section of a sheet into `rows`; the number of label rows met. */
function readSheet(ws: Worksheet, rows: AnswerRows): number {
  let dateCol = 0;
  let columns = new Map<number, Column>();
  let sections = 0;
  const blocks = new MonthBlocks();
  const lastColumn = ws.columnCount;
  for (const row of ws.rows()) {
    const r = row.number;
    const bannerCell = row.getCell(2).value;
    // Banners are capitals (`JANUARY`, `SEPT.`); `Jan` under a month is its average row's label.
    if (
      typeof bannerCell === "string" &&
      isCapitals(bannerCell) &&
      blocks.banner(bannerCell, `sheet "${ws.name}" row ${r}`)
    )
      continue;
    let labelCol = 0;
    for (let c = 1; c <= Math.min(lastColumn, 4); c++)
      if (cellText(row.getCell(c)).toUpperCase() === "DATE") labelCol = c;
    if (labelCol) {
      dateCol = labelCol;
      columns = new Map();
      for (let c = labelCol + 1; c <= lastColumn; c++) {
        const label = cellText(row.getCell(c));
        if (label !== "") columns.set(c, cbsColumn(label, `sheet "${ws.name}" row ${r}`));
      }
      sections++;
      continue;
    }
    if (!dateCol) continue;
    const source = `sheet "${ws.name}" row ${r}`;
    const dateCell = row.getCell(dateCol);
    const date = cellDate(dateCell);
    if (!date) {
      // Monthly and quarterly averages, blank rows; a date typed as text that is no date is held.
      const text = cellText(dateCell);
      if (DATE_LIKE.test(text)) rows.hold(source, "bad-date", `"${text}" is not a real date`, { effectiveDate: text });
      continue;
    }
    const placed = blocks.place(date);
    if ("problem" in placed) {
      rows.hold(source, "bad-date", placed.problem, { effectiveDate: date });
      continue;
    }
    for (const [c, column] of columns) {
      const cell = row.getCell(c);
      const text = cellText(cell);
      if (text === "" || /^(n\/a|-+)$/i.test(text)) continue; // no figure that day
      rows.read(
        `${source} ${cell.address}`,
        (): RateRecord | undefined => {
          if ("problem" in column) throw column.problem;
          const rate = cellDecimal(cell) ?? rowProblem(ID, "bad-rate", `"${text}" is not a rate`);
          return /[1-9]/.test(rate) ? { effectiveDate: date, currency: currencyOf(column), rate } : undefined;
        },
        {
          effectiveDate: date,
          currency: "problem" in column ? column.problem.fields.currency : column.currency,
          rate: text,
        },
      );
    }
  }
  return sections;
}

const cbs = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of Samoa", abbreviatedName: "CBS" }],
    // Published within 19:00-21:30 UTC (Sunday to Thursday): from 08:00 the next day in Apia (UTC+13).
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

  // The daily exchange rates page: fetched only for the workbook's link.
  navigation: /^https:\/\/(?:www\.)?cbs\.gov\.ws\/daily-exchange-rates(?:[/?#]|$)/,

  fetch: (_range, { http }) => fetchLinkedFile(http, SOURCE),

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let sections = 0;
    for (const ws of wb.worksheets) sections += readSheet(ws, rows);
    if (sections === 0)
      throw new FeedError(ID, 'no "DATE | TALA/..." label row: not the Central Bank of Samoa workbook');
    return rows.result();
  },
});

export default cbs;

// Reserve Bank of New Zealand: the B1 series, daily exchange rates of the New Zealand dollar.
// - Endpoint: GET https://www.rbnz.govt.nz/-/media/project/sites/rbnz/files/statistics/series/b/b1/
//   hb1-daily.xlsx, the whole current file (from 2018), with no date parameter; history sits in static files
//   beside it, hb1-daily-1999-2017.xlsx and hb1-daily-1973-1998.xlsx (the last not recorded: its layout is
//   taken to be the same, and a changed one is refused). A range fetches the files it touches and every day
//   of them is read (days already stored come back unchanged). The files are large (4 MB of sheet XML for
//   1999-2017), so they are read row by row from the packed workbook (src/feed/sheet-rows.ts).
// - Workbook: sheet `Data` with five header rows (group `Exchange rates (quoted per NZ$)`, series name,
//   `Notes`, `Unit` such as `NZD/USD`, `Series Id` such as `EXR.DS11.D06`), then one row per day: an Excel
//   serial date in column A and one figure per series. `Table Description` (title, published date, notes)
//   and `Series Definitions` repeat the header facts and hold no figures.
// - Figures: foreign units per 1 NZD (Indirect), the bank's indicative mid rates (the 14:00 NZ fixes of
//   WM/Refinitiv, per the bank's notes), 17 currencies, typed to 4-5 decimals and shown to 5 (some older
//   cells to 2): read as shown, padded (spreadsheet.ts's `stored` reading). The two TWI columns (unit
//   `Index`) are trade-weighted indices, not rates, and are skipped. A day row holding only its date (a
//   holiday) has no rates.
// - Published daily at about 15:00 Wellington time, dated the same day (the recorded file's Published
//   Date is its last row's date). Some third-party code reports 403 answers to non-browser clients; the
//   workbook allows copying "subject to the conditions listed on our copyright page".
// Each day row's figure is one row: a figure that is not a number holds that figure; a day row whose date
// cannot be read holds its figures. A workbook without the Data sheet, its Unit and Series Id rows, or
// with a series of another unit or not quoted per NZ$, is not this feed and is refused whole.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  requireCurrencyCode,
  rowProblem,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";
import { sheetRows, streamedDate, streamedDecimal, type StreamedRow } from "../src/feed/sheet-rows.js";
import { readXlsx } from "../src/feed/spreadsheet.js";

const ID = "RBNZ";
const TIME_ZONE = "Pacific/Auckland";
const DIR = "https://www.rbnz.govt.nz/-/media/project/sites/rbnz/files/statistics/series/b/b1";
const CURRENT = `${DIR}/hb1-daily.xlsx`;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The files of a range: the archives it touches and the current file (from 2018). */
export function filesFor(from: string, to: string): string[] {
  const files: string[] = [];
  if (from <= "1998-12-31") files.push(`${DIR}/hb1-daily-1973-1998.xlsx`);
  if (from <= "2017-12-31" && to >= "1999-01-01") files.push(`${DIR}/hb1-daily-1999-2017.xlsx`);
  if (to >= "2018-01-01") files.push(CURRENT);
  return files;
}

const labelOf = (row: StreamedRow) => row.cells.get(0)?.text.trim() ?? "";

/** The currency of each rate column, from the header rows (group, Unit); TWI columns left out. */
function currencyColumns(group: StreamedRow | undefined, unit: StreamedRow): Map<number, string> {
  const columns = new Map<number, string>();
  for (const [column, cell] of unit.cells) {
    if (column === 0 || cell.text.trim() === "") continue;
    const text = cell.text.trim();
    if (text === "Index") continue; // the trade-weighted index: not a rate
    const m = /^NZD\/([A-Z]{3})$/.exec(text);
    if (!m) throw new FeedError(ID, `Data column ${column + 1}: unit "${text}" is not NZD/<code> or Index`);
    const quoted = group?.cells.get(column)?.text ?? "";
    if (!/per NZ\$/i.test(quoted)) {
      throw new FeedError(ID, `Data column ${column + 1} (${text}) is under "${quoted}", not a rate quoted per NZ$`);
    }
    columns.set(column, m[1]!);
  }
  if (columns.size === 0) throw new FeedError(ID, "the Data sheet's Unit row names no NZD/<code> series");
  return columns;
}

/** One day row: a record per rate column that holds a figure. */
function readDay(rows: AnswerRows, row: StreamedRow, columns: Map<number, string>): void {
  const dateCell = row.cells.get(0);
  const date = streamedDate(dateCell);
  for (const [column, code] of columns) {
    const cell = row.cells.get(column);
    if (cell === undefined || cell.text.trim() === "") continue; // no figure that day
    rows.read(
      `sheet "Data" row ${row.row} NZD/${code}`,
      (): RateRecord => {
        if (date === undefined) rowProblem(ID, "bad-date", `"${dateCell?.text ?? ""}" is not a date`);
        const rate = streamedDecimal(cell) ?? rowProblem(ID, "bad-rate", `"${cell.text}" is not a rate`);
        return { effectiveDate: date, currency: requireCurrencyCode(ID, code), rate };
      },
      { effectiveDate: dateCell?.text ?? "", currency: code, rate: cell.text },
    );
  }
}

export async function parseB1(body: Uint8Array): Promise<ParsedAnswer> {
  const workbook = await readXlsx(ID, body);
  const data = workbook.getWorksheet("Data");
  if (!data) {
    const names = workbook.worksheets.map((s) => s.name);
    throw new FeedError(ID, `not the B1 workbook: no Data sheet (sheets: ${names.join(", ")})`);
  }
  const rows = new AnswerRows(ID);
  let group: StreamedRow | undefined;
  let unit: StreamedRow | undefined;
  let columns: Map<number, string> | undefined;
  for (const row of sheetRows(data)) {
    if (columns) {
      readDay(rows, row, columns);
      continue;
    }
    const label = labelOf(row);
    if (group === undefined && label === "") group = row;
    else if (label === "Unit") unit = row;
    else if (label === "Series Id") {
      if (!unit) throw new FeedError(ID, "the Data sheet has a Series Id row but no Unit row above it");
      columns = currencyColumns(group, unit);
    } else if (streamedDate(row.cells.get(0)) !== undefined) {
      throw new FeedError(ID, `the Data sheet has a day row (${row.row}) before its Unit and Series Id rows`);
    }
  }
  if (!columns) throw new FeedError(ID, "not the B1 layout: no Unit and Series Id rows on the Data sheet");
  return rows.result();
}

const rbnz = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Reserve Bank of New Zealand", abbreviatedName: "RBNZ" },
      { languageCode: "mi", name: "Te Pūtea Matua", abbreviatedName: "RBNZ" },
    ],
    dailyUpdateTime: "15:00:00",
    bankCurrency: "NZD",
    countryCode: ["NZ", "CK", "NU", "PN", "TK"],
    region: ["Oceania"],
    timeZone: TIME_ZONE,
    website: "https://www.rbnz.govt.nz",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // The first day of the recorded 1999-2017 file; the 1973-1998 file is fetched for older ranges.
    coverageStart: "1999-01-05",
    // Whole files: one backfill chunk covers the whole history.
    maxRangeDays: 36500,
    sourceUrl: CURRENT,
  },

  async fetch(range, { http }) {
    const files = range.kind === "range" ? filesFor(range.from, range.to) : [CURRENT];
    const docs = [];
    for (const file of files) docs.push(await http.get(file, { accept: XLSX_TYPE }));
    return docs;
  },

  parse: (body) => parseB1(body),
});

export default rbnz;

// Bank of Albania (Banka e Shqipërisë): the official exchange rate of the lek, the daily "fixing".
// - Today: GET https://www.bankofalbania.org/Markets/Official_exchange_rate/, an HTML page with three
//   tables, each after a `Last update: <b>DD.MM.YYYY</b> <em><b>HH:MM:SS</b></em>` line. The first (USD EUR
//   GBP CHF JPY AUD CAD SEK NOK DKK SDR XAU XAG CNY CNH TRY) is the day's fixing; the second (HUF RUB CZK
//   MKD) is fixed twice a month (the 15th and the last business day) and carries its own, older date; the
//   third is the average bid and ask of USD and EUR, market figures beside the official one, not published.
//   Rows: name, code, figure, the change from the day before, an arrow.
// - History: the archive page …/Official_exchange_rate/Exchage_rate_archive/ (sic; navigation) links one
//   file per year, `Exchange rate YYYY`, named irregularly (`/rc/doc/Kursi_i_kembimit_2024_29746.xlsx`):
//   XLSX from 2013, XLS before. A workbook has one sheet per month (Janar … Dhjetor); each has a row of
//   day headers (`DT. 03.01.2024`, spaces and points irregular), each over two columns: the cross against
//   USD (`Kundrejt një USD`), then the lek per unit of the currency (`Lek për njësi të monedhës së huaj
//   (sipas fix.)`), which is the fixing; then the month's average (`KURSI MESATAR`, skipped). Rows: an
//   ordinal in A, the Albanian name with the code in B (`Jeni Japonez (per 100) (JPY)`, `E U R O`, `Ari
//   (oz)`). Old working areas linger far to the right, below the table, without names: not read. The file
//   for the current year is not there until the year is over: that year is read from today's page only.
//   Only the 2024 workbook is recorded: other years are read by the same rules, and refused whole if their
//   layout differs; coverage starts with the recorded year.
// - Figures: ALL per unit (Direct), 2 decimals. JPY is per 100 (the label says so); HUF and RUB are per 100
//   too by the bank's rule, which the page does not print (their figures, 26.47 and 111.96 against CZK's
//   3.92, show it); gold and silver per troy ounce. SDR is XDR. CNH (the offshore yuan, no ISO 4217 code)
//   is published as the market code it is (src/feed/market-codes.ts).
// - The fixing is computed from interbank quotes between 11:30 and 12:00 and published shortly after
//   (`Last update 22.05.2026 12:12:23`), Monday to Friday. Cloudflare sits in front of the site.
// A row whose code, figure or date cannot be read is held; a page without the `Last update` tables, or a
// workbook without the day headers over `Lek për njësi` columns, is not this feed and is refused whole.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  foldName,
  fromDayMonthYear,
  isPublishableCurrency,
  perUnits,
  readDecimal,
  requireDate,
  rowProblem,
  todayIn,
  type FeedDocument,
  type HttpClient,
  type IsoDate,
  type ParseContext,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";
import { readXls, readXlsx, xlsGrid } from "../src/feed/spreadsheet.js";
import { sheetRows, streamedDecimal, type StreamedCell, type StreamedRow } from "../src/feed/sheet-rows.js";

const ID = "BOAL";
const TIME_ZONE = "Europe/Tirane";
const SITE = "https://www.bankofalbania.org";
const PAGE = `${SITE}/Markets/Official_exchange_rate/`;
const ARCHIVE = `${PAGE}Exchage_rate_archive/`;
const WORKBOOK_TYPES = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.ms-excel";

/** Codes the bank quotes per 100 units without saying so on the page (its rule, and the figures' size). */
const PER_100 = new Set(["HUF", "RUB"]);

/** The Albanian names without a code in the archive, folded (until the kit resolves names by rule). */
const NAMES: Readonly<Record<string, string>> = { "e u r o": "EUR", "ari oz": "XAU", "argjendi oz": "XAG" };

/** The code of a label: `(JPY)`, a trailing `CNY`, the bank's SDR, or one of its Albanian names. */
function codeOf(label: string): string {
  const code = /\(([A-Z]{3})\)\s*$/.exec(label)?.[1] ?? /\b([A-Z]{3})\s*$/.exec(label)?.[1] ?? NAMES[foldName(label)];
  if (code === undefined) rowProblem(ID, "unknown-currency", `"${label}" names no currency code`);
  if (code === "SDR") return "XDR";
  // CNH is no ISO code but a market code the service publishes.
  if (!isPublishableCurrency(code))
    rowProblem(ID, "unknown-currency", `"${code}" is neither ISO 4217 nor a market code`);
  return code;
}

/** How many units a figure is for: `(100)` or `(per 100)` in the name, or the bank's rule for HUF and RUB. */
const unitsOf = (label: string, code: string) => (/\((?:per )?100\)/i.test(label) || PER_100.has(code) ? 100 : 1);

const dayOf = (text: string) => fromDayMonthYear(text.trim());

// --- today's page -------------------------------------------------------------------------------------

/** Today's page: the fixing tables (the bid/ask table left out). */
export function parsePage(html: string): ParsedAnswer {
  if (html.trim() === "") throw new FeedError(ID, "empty body where the official exchange rate page was expected");
  const $ = cheerio.load(html);
  const stamps = $("div")
    .filter((_i, el) => /^\s*Last update:/.test($(el).text()) && $(el).children("div").length === 0)
    .toArray();
  if (stamps.length === 0) throw new FeedError(ID, "not the official exchange rate page: no `Last update` tables");
  const rows = new AnswerRows(ID);
  stamps.forEach((stamp, t) => {
    const rawDate = $(stamp).find("b").first().text().trim();
    const table = $(stamp).nextAll("table").first();
    if (table.length === 0) throw new FeedError(ID, `no table after the Last update line ${t + 1}`);
    if (/\bBid\b/.test(table.find("thead").text())) return; // average bid and ask: not the fixing
    table
      .find("tr")
      .filter((_i, tr) => $(tr).children("td").length >= 3)
      .each((i, tr) => {
        const cells = $(tr)
          .children("td")
          .map((_j, td) => $(td).text().trim())
          .get();
        const [name = "", code = "", figure = ""] = cells;
        rows.read(
          `table ${t + 1} row ${i + 1} (${code})`,
          (): RateRecord => {
            const effectiveDate = requireDate(ID, dayOf(rawDate), rawDate);
            const currency = codeOf(code);
            const rate =
              readDecimal(figure, { thousands: "," }) ?? rowProblem(ID, "bad-rate", `"${figure}" is not a rate`);
            return { effectiveDate, currency, ...perUnits(rate, unitsOf(name, currency)) };
          },
          { effectiveDate: rawDate, currency: code, rate: figure },
        );
      });
  });
  return rows.result();
}

// --- the yearly archive workbooks ---------------------------------------------------------------------

const DAY_HEADER = /^DT\.?\s*(\d{1,2}\.\d{1,2}\.\d{4})$/;
const text = (cell: StreamedCell | undefined) => cell?.text.trim() ?? "";

/** One month's sheet, row by row: its day columns from the header rows, then a record per name row and day. */
class MonthSheet {
  /** The column of each day's lek figure, with the day as written. */
  private days: Array<{ column: number; raw: string }> | undefined;
  private checked = false;

  constructor(
    private readonly name: string,
    private readonly rows: AnswerRows,
  ) {}

  read(row: StreamedRow): void {
    if (!this.days) {
      const days = [...row.cells.values()].flatMap((c) => {
        const m = DAY_HEADER.exec(text(c));
        return m ? [{ column: c.column + 1, raw: m[1]! }] : [];
      });
      if (days.length > 0) this.days = days;
      return;
    }
    if (!this.checked) {
      // The label row under the day headers: each day's second column is the lek per unit.
      if (!this.days.some((d) => /^Lek për njësi/i.test(text(row.cells.get(d.column))))) return;
      const wrong = this.days.find((d) => !/^Lek për njësi/i.test(text(row.cells.get(d.column))));
      if (wrong) throw new FeedError(ID, `sheet "${this.name}": the column of ${wrong.raw} is not "Lek për njësi"`);
      this.checked = true;
      return;
    }
    const label = text(row.cells.get(1));
    if (label === "" || row.cells.get(0)?.number === undefined) return; // not a currency row
    for (const day of this.days) this.readFigure(row, label, day);
  }

  private readFigure(row: StreamedRow, label: string, day: { column: number; raw: string }): void {
    const cell = row.cells.get(day.column);
    if (text(cell) === "") return; // no figure for that currency that day
    this.rows.read(
      `sheet "${this.name}" row ${row.row} ${day.raw}`,
      (): RateRecord => {
        const effectiveDate = requireDate(ID, dayOf(day.raw), day.raw);
        const currency = codeOf(label);
        const rate = streamedDecimal(cell) ?? rowProblem(ID, "bad-rate", `"${text(cell)}" is not a rate`);
        return { effectiveDate, currency, ...perUnits(rate, unitsOf(label, currency)) };
      },
      { effectiveDate: day.raw, currency: label, rate: text(cell) },
    );
  }

  finish(): void {
    if (!this.days) throw new FeedError(ID, `sheet "${this.name}" has no day headers (DT. DD.MM.YYYY)`);
    if (!this.checked) throw new FeedError(ID, `sheet "${this.name}" has no "Lek për njësi" columns under its days`);
  }
}

/** A SheetJS sheet's rows in the shape the row reader gives (for the archive's XLS years). */
function* xlsRows(grid: ReturnType<typeof xlsGrid>): Generator<StreamedRow> {
  for (const [r, row] of grid.entries()) {
    const cells = new Map<number, StreamedCell>();
    row.forEach((c, column) => {
      if (!c || c.v === undefined || c.v === null) return;
      const cell: StreamedCell = { column, text: String(c.v) };
      if (c.t === "n" && typeof c.v === "number") cell.number = c.v;
      if (typeof c.z === "string") cell.numFmt = c.z;
      cells.set(column, cell);
    });
    if (cells.size > 0) yield { row: r + 1, cells };
  }
}

/** A year's workbook (XLSX read row by row, or XLS): every month sheet. */
export async function parseArchive(body: Uint8Array, url: string): Promise<ParsedAnswer> {
  const rows = new AnswerRows(ID);
  if (/\.xls$/i.test(url)) {
    const wb = readXls(ID, body);
    for (const name of wb.SheetNames) {
      const month = new MonthSheet(name.trim(), rows);
      for (const row of xlsRows(xlsGrid(wb.Sheets[name]!))) month.read(row);
      month.finish();
    }
    return rows.result();
  }
  const wb = await readXlsx(ID, body);
  for (const sheet of wb.worksheets) {
    const month = new MonthSheet(sheet.name.trim(), rows);
    for (const row of sheetRows(sheet)) month.read(row);
    month.finish();
  }
  return rows.result();
}

// --- fetch ----------------------------------------------------------------------------------------------

/** The archive's file for each year it lists (`Exchange rate 2024` → its URL). */
export function archiveFiles(html: string): Map<number, string> {
  const $ = cheerio.load(html);
  const files = new Map<number, string>();
  $("a[href]").each((_i, a) => {
    const year = /Exchange rate\s*(\d{4})/i.exec($(a).text())?.[1];
    const href = $(a).attr("href") ?? "";
    if (year && /\/rc\/doc\/[^?#]+\.xlsx?$/i.test(href)) files.set(Number(year), new URL(href, SITE).href);
  });
  return files;
}

async function fetchRange(http: HttpClient, from: IsoDate, to: IsoDate): Promise<FeedDocument[]> {
  const thisYear = Number(todayIn(TIME_ZONE).slice(0, 4));
  const years: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) years.push(y);
  const docs: FeedDocument[] = [];
  const past = years.filter((y) => y < thisYear);
  if (past.length > 0) {
    const listing = await http.get(ARCHIVE, { accept: "text/html" });
    docs.push({ ...listing, role: "navigation" });
    const files = archiveFiles(decodeText(ID, listing.body));
    for (const year of past) {
      const file = files.get(year);
      // Last year's file comes once the year is over: until then its days are not to be had.
      if (file === undefined && year === thisYear - 1) continue;
      if (file === undefined) throw new FeedError(ID, `the archive page has no file for ${year} (has it changed?)`);
      docs.push(await http.get(file, { accept: WORKBOOK_TYPES }));
    }
  }
  if (years.some((y) => y >= thisYear)) docs.push(await http.get(PAGE, { accept: "text/html" }));
  return docs;
}

const boal = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Albania", abbreviatedName: "BoA" },
      { languageCode: "sq", name: "Banka e Shqipërisë", abbreviatedName: "BSH" },
    ],
    dailyUpdateTime: "12:15:00",
    bankCurrency: "ALL",
    countryCode: ["AL"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: SITE,
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The first day of the recorded 2024 workbook; older years are read by the same rules when asked for.
    coverageStart: "2024-01-03",
    // A year's workbook per chunk of the range.
    maxRangeDays: 366,
    sourceUrl: PAGE,
  },

  navigation: /\/Official_exchange_rate\/Exchage_rate_archive\/?$/,

  async fetch(range, { http }) {
    if (range.kind === "latest") return [await http.get(PAGE, { accept: "text/html" })];
    return fetchRange(http, range.from, range.to);
  },

  parse(body, ctx: ParseContext) {
    if (/\/rc\/doc\/[^?#]+\.xlsx?$/i.test(ctx.url)) return parseArchive(body, ctx.url);
    return parsePage(decodeText(ID, body));
  },
});

export default boal;

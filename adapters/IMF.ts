// International Monetary Fund: the representative exchange rates reported to the Fund, against the US
// dollar (base USD, Indirect: currency units per 1 USD).
// Endpoint: GET https://www.imf.org/external/np/fin/data/rms_mth.aspx?SelectDate=<last day of the
// month>&reportType=REP|SDRCV&tsvflag=Y, one report per month, served as application/vnd.ms-excel but
// tab-separated text.
// Format: a title line ("Representative Exchange Rates for Selected Currencies for March 2026", or
// "SDRs per Currency unit for ..."), then one or more tables, each a header row "Currency<TAB>March 02,
// 2026<TAB>..." followed by one row per currency, English currency NAMES in the first column; a blank
// line ends a table, and the report ends with its "Notes:". A month's dates are split over several
// tables one after another: every table is read.
// Quote: names marked "(1)" are quoted the other way (USD per currency unit) and are inverted to 10
// significant digits, flagged; another note number means a unit this adapter does not know (held).
// "NA" marks a day without a figure; thousands are grouped with commas ("1,435.400000"). The US dollar
// row of REP is 1.000000 throughout and is skipped. The SDRCV report (SDRs per currency unit) is used
// only for its U.S. dollar row, which is XDR per 1 USD. Published on IMF business days, around 14:00
// Washington time.
// A figure whose currency, note, date or number cannot be read is held; a report without its title,
// header row or notes (truncated), or whose header is not dates, is refused.
import {
  AnswerRows,
  FeedError,
  RowProblem,
  addDays,
  currencyOf,
  decodeText,
  defineAdapter,
  expectFeedText,
  invert,
  isoFromParts,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  todayIn,
  type CurrencyResolution,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "IMF";
const ENDPOINT = "https://www.imf.org/external/np/fin/data/rms_mth.aspx";
const TIME_ZONE = "America/New_York";

/**
 * The IMF's currency names no rule resolves (keys folded), each with why. The kit's resolver reads the
 * others: ICU's names ("Chinese yuan", "Israeli New Shekel", "Euro"), and by territory "Bahrain dinar",
 * "Barbados dollar", "Botswana pula", "Djibouti franc", "Fiji dollar", "Saudi Arabian riyal", "U.K.
 * pound"; "U.A.E. dirham" is ISO 4217's name.
 */
export const IMF_ALIASES: Readonly<Record<string, string>> = {
  // "Korean" fits both Koreas; the IMF's is the South's won.
  "korean won": "KRW",
  // The adjective of Trinidad and Tobago, which no rule derives from the two islands' names.
  "trinidadian dollar": "TTD",
};

/** The currency of an IMF name on a date, and how it was resolved; or a RowProblem (`unknown-currency`). */
export function imfCurrency(name: string, date?: IsoDate): CurrencyResolution {
  return resolveCurrencyName(ID, name, { aliases: IMF_ALIASES, date });
}

const lastDayOfMonth = (year: number, month: number): IsoDate =>
  new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);

/** A date column of a table: its header text and the ISO date (undefined when no such day exists). */
interface DateColumn {
  text: string;
  date: IsoDate | undefined;
}

/**
 * The columns of a "Currency" header row: `March 02, 2026` to ISO. A header cell that is not such a date
 * refuses the report (the layout changed); `April 31, 2026` is a date column of no real day.
 */
function headerColumns(cells: string[], line: number): Array<DateColumn | undefined> {
  return cells.slice(1).map((cell, i) => {
    const text = cell.trim();
    if (text === "") return undefined;
    const m = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})$/.exec(text);
    const month = m ? monthNumber(m[1]!) : undefined;
    if (!m || !month)
      throw new FeedError(ID, `line ${line}, column ${i + 2}: "${text}" is not a date like "March 02, 2026"`);
    return { text, date: isoFromParts(m[3]!, month, m[2]!) };
  });
}

/** One currency row of a table: each figure is read (or held) on its own. */
function readRow(
  rows: AnswerRows,
  sdr: boolean,
  table: Array<DateColumn | undefined>,
  label: string,
  cells: string[],
  line: number,
): void {
  const marker = /\((\d)\)\s*$/.exec(label);
  const name = label.replace(/\(\d\)\s*$/, "").trim();
  let resolved: CurrencyResolution = { currency: "" };
  let unknown: RowProblem | undefined;
  // The row's currency is resolved once, on the table's first date (a history of one month).
  const firstDate = table.find((column) => column?.date)?.date;
  try {
    resolved = imfCurrency(name, firstDate);
  } catch (error) {
    if (!(error instanceof RowProblem)) throw error;
    if (sdr) return; // SDRCV serves only the dollar's SDR value: other rows are not read
    unknown = error;
  }
  const currency = resolved.currency;
  if (sdr && currency !== "USD") return; // SDRCV serves only the dollar's SDR value
  if (!sdr && currency === "USD") return; // 1.000000 throughout
  cells.slice(1).forEach((raw, i) => {
    const cell = raw.trim();
    if (cell === "" || cell === "NA") return; // no figure that day
    const column = table[i];
    rows.read(
      `line ${line}, column ${i + 2}`,
      (): RateRecord => {
        if (unknown) throw unknown;
        if (!column) rowProblem(ID, "bad-date", `a figure in column ${i + 2}, which has no date`);
        const date = requireDate(ID, column.date, column.text);
        const value = requireDecimal(ID, cell, `${label} on ${date}`, { thousands: "," });
        if (!/[1-9]/.test(value)) rowProblem(ID, "bad-rate", `${label} on ${date}: a zero is no rate`);
        if (sdr) return { effectiveDate: date, currency: "XDR", rate: value };
        if (marker && marker[1] !== "1")
          rowProblem(ID, "unknown-unit", `"${label}" carries note (${marker[1]}), whose unit is not known here`);
        const named = currencyOf(resolved);
        return marker
          ? { effectiveDate: date, currency: named, rate: invert(value), derivation: "inverted" }
          : { effectiveDate: date, currency: named, rate: value };
      },
      { effectiveDate: column?.text ?? "", currency: label, rate: cell },
    );
  });
}

const imf = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "International Monetary Fund", abbreviatedName: "IMF" },
      { languageCode: "fr", name: "Fonds monétaire international", abbreviatedName: "FMI" },
      { languageCode: "es", name: "Fondo Monetario Internacional", abbreviatedName: "FMI" },
    ],
    dailyUpdateTime: "14:00:00",
    // The Fund's own unit is the SDR, which no country uses as its currency; the rates it publishes pivot on
    // the US dollar. countryCode names the Fund's seat (Washington), the one country tied to it.
    bankCurrency: "XDR",
    baseCurrency: "USD",
    countryCode: ["US"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.imf.org",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2003-01-01",
    maxRangeDays: 366,
    sourceUrl: `${ENDPOINT}?reportType=REP&tsvflag=Y`,
  },

  // Two reports per calendar month of the range, asked with the month's last day.
  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const { from, to } = range.kind === "range" ? range : { from: addDays(today.slice(0, 8) + "01", -1), to: today };
    const docs: FeedDocument[] = [];
    for (
      let year = Number(from.slice(0, 4)), month = Number(from.slice(5, 7));
      `${year}-${String(month).padStart(2, "0")}` <= to.slice(0, 7);
      month === 12 ? ((month = 1), year++) : month++
    ) {
      const day = lastDayOfMonth(year, month);
      for (const report of ["REP", "SDRCV"]) {
        docs.push(
          await http.get(`${ENDPOINT}?SelectDate=${day}&reportType=${report}&tsvflag=Y`, {
            accept: "text/tab-separated-values, application/vnd.ms-excel, text/plain",
          }),
        );
      }
    }
    return docs;
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "an IMF exchange-rate report (TSV)");
    const lines = text.split(/\r?\n/);
    if (lines.at(-1) === "") lines.pop(); // the final newline is no blank line
    const title = (lines[0] ?? "").trim();
    const sdr = /^SDRs per Currency unit/i.test(title);
    if (!sdr && !/^Representative Exchange Rates for Selected Currencies/i.test(title)) {
      throw new FeedError(ID, `not an IMF rates report: the first line is "${title.slice(0, 80)}"`);
    }
    const rows = new AnswerRows(ID);
    /** The date columns of the table being read; undefined between tables. */
    let table: Array<DateColumn | undefined> | undefined;
    let tables = 0;
    let notes = false;
    for (let n = 1; n < lines.length && !notes; n++) {
      const cells = lines[n]!.split("\t");
      const label = (cells[0] ?? "").trim();
      if (label === "Currency") {
        table = headerColumns(cells, n + 1);
        tables++;
      } else if (lines[n]!.trim() === "") {
        table = undefined; // a blank line ends a table
      } else if (/^Notes\b/i.test(label)) {
        notes = true;
      } else if (table === undefined) {
        // Text between tables (a repeated title) is skipped; a row of figures outside a table is not.
        if (cells.length > 1 && cells.slice(1).some((c) => c.trim() !== ""))
          throw new FeedError(ID, `line ${n + 1}: a row "${label}" outside any table (has the layout changed?)`);
      } else {
        readRow(rows, sdr, table, label, cells, n + 1);
      }
    }
    if (tables === 0) throw new FeedError(ID, `no "Currency" header row: not a rates table`);
    if (table !== undefined || !notes) throw new FeedError(ID, "the report ends without its notes: truncated?");
    return rows.result();
  },
});

export default imf;

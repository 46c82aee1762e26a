// Reserve Bank of Australia: statistical table F11.1 (exchange rates), as a CSV with a UTF-8
// BOM and 11 metadata rows before the data. Foreign units per 1 AUD (Indirect; the titles read
// "A$1=USD"). The ISO code of each column comes from the Units row (checked against its title);
// the trade-weighted index (Units "Index") is skipped, and the SDR column ("SDR") is XDR.
// The file is fetched whole (no date parameters); it covers 2023 onward.
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  readDecimal,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "RBA";
const FILE = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "03-Jan-2023" -> 2023-01-03. */
function dateOf(text: string): IsoDate | undefined {
  const m = /^(\d{2})-([A-Z][a-z]{2})-(\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2]!) + 1 : 0;
  return m && month > 0 ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

const rba = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Reserve Bank of Australia", abbreviatedName: "RBA" }],
    // The F11 rates are the 4.00 pm Sydney-time indicative rates, published the same afternoon.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "AUD",
    // Australia and the territories and states that use the Australian dollar.
    countryCode: ["AU", "CC", "CX", "HM", "KI", "NF", "NR", "TV"],
    region: ["Oceania"],
    timeZone: "Australia/Sydney",
    website: "https://www.rba.gov.au",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // f11.1-data.csv starts on 2023-01-03; older years are in other (spreadsheet) files.
    coverageStart: "2023-01-03",
    // One fetch returns the whole file, whatever the range.
    maxRangeDays: 3653,
    sourceUrl: FILE,
  },

  async fetch(_range, { http }) {
    return [await http.get(FILE, { accept: "text/csv, application/octet-stream" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const labelled = (label: string) => {
      const row = rows.find((r) => r[0] === label);
      if (!row) throw new FeedError(ID, `not the F11.1 table: no "${label}" row`);
      return row;
    };
    const titles = labelled("Title");
    const units = labelled("Units");
    const lastMeta = rows.indexOf(labelled("Series ID"));
    const columns: Array<{ at: number; currency: string }> = [];
    for (let c = 1; c < units.length; c++) {
      const unit = units[c] ?? "";
      if (unit === "Index") continue; // the trade-weighted index
      if (!/^[A-Z]{3}$/.test(unit)) throw new FeedError(ID, `column ${c + 1}: unit "${unit}" is not a currency code`);
      if (titles[c] !== `A$1=${unit}`)
        throw new FeedError(ID, `column ${c + 1}: title "${titles[c]}" does not match its unit ${unit}`);
      columns.push({ at: c, currency: unit === "SDR" ? "XDR" : unit });
    }
    const records: RateRecord[] = [];
    for (let i = lastMeta + 1; i < rows.length; i++) {
      const row = rows[i]!;
      const date = dateOf(row[0] ?? "");
      if (!date) throw new FeedError(ID, `data row ${i + 1}: date "${row[0]}" is not like 03-Jan-2023`);
      if (row.length !== units.length)
        throw new FeedError(ID, `data row ${i + 1} (${date}) has ${row.length} cells, not ${units.length}: truncated?`);
      for (const { at, currency } of columns) {
        const raw = row[at] ?? "";
        if (raw === "") continue; // no rate that day
        const rate = readDecimal(raw);
        if (rate === undefined) throw new FeedError(ID, `${currency} on ${date}: "${raw}" is not a decimal`);
        records.push({ effectiveDate: date, currency, rate });
      }
    }
    return records;
  },
});

export default rba;

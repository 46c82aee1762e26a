// Reserve Bank of Australia: statistical table F11.1 (exchange rates), f11.1-data.csv, fetched whole
// (no date parameters; it covers 2023 onward, older years being in other files). A CSV with a UTF-8
// BOM and 11 metadata rows (Title, Description, Frequency, Type, Units, Source, Publication date,
// Series ID) before one row per day, dated like 03-Jan-2023. Foreign units per 1 AUD (Indirect; the
// titles read "A$1=USD"): the 4.00 pm Sydney-time indicative rates, published the same afternoon on
// working days. The ISO code of each column comes from the Units row, checked against its title (a
// title that does not match means the layout changed); the trade-weighted index (Units "Index") is
// skipped, and the SDR column ("SDR") is XDR. A blank cell is a day without a rate for that currency.
import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
} from "../src/feed/kit.js";
import { readCsv } from "../src/feed/csv.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "RBA";
const FILE = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv";
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
    const rows = readCsv(ID, decodeText(ID, body), { relaxColumnCount: true });
    const labelled = (label: string) => {
      const row = rows.find((r) => r[0] === label);
      if (!row) throw new FeedError(ID, `not the F11.1 table: no "${label}" row`);
      return row;
    };
    const titles = labelled("Title");
    const units = labelled("Units");
    const lastMeta = rows.indexOf(labelled("Series ID"));
    const columns: Array<{ at: number; label: string }> = [];
    for (let c = 1; c < units.length; c++) {
      const unit = units[c] ?? "";
      if (unit === "Index") continue; // the trade-weighted index
      if (titles[c] !== `A$1=${unit}`)
        throw new FeedError(ID, `column ${c + 1}: title "${titles[c]}" does not match its unit "${unit}"`);
      columns.push({ at: c, label: unit });
    }
    const answer = new AnswerRows(ID);
    for (let i = lastMeta + 1; i < rows.length; i++) {
      const row = rows[i]!;
      const rawDate = row[0] ?? "";
      if (row.length < units.length) {
        if (i === rows.length - 1)
          throw new FeedError(ID, `the last row has ${row.length} cells, not ${units.length}: truncated?`);
        answer.hold(`row ${i + 1} (${rawDate})`, "bad-row", `${row.length} cells under ${units.length} columns`, {
          effectiveDate: rawDate,
        });
        continue;
      }
      for (const { at, label } of columns) {
        const raw = row[at] ?? "";
        answer.read(
          `row ${i + 1} (${rawDate}) ${label}`,
          () => {
            if (raw === "") return undefined; // no rate that day
            const date = requireDate(ID, fromDayMonthName(rawDate), rawDate);
            const currency = label === "SDR" ? "XDR" : requireCurrencyCode(ID, label);
            return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${label} on ${rawDate}`) };
          },
          { effectiveDate: rawDate, currency: label, rate: raw },
        );
      }
    }
    return answer.result();
  },
});

export default rba;

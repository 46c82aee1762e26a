// Bank of Botswana: the whole history of its daily rates as one CSV export
// (https://www.bankofbotswana.bw/export/exchange-rates.csv?page&_format=csv, no date parameters: the
// latest and any range read the same file). Newest rows first, but not strictly ordered.
// - Columns: `Date` (`19 Mar 2026`), then one column per currency, foreign units per 1 BWP (Indirect).
//   Labels are the bank's: CHN (China's country code) is the Chinese yuan, YEN the Japanese yen, SDR the
//   IMF's XDR, all read by the kit's resolver (a territory's code, a unit, the standard's abbreviation);
//   the others are ISO codes. A label no one knows holds its figures; a file without Date or USD columns
//   is not the export.
// - A 0.0000 cell means "not published" (CHN before the yuan was quoted, a few YEN gaps) and is skipped.
// - Published on business days, checked from 12:00 Gaborone time (10:00-12:30 UTC).
import { AnswerRows, decodeText, defineAdapter, requireDecimal, resolveCurrency } from "../src/feed/kit.js";
import { csvColumns, readCsv } from "../src/feed/csv.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BOB";
const EXPORT = "https://www.bankofbotswana.bw/export/exchange-rates.csv?page&_format=csv";

const bob = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of Botswana", abbreviatedName: "BoB" }],
    // Published within 10:00-12:30 UTC, i.e. from 12:00 in Gaborone (UTC+2).
    dailyUpdateTime: "12:00:00",
    bankCurrency: "BWP",
    countryCode: ["BW"],
    region: ["Africa"],
    timeZone: "Africa/Gaborone",
    website: "https://www.bankofbotswana.bw",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2001-01-03",
    // One request returns the whole history; a backfill needs a single chunk.
    maxRangeDays: 36500,
    sourceUrl: EXPORT,
  },

  async fetch(_range, { http }) {
    // The export has no date parameters: latest and any range read the same file, filtered downstream.
    return [await http.get(EXPORT, { accept: "text/csv" })];
  },

  parse(body) {
    const [header = [], ...lines] = readCsv(ID, decodeText(ID, body));
    const at = csvColumns(ID, header, ["Date", "USD"], "the Bank of Botswana export");
    const rows = new AnswerRows(ID);
    lines.forEach((line, i) => {
      const day = line[at.Date] ?? "";
      const date = fromDayMonthName(day);
      if (!date)
        return rows.hold(`line ${i + 2}`, "bad-date", `Date "${day}" is not a real date`, { effectiveDate: day });
      header.forEach((label, c) => {
        const raw = line[c] ?? "";
        if (c === at.Date || raw === "") return;
        rows.read(
          `line ${i + 2} ${label}`,
          () => {
            const rate = requireDecimal(ID, raw, `${label} on ${date}`);
            if (!/[1-9]/.test(rate)) return undefined; // 0.0000: not published that day
            return { effectiveDate: date, currency: resolveCurrency(ID, label, { date }), rate };
          },
          { effectiveDate: day, currency: label, rate: raw },
        );
      });
    });
    return rows.result();
  },
});

export default bob;

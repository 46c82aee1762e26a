// Bank of Botswana: the whole history of its daily rates as one CSV export (newest rows first, but
// not strictly ordered), one column per currency, foreign units per 1 BWP (Indirect). Column labels
// are the bank's: CHN is the Chinese yuan (CNY), YEN the Japanese yen, SDR the IMF's XDR. A 0.0000
// cell means "not published" (CHN before the yuan was quoted, a few YEN gaps) and is skipped.
import { parse as parseCsv } from "csv-parse/sync";

import { FeedError, decodeText, defineAdapter, expectFeedText, readDecimal, type RateRecord } from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BOB";
const EXPORT = "https://www.bankofbotswana.bw/export/exchange-rates.csv?page&_format=csv";

/** The export's column labels to ISO 4217 codes. An unknown label is an error, never a guess. */
export const BOB_COLUMNS: Readonly<Record<string, string>> = {
  CHN: "CNY",
  EUR: "EUR",
  GBP: "GBP",
  USD: "USD",
  SDR: "XDR",
  YEN: "JPY",
  ZAR: "ZAR",
};

const bob = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of Botswana", abbreviatedName: "BoB" }],
    // BANKS.md: published within 10:00-12:30 UTC, i.e. from 12:00 in Gaborone (UTC+2).
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
    const text = expectFeedText(ID, decodeText(ID, body), "CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: false, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = rows[0];
    if (!header || header[0] !== "Date")
      throw new FeedError(ID, `not the Bank of Botswana export: first column is "${header?.[0] ?? ""}", not "Date"`);
    const columns = header.slice(1).map((label) => {
      const code = BOB_COLUMNS[label];
      if (!code) throw new FeedError(ID, `unknown column label "${label}"`);
      return code;
    });
    if (!columns.includes("USD")) throw new FeedError(ID, 'the "USD" column is missing');
    const records: RateRecord[] = [];
    for (const [i, row] of rows.slice(1).entries()) {
      const date = fromDayMonthName(row[0] ?? "");
      if (!date) throw new FeedError(ID, `row ${i + 2}: date "${row[0] ?? ""}" is not like "19 Mar 2026"`);
      columns.forEach((currency, c) => {
        const raw = row[c + 1] ?? "";
        if (raw === "") return;
        const rate = readDecimal(raw);
        if (rate === undefined) throw new FeedError(ID, `${date} ${currency}: "${raw}" is not a decimal number`);
        if (!/[1-9]/.test(rate)) return; // 0.0000: not published that day
        records.push({ effectiveDate: date, currency, rate });
      });
    }
    return records;
  },
});

export default bob;

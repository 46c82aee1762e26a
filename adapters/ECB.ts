// European Central Bank: euro foreign exchange reference rates from the ECB Data Portal, as SDMX-CSV.
// 1 EUR = X foreign (Indirect). Columns are found by name: the live answer has ~30, recordings 4.
// papaparse, not csv-parse: a 26-year history is 200k rows, and papaparse reads it 3-4x faster
// (BENCHMARKS.md, import).
import Papa from "papaparse";

import { FeedError, decodeText, defineAdapter, expectFeedText, isIsoDate, readDecimal, recentDays, type RateRecord } from "../src/feed/kit.js";

const ID = "ECB";
const ENDPOINT = "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A";
const CURRENCY = /^[A-Z]{3}$/;
const TIME_ZONE = "Europe/Berlin";

const ecb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "European Central Bank", abbreviatedName: "ECB" },
      { languageCode: "de", name: "Europäische Zentralbank", abbreviatedName: "EZB" },
      { languageCode: "fr", name: "Banque centrale européenne", abbreviatedName: "BCE" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "EUR",
    // The euro area in 2026, Bulgaria included from 1 January 2026.
    countryCode: ["AT", "BE", "BG", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PT", "SI", "SK"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.ecb.europa.eu",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?format=csvdata`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?format=csvdata&startPeriod=${from}&endPeriod=${to}`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "SDMX-CSV");
    const { data: rows, errors } = Papa.parse<string[]>(text, { skipEmptyLines: true });
    const fatal = errors.find((e) => e.type === "Quotes" || e.type === "Delimiter");
    if (fatal) throw new FeedError(ID, `malformed CSV (${fatal.message} at row ${(fatal.row ?? 0) + 1})`);
    const header = (rows[0] ?? []).map((h) => h.trim());
    const column = (name: string) => {
      const at = header.indexOf(name);
      if (at < 0) throw new FeedError(ID, `not an SDMX-CSV answer: no ${name} column in "${header.join(",").slice(0, 80)}"`);
      return at;
    };
    const [freq, currency, period, value] = ["FREQ", "CURRENCY", "TIME_PERIOD", "OBS_VALUE"].map(column) as [number, number, number, number];
    const records: RateRecord[] = [];
    const goodDates = new Set<string>();
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      if (row[freq]?.trim() !== "D" || !CURRENCY.test(row[currency]?.trim() ?? "")) continue;
      const raw = row[value]?.trim() ?? "";
      if (raw === "" || raw === "NaN") continue; // no observation that day
      const date = row[period]?.trim() ?? "";
      if (!goodDates.has(date)) {
        if (!isIsoDate(date)) throw new FeedError(ID, `line ${i + 1}: TIME_PERIOD "${date}" is not a date`);
        goodDates.add(date);
      }
      const rate = readDecimal(raw);
      if (rate === undefined) throw new FeedError(ID, `line ${i + 1}: OBS_VALUE "${raw}" is not a decimal`);
      records.push({ effectiveDate: date, currency: row[currency]!.trim(), rate });
    }
    return records;
  },
});

export default ecb;

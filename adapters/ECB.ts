// European Central Bank: euro foreign exchange reference rates from the ECB Data Portal, as SDMX-CSV.
// 1 EUR = X foreign (Indirect). Columns are found by name: the live answer has ~30, recordings 4.
// papaparse, not csv-parse: a 26-year history is 200k rows, and papaparse reads it 3-4x faster
// (BENCHMARKS.md, import).
import Papa from "papaparse";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  isIsoDate,
  readDecimal,
  recentDays,
  type RateRecord,
} from "../src/feed/kit.js";

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
    countryCode: [
      "AT",
      "BE",
      "BG",
      "CY",
      "DE",
      "EE",
      "ES",
      "FI",
      "FR",
      "GR",
      "HR",
      "IE",
      "IT",
      "LT",
      "LU",
      "LV",
      "MT",
      "NL",
      "PT",
      "SI",
      "SK",
    ],
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

  // Streams the rows (papaparse's step): a 26-year history is 200k rows, and rows that die young
  // cost the garbage collector far less than one array of them all.
  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "SDMX-CSV");
    const records: RateRecord[] = [];
    const dates = new Map<string, string>(); // checked once, one string per date
    let columns: [number, number, number, number] | undefined;
    let line = 0;
    let failure: FeedError | undefined;
    const fail = (error: FeedError) => {
      failure ??= error;
    };
    Papa.parse<string[]>(text, {
      skipEmptyLines: true,
      step: ({ data: row, errors }, parser) => {
        line++;
        const fatal = errors.find((e) => e.type === "Quotes" || e.type === "Delimiter");
        if (fatal) return (fail(new FeedError(ID, `malformed CSV (${fatal.message} at line ${line})`)), parser.abort());
        if (!columns) {
          const header = row.map((h) => h.trim());
          const missing = ["FREQ", "CURRENCY", "TIME_PERIOD", "OBS_VALUE"].find((name) => !header.includes(name));
          if (missing)
            return (
              fail(
                new FeedError(ID, `not an SDMX-CSV answer: no ${missing} column in "${header.join(",").slice(0, 80)}"`),
              ),
              parser.abort()
            );
          columns = ["FREQ", "CURRENCY", "TIME_PERIOD", "OBS_VALUE"].map((name) => header.indexOf(name)) as [
            number,
            number,
            number,
            number,
          ];
          return;
        }
        const [freq, currency, period, value] = columns;
        const code = row[currency]?.trim() ?? "";
        if (row[freq]?.trim() !== "D" || !CURRENCY.test(code)) return;
        const raw = row[value]?.trim() ?? "";
        if (raw === "" || raw === "NaN") return; // no observation that day
        const rawDate = row[period]?.trim() ?? "";
        let date = dates.get(rawDate);
        if (date === undefined) {
          if (!isIsoDate(rawDate))
            return (fail(new FeedError(ID, `line ${line}: TIME_PERIOD "${rawDate}" is not a date`)), parser.abort());
          dates.set(rawDate, (date = rawDate));
        }
        const rate = readDecimal(raw);
        if (rate === undefined)
          return (fail(new FeedError(ID, `line ${line}: OBS_VALUE "${raw}" is not a decimal`)), parser.abort());
        records.push({ effectiveDate: date, currency: code, rate });
      },
    });
    if (failure) throw failure;
    if (!columns) throw new FeedError(ID, "not an SDMX-CSV answer: no header row");
    return records;
  },
});

export default ecb;

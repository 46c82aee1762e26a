// Banca d'Italia: the daily exchange rates of the euro against about 150 currencies (the ECB
// reference rates plus the bank's own indicative rates for the others), as CSV, one call per day.
// Foreign units per 1 EUR (Indirect). The CSV ends with a "#" disclaimer; "N.A." marks a currency
// without a rate that day. A currency used by several countries (XOF, XAF, XCD) has one row each.
import { parse as parseCsv } from "csv-parse/sync";

import {
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  FeedError,
  isIsoDate,
  pause,
  readDecimal,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BDI";
const ENDPOINT = "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates";
const TIME_ZONE = "Europe/Rome";
const CONVENTION = "Foreign currency amount for 1 Euro.";
const COLUMNS = ["ISO Code", "Rate", "Rate convention", "Reference date (CET)"] as const;

const dayUrl = (date: IsoDate) => `${ENDPOINT}?referenceDate=${date}&currencyIsoCode=EUR&lang=en`;

const bdi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Italy", abbreviatedName: "BdI" },
      { languageCode: "it", name: "Banca d'Italia", abbreviatedName: "BdI" },
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
    website: "https://www.bancaditalia.it",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-04",
    maxRangeDays: 31,
    sourceUrl: `${ENDPOINT}?currencyIsoCode=EUR&lang=en`,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    // Latest: the last few weekdays, so that a day not yet published or a holiday still leaves the newest.
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-3);
    const docs: FeedDocument[] = [];
    for (const [i, day] of days.entries()) {
      if (i > 0) await pause(300); // the portal asks for a pause between calls
      docs.push(await http.get(dayUrl(day), { accept: "text/csv" }));
    }
    return docs;
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "CSV");
    // The disclaimer lines start with "#" and may hold any punctuation: drop them before parsing.
    const data = text
      .split(/\r?\n/)
      .filter((line) => !line.startsWith("#"))
      .join("\n");
    let rows: string[][];
    try {
      rows = parseCsv(data, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = rows[0] ?? [];
    const [iso, rateAt, conventionAt, dateAt] = COLUMNS.map((name) => {
      const at = header.indexOf(name);
      if (at < 0)
        throw new FeedError(
          ID,
          `not a Banca d'Italia daily-rates CSV: no "${name}" column in "${header.join(",").slice(0, 100)}"`,
        );
      return at;
    }) as [number, number, number, number];
    const byCurrency = new Map<string, RateRecord>();
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      const where = `line ${i + 1}`;
      if (row.length !== header.length)
        throw new FeedError(ID, `${where}: ${row.length} fields where the header has ${header.length} (truncated?)`);
      const currency = row[iso]!;
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `${where}: ISO Code "${currency}" is not a currency code`);
      if (currency === "EUR") continue;
      const raw = row[rateAt]!;
      if (raw === "N.A." || raw === "") continue; // no rate for that currency that day
      if (row[conventionAt] !== CONVENTION)
        throw new FeedError(ID, `${where}: unexpected rate convention "${row[conventionAt]}"`);
      const date = row[dateAt]!;
      if (!isIsoDate(date)) throw new FeedError(ID, `${where}: reference date "${date}" is not a date`);
      const rate = readDecimal(raw);
      if (rate === undefined || !/[1-9]/.test(rate))
        throw new FeedError(ID, `${where}: rate "${raw}" of ${currency} is not a positive decimal`);
      const key = `${date} ${currency}`;
      const seen = byCurrency.get(key);
      if (seen && seen.rate !== rate)
        throw new FeedError(ID, `${currency} on ${date}: two different rates, ${seen.rate} and ${rate}`);
      byCurrency.set(key, { effectiveDate: date, currency, rate });
    }
    return [...byCurrency.values()];
  },
});

export default bdi;

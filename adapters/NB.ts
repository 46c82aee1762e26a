// Norges Bank: daily exchange rates from the Norges Bank data API, as SDMX-CSV.
// NOK per 10^UNIT_MULT units of BASE_CUR (Direct): UNIT_MULT 2 (per 100) is kept as
// unitMultiplier 2, the figure as published. Only FREQ=B (business-day) rows are read; the
// indices I44 and TWI (3-character codes that are no currencies) are skipped, XDR is kept.
import { parse as parseCsv } from "csv-parse/sync";

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

const ID = "NB";
const TIME_ZONE = "Europe/Oslo";
const ENDPOINT = "https://data.norges-bank.no/api/data/EXR/B..NOK.SP";
const INDICES = new Set(["I44", "TWI"]);

const nb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Norges Bank", abbreviatedName: "NB" },
      { languageCode: "no", name: "Norges Bank", abbreviatedName: "NB" },
    ],
    // "Publication time of daily exchange rates is approximately 16:00 CET" (norges-bank.no).
    dailyUpdateTime: "16:00:00",
    bankCurrency: "NOK",
    // Norway with Svalbard and Jan Mayen and Bouvet Island.
    countryCode: ["NO", "SJ", "BV"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.norges-bank.no",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The bank's exchange rate pages go back to 1960 (not verified against the API).
    coverageStart: "1960-01-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?format=csvdata`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [await http.get(`${ENDPOINT}?format=csvdata&startPeriod=${from}&endPeriod=${to}`, { accept: "text/csv" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "SDMX-CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = rows[0] ?? [];
    const column = (name: string) => {
      const at = header.indexOf(name);
      if (at < 0)
        throw new FeedError(
          ID,
          `not a Norges Bank SDMX-CSV answer: no ${name} column in "${header.join(",").slice(0, 80)}"`,
        );
      return at;
    };
    const [freq, base, quote, mult, period, value] = [
      "FREQ",
      "BASE_CUR",
      "QUOTE_CUR",
      "UNIT_MULT",
      "TIME_PERIOD",
      "OBS_VALUE",
    ].map(column) as number[];
    const records: RateRecord[] = [];
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      const where = `line ${i + 1}`;
      if (row[freq!] !== "B") continue;
      const currency = row[base!] ?? "";
      if (INDICES.has(currency)) continue;
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `${where}: BASE_CUR "${currency}" is not a currency code`);
      if (row[quote!] !== "NOK") throw new FeedError(ID, `${where}: QUOTE_CUR "${row[quote!]}" is not NOK`);
      const raw = row[value!] ?? "";
      if (raw === "" || raw === "NaN") continue; // no observation
      const date = row[period!] ?? "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${where}: TIME_PERIOD "${date}" is not a date`);
      const rate = readDecimal(raw);
      if (rate === undefined) throw new FeedError(ID, `${where}: OBS_VALUE "${raw}" is not a decimal`);
      const unit = row[mult!] ?? "";
      if (!/^\d$/.test(unit)) throw new FeedError(ID, `${where}: UNIT_MULT "${unit}" is not 0-9`);
      records.push(
        unit === "0"
          ? { effectiveDate: date, currency, rate }
          : { effectiveDate: date, currency, rate, unitMultiplier: Number(unit) },
      );
    }
    return records;
  },
});

export default nb;

// Bank of Israel: representative exchange rates from the FusionEdge SDMX API, as SDMX CSV.
// ILS per 10^UNIT_MULT units of BASE_CURRENCY (Direct): JPY per 100 and LBP per 10 are kept
// as unitMultiplier 2 and 1, the figures as published. The representative rate is selected
// with the bracketed key c[DATA_TYPE]=OF00, and rows of any other DATA_TYPE are refused.
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

const ID = "BOI";
const TIME_ZONE = "Asia/Jerusalem";
const ENDPOINT = "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/";

const boi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Israel", abbreviatedName: "BOI" },
      { languageCode: "he", name: "בנק ישראל", abbreviatedName: "בנק ישראל" },
    ],
    // Representative rates are published at about 15:30 (12:30 on Fridays and holiday eves).
    dailyUpdateTime: "15:30:00",
    bankCurrency: "ILS",
    // Israel, and the Palestinian territories where the shekel is the currency in use.
    countryCode: ["IL", "PS"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.boi.org.il",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The new shekel since 4 September 1985 (how far back the API serves is not verified).
    coverageStart: "1985-09-04",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?c%5BDATA_TYPE%5D=OF00&format=csv`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?c%5BDATA_TYPE%5D=OF00&startperiod=${from}&endperiod=${to}&format=csv`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "SDMX CSV");
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
          `not a Bank of Israel SDMX CSV: no ${name} column in "${header.join(",").slice(0, 80)}"`,
        );
      return at;
    };
    const [base, counter, type, mult, period, value] = [
      "BASE_CURRENCY",
      "COUNTER_CURRENCY",
      "DATA_TYPE",
      "UNIT_MULT",
      "TIME_PERIOD",
      "OBS_VALUE",
    ].map(column) as number[];
    const records: RateRecord[] = [];
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      const where = `line ${i + 1}`;
      if (row[type!] !== "OF00")
        throw new FeedError(ID, `${where}: DATA_TYPE "${row[type!]}" is not the representative rate OF00`);
      if (row[counter!] !== "ILS") throw new FeedError(ID, `${where}: COUNTER_CURRENCY "${row[counter!]}" is not ILS`);
      const currency = row[base!] ?? "";
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `${where}: BASE_CURRENCY "${currency}" is not a currency code`);
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

export default boi;

// Board of Governors of the Federal Reserve System: the H.10 daily noon buying rates in New York,
// from the keyless Data Download Program (DDP) as CSV with five label rows (Series Description,
// Unit, Multiplier, Currency, Unique Identifier) and a "Time Period" row of series ids.
// Declared Indirect (foreign units per 1 USD, as most series are: unit "Currency:_Per_USD", the
// foreign code in the Currency row). The EUR, GBP, AUD and NZD series are USD per 1 unit (unit
// "Currency:_Per_EUR", Currency row "USD") and are inverted exactly to 10 significant digits
// (derivation "inverted"). "ND" marks a day without a rate. Only daily series (".B." ids, dated
// YYYY-MM-DD) are rates of a day: monthly averages (".M.") read as no records. A daily series with a
// Multiplier other than 1 is refused: the recordings show that row is not reliable (the monthly
// GBP series says 0.00999999978 while its figures, 1.6404 in 2000-01, are plain USD per pound).
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  invert,
  isIsoDate,
  readDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "FRB";
const DDP = "https://www.federalreserve.gov/datadownload/Output.aspx";
/** The DDP package of every H.10 daily series. */
const H10_DAILY = "60f32914ab61dfab590e0e470153e3ae";
const CODE = /^[A-Z]{3}$/;
const MISSING = new Set(["ND", "NA", ""]);

const mmddyyyy = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;

interface Column {
  index: number;
  currency: string;
  inverted: boolean;
}

const frb = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Board of Governors of the Federal Reserve System", abbreviatedName: "FRB" }],
    // The H.10 release is published weekly, on Mondays at 4:15 p.m. Eastern, with a rate per business day.
    dailyUpdateTime: "16:15:00",
    bankCurrency: "USD",
    // The United States and the territories and states whose official currency is the US dollar.
    countryCode: [
      "US",
      "AS",
      "BQ",
      "EC",
      "FM",
      "GU",
      "IO",
      "MH",
      "MP",
      "PA",
      "PR",
      "PW",
      "SV",
      "TC",
      "TL",
      "UM",
      "VG",
      "VI",
    ],
    region: ["Americas"],
    timeZone: "America/New_York",
    website: "https://www.federalreserve.gov",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1971-01-04",
    maxRangeDays: 366,
    sourceUrl: `${DDP}?rel=H10&series=${H10_DAILY}&filetype=csv&label=include&layout=seriescolumn`,
  },

  async fetch(range, { http }) {
    const window =
      range.kind === "range"
        ? `lastobs=&from=${mmddyyyy(range.from)}&to=${mmddyyyy(range.to)}`
        : "lastobs=10&from=&to=";
    const url = `${DDP}?rel=H10&series=${H10_DAILY}&${window}&filetype=csv&label=include&layout=seriescolumn`;
    return [await http.get(url, { accept: "text/csv" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "DDP CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const labelled = (label: string) => {
      const row = rows.find((r) => r[0] === label);
      if (!row) throw new FeedError(ID, `not a DDP download: no "${label}" row`);
      return row;
    };
    const units = labelled("Unit:");
    const multipliers = labelled("Multiplier:");
    const currencies = labelled("Currency:");
    const ids = labelled("Time Period");
    const start = rows.indexOf(ids) + 1;
    const columns: Column[] = [];
    for (let c = 1; c < ids.length; c++) {
      const id = ids[c] ?? "";
      if (!/\.B\./.test(id)) continue; // not a daily series (monthly .M., annual .A.)
      const unit = /^Currency:_Per_([A-Z]{3})$/.exec(units[c] ?? "");
      const listed = currencies[c] ?? "";
      if (!unit || !CODE.test(listed))
        throw new FeedError(ID, `${id}: unit "${units[c]}" / currency "${listed}" not understood`);
      if ((multipliers[c] ?? "") !== "1") throw new FeedError(ID, `${id}: Multiplier "${multipliers[c]}" is not 1`);
      if (unit[1] === "USD") {
        if (listed === "USD") throw new FeedError(ID, `${id}: USD per USD`);
        columns.push({ index: c, currency: listed, inverted: false });
      } else {
        if (listed !== "USD") throw new FeedError(ID, `${id}: ${listed} per ${unit[1]} is not a dollar price`);
        columns.push({ index: c, currency: unit[1]!, inverted: true });
      }
    }
    const records: RateRecord[] = [];
    for (const row of rows.slice(start)) {
      const date = row[0] ?? "";
      if (columns.length === 0) break;
      if (!isIsoDate(date)) throw new FeedError(ID, `Time Period "${date}" is not a day`);
      if (row.length !== ids.length) throw new FeedError(ID, `${date}: ${row.length} fields for ${ids.length} columns`);
      for (const col of columns) {
        const raw = row[col.index] ?? "";
        if (MISSING.has(raw)) continue;
        const rate = readDecimal(raw);
        if (rate === undefined) throw new FeedError(ID, `${col.currency} on ${date}: "${raw}" is not a decimal`);
        records.push(
          col.inverted
            ? { effectiveDate: date, currency: col.currency, rate: invert(rate), derivation: "inverted" }
            : { effectiveDate: date, currency: col.currency, rate },
        );
      }
    }
    return records;
  },
});

export default frb;

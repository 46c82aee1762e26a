// Bank of England: daily spot exchange rates against sterling from the Bank's Statistical
// Interactive Database, as a pivoted CSV (a DATE column, then one column per series code).
// Foreign units per 1 GBP (Indirect), as published; the series codes are mapped to ISO codes
// below, dates look like "17 Mar 2026", and an empty cell is a day without a value.
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BOE";
const TIME_ZONE = "Europe/London";
const ENDPOINT = "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp";

/** Series code (spot rate against sterling) -> ISO code. */
export const BOE_SERIES: Readonly<Record<string, string>> = {
  XUDLUSS: "USD",
  XUDLERS: "EUR",
  XUDLJYS: "JPY",
  XUDLCDS: "CAD",
  XUDLSFS: "CHF",
  XUDLADS: "AUD",
  XUDLNDS: "NZD",
  XUDLNKS: "NOK",
  XUDLSKS: "SEK",
  XUDLDKS: "DKK",
  XUDLHDS: "HKD",
  XUDLSGS: "SGD",
  XUDLSRS: "SAR",
  XUDLZRS: "ZAR",
  XUDLTWS: "TWD",
  XUDLBK25: "CZK",
  XUDLBK33: "HUF",
  XUDLBK47: "PLN",
  XUDLBK78: "ILS",
  XUDLBK83: "MYR",
  XUDLBK87: "THB",
  XUDLBK89: "CNY",
  XUDLBK93: "KRW",
  XUDLBK95: "TRY",
  XUDLBK97: "INR",
  XUDLZOS4: "RON",
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "17 Mar 2026" -> 2026-03-17. */
function dateOf(text: string): IsoDate | undefined {
  const m = /^(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2]!) + 1 : 0;
  return m && month > 0 ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

/** 2026-03-17 -> 17/Mar/2026, the database's query syntax. */
const queryDate = (date: IsoDate) => `${date.slice(8, 10)}/${MONTHS[Number(date.slice(5, 7)) - 1]}/${date.slice(0, 4)}`;

const boe = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of England", abbreviatedName: "BoE" }],
    // The rates are observed by the Bank's foreign exchange desk at about 4 pm London time.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "GBP",
    // The United Kingdom, the Crown Dependencies and South Georgia use sterling.
    countryCode: ["GB", "GG", "IM", "JE", "GS"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bankofengland.co.uk",
    quoteType: "Indirect",
    publicationDays: [1, 2, 3, 4, 5],
    // XUDLUSS starts in 1975; most other series later (the euro in 1999).
    coverageStart: "1975-01-02",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url =
      `${ENDPOINT}?csv.x=yes&SeriesCodes=${Object.keys(BOE_SERIES).join(",")}&UsingCodes=Y&CSVF=TN` +
      `&Datefrom=${queryDate(from)}&Dateto=${queryDate(to)}`;
    return [await http.get(url, { accept: "text/csv, application/csv" })];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: false, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = rows[0] ?? [];
    if (header[0] !== "DATE")
      throw new FeedError(ID, `not a database CSV: the first column is "${String(header[0]).slice(0, 40)}", not DATE`);
    const currencies = header.slice(1).map((code) => {
      const currency = BOE_SERIES[code];
      if (!currency) throw new FeedError(ID, `unknown series "${code}" in the header`);
      return currency;
    });
    const records: RateRecord[] = [];
    for (let i = 1; i < rows.length; i++) {
      const row = rows[i]!;
      const date = dateOf(row[0] ?? "");
      if (!date) throw new FeedError(ID, `line ${i + 1}: date "${row[0]}" is not like "17 Mar 2026"`);
      currencies.forEach((currency, c) => {
        const raw = row[c + 1] ?? "";
        if (raw === "") return; // no value that day
        const rate = readDecimal(raw);
        if (rate === undefined) throw new FeedError(ID, `line ${i + 1}: ${currency} "${raw}" is not a decimal`);
        records.push({ effectiveDate: date, currency, rate });
      });
    }
    return records;
  },
});

export default boe;

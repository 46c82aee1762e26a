// Danmarks Nationalbank: the daily exchange rates (table DNVALD, rate type KBH) from Statistics
// Denmark's StatBank API, as a ';'-separated CSV (VALUTA;KURTYP;TID;INDHOLD). DKK per 100
// foreign units (Direct): the figure is kept as published with unitMultiplier 2. Time codes look
// like 2025M07D08; ".." marks a missing value; a BOM may lead the body.
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

const ID = "DNB";
const TIME_ZONE = "Europe/Copenhagen";
const API = "https://api.statbank.dk/v1/data";

/** The currencies asked for (the table's codes). */
export const DNB_CURRENCIES = [
  "EUR",
  "USD",
  "GBP",
  "SEK",
  "NOK",
  "CHF",
  "CAD",
  "JPY",
  "AUD",
  "NZD",
  "PLN",
  "CZK",
  "HUF",
  "HKD",
  "SGD",
  "ZAR",
  "BGN",
  "RON",
  "TRY",
  "KRW",
  "THB",
  "MYR",
  "PHP",
  "IDR",
  "CNY",
  "BRL",
  "MXN",
  "INR",
  "ILS",
  "ISK",
] as const;

/** 2025-07-08 -> 2025M07D08, StatBank's day code. */
const timeCode = (date: IsoDate) => `${date.slice(0, 4)}M${date.slice(5, 7)}D${date.slice(8, 10)}`;

function dateOf(code: string): IsoDate | undefined {
  const m = /^(\d{4})M(\d{2})D(\d{2})$/.exec(code);
  return m ? isoFromParts(m[1]!, m[2]!, m[3]!) : undefined;
}

/** The JSON request body of one StatBank data call. */
export function dnbRequest(time: string): string {
  return JSON.stringify({
    table: "DNVALD",
    format: "BULK",
    lang: "en",
    valuePresentation: "Code",
    variables: [
      { code: "VALUTA", values: DNB_CURRENCIES },
      { code: "KURTYP", values: ["KBH"] },
      { code: "Tid", values: [time] },
    ],
  });
}

const dnb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Danmarks Nationalbank", abbreviatedName: "DN" },
      { languageCode: "da", name: "Danmarks Nationalbank", abbreviatedName: "Nationalbanken" },
    ],
    // Published on the bank's site at about 16:00, once the ECB has published; StatBank has them
    // from 09:00 on the following banking day.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "DKK",
    // Denmark with the Faroe Islands and Greenland.
    countryCode: ["DK", "FO", "GL"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.nationalbanken.dk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1977-01-03",
    maxRangeDays: 365,
    sourceUrl: API,
  },

  async fetch(range, { http }) {
    const time =
      range.kind === "range"
        ? `>=${timeCode(range.from)}<=${timeCode(range.to)}`
        : `>=${timeCode(recentDays(TIME_ZONE, 10).from)}`;
    return [
      await http.post(API, dnbRequest(time), { accept: "text/csv", headers: { "content-type": "application/json" } }),
    ];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "StatBank CSV");
    let rows: string[][];
    try {
      rows = parseCsv(text, { delimiter: ";", skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const header = (rows[0] ?? []).join(";");
    if (header !== "VALUTA;KURTYP;TID;INDHOLD")
      throw new FeedError(ID, `not a DNVALD BULK answer: header "${header.slice(0, 60)}"`);
    const records: RateRecord[] = [];
    for (let i = 1; i < rows.length; i++) {
      const [currency = "", type = "", time = "", raw = ""] = rows[i]!;
      const where = `line ${i + 1}`;
      if (type !== "KBH") throw new FeedError(ID, `${where}: rate type "${type}" is not KBH`);
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `${where}: VALUTA "${currency}" is not a currency code`);
      const date = dateOf(time);
      if (!date) throw new FeedError(ID, `${where}: TID "${time}" is not like 2025M07D08`);
      if (raw === ".." || raw === "") continue; // no rate that day
      const rate = readDecimal(raw);
      if (rate === undefined) throw new FeedError(ID, `${where}: INDHOLD "${raw}" is not a decimal`);
      records.push({ effectiveDate: date, currency, rate, unitMultiplier: 2 });
    }
    return records;
  },
});

export default dnb;

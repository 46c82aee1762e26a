// Danmarks Nationalbank: the daily exchange rates, table DNVALD of Statistics Denmark's StatBank API.
// - Endpoint: POST https://api.statbank.dk/v1/data with a JSON query (table DNVALD, format BULK, lang en,
//   valuePresentation Code; VALUTA = the currencies below, KURTYP = KBH, Tid = ">=2025M07D08<=2025M08D01"
//   or an open ">=..." for the latest). The answer is a ';'-separated CSV, a BOM before it:
//   `VALUTA;KURTYP;TID;INDHOLD` then `EUR;KBH;2025M07D08;746.0400`. ".." marks a day without a figure.
// - Quotes: DKK per 100 foreign units (Direct): the figure is kept as published with unitMultiplier 2.
// - Published by the bank at about 16:00 Copenhagen time on its banking days, once the ECB has published;
//   StatBank has them from 09:00 on the following banking day.
// Each line is one row: a TID that is no real day or an INDHOLD that is not a number holds it. A CSV
// without the four columns, or a line of another rate type than KBH (another dataset), is refused whole.
import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  recentDays,
  requireDate,
  requireDecimal,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { csvColumns, readCsv } from "../src/feed/csv.js";

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
    const what = "a DNVALD BULK answer";
    const [header = [], ...lines] = readCsv(ID, decodeText(ID, body), { delimiter: ";", what });
    const at = csvColumns(ID, header, ["VALUTA", "KURTYP", "TID", "INDHOLD"], what);
    const rows = new AnswerRows(ID);
    lines.forEach((line, i) => {
      const currency = line[at.VALUTA] ?? "";
      const type = line[at.KURTYP] ?? "";
      const time = line[at.TID] ?? "";
      const raw = line[at.INDHOLD] ?? "";
      const where = `line ${i + 2}`;
      if (type !== "KBH") throw new FeedError(ID, `${where}: rate type "${type}" is not KBH`);
      if (raw === ".." || raw === "") return; // no rate that day
      rows.read(
        where,
        (): RateRecord => ({
          effectiveDate: requireDate(ID, dateOf(time), time),
          currency,
          rate: requireDecimal(ID, raw, "INDHOLD"),
          unitMultiplier: 2,
        }),
        { effectiveDate: time, currency, rate: raw },
      );
    });
    return rows.result();
  },
});

export default dnb;

// Hong Kong Monetary Authority: end-of-day exchange rates of the HKD from the Monthly Statistical
// Bulletin (er-eeri-daily), as paged JSON. HKD per 1 foreign unit (Direct), one lower-case field per
// currency. The server writes its numbers as binary doubles ("7.8245000000000005"): the digits the
// HKMA set are recovered exactly by rateFromFloatJson and flagged "float-recovered". The data follow the monthly bulletin, about
// a month behind. The neeri_* fields are effective-exchange-rate indices, not rates.
import { rateFromFloatJson } from "../src/feed/float-json.js";
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "HKMA";
const ENDPOINT =
  "https://api.hkma.gov.hk/public/market-data-and-statistics/monthly-statistical-bulletin/er-ir/er-eeri-daily";
const TIME_ZONE = "Asia/Hong_Kong";
const PAGE_SIZE = 100;

/** The bulletin's currency fields; dem/nlg/bef/frf/itl only carry figures before the euro. */
export const HKMA_FIELDS: Readonly<Record<string, string>> = {
  usd: "USD",
  gbp: "GBP",
  jpy: "JPY",
  cad: "CAD",
  aud: "AUD",
  sgd: "SGD",
  twd: "TWD",
  chf: "CHF",
  cny: "CNY",
  krw: "KRW",
  thb: "THB",
  myr: "MYR",
  eur: "EUR",
  php: "PHP",
  inr: "INR",
  idr: "IDR",
  zar: "ZAR",
  special_drawing_rights: "XDR",
  dem: "DEM",
  nlg: "NLG",
  bef: "BEF",
  frf: "FRF",
  itl: "ITL",
};

type Node = Record<string, unknown>;

const pageUrl = (from: string, to: string, offset: number) =>
  `${ENDPOINT}?choose=end_of_day&from=${from}&to=${to}&pagesize=${PAGE_SIZE}&offset=${offset}&sortby=end_of_day&sortorder=desc`;

function records(body: Uint8Array): Node[] {
  const json = parseJsonExact(ID, decodeText(ID, body)) as Node;
  const header = json?.header as Node | undefined;
  const result = json?.result as Node | undefined;
  if (typeof json !== "object" || json === null || !header || typeof header !== "object") {
    throw new FeedError(ID, "not an HKMA API answer: no header");
  }
  if (header.success !== true)
    throw new FeedError(ID, `the API reports an error: ${String(header.err_code)} ${String(header.err_msg)}`);
  if (!result || !Array.isArray(result.records))
    throw new FeedError(ID, "not an HKMA API answer: no result.records array");
  return result.records as Node[];
}

const hkma = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Hong Kong Monetary Authority", abbreviatedName: "HKMA" },
      { languageCode: "zh", name: "香港金融管理局", abbreviatedName: "金管局" },
    ],
    // End-of-day figures; the API only serves them once the monthly bulletin is out.
    dailyUpdateTime: "17:00:00",
    bankCurrency: "HKD",
    countryCode: ["HK"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.hkma.gov.hk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1981-01-02",
    maxRangeDays: 366,
    sourceUrl: `${ENDPOINT}?choose=end_of_day`,
  },

  async fetch(range, { http }) {
    // The bulletin runs about a month behind: "latest" looks back 75 days and keeps the newest.
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 75);
    const docs: FeedDocument[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const doc = await http.get(pageUrl(from, to, offset), { accept: "application/json" });
      docs.push(doc);
      if (records(doc.body).length < PAGE_SIZE) return docs;
    }
  },

  parse(body) {
    const out: RateRecord[] = [];
    records(body).forEach((row, i) => {
      const date = typeof row.end_of_day === "string" ? row.end_of_day : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `records[${i}]: end_of_day "${String(row.end_of_day)}" is not a date`);
      for (const [field, value] of Object.entries(row)) {
        if (field === "end_of_day" || field.startsWith("neeri_")) continue;
        const currency = HKMA_FIELDS[field];
        if (!currency) throw new FeedError(ID, `records[${i}]: unknown field "${field}"`);
        if (value === null) continue; // no figure for that currency (legacy currencies after 1998)
        const text = jsonNumberText(value);
        const read = text === undefined ? undefined : rateFromFloatJson(text);
        if (!read || read.rate.startsWith("-") || !/[1-9]/.test(read.rate))
          throw new FeedError(ID, `${currency} of ${date}: "${String(text ?? value)}" is not a positive number`);
        out.push({ effectiveDate: date, currency, ...read });
      }
    });
    return out;
  },
});

export default hkma;

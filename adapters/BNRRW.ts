// National Bank of Rwanda: the daily reference rates of the Rwandan franc, as JSON, one call per currency.
// The official figure is `average_rate` (the mid of the published buying and selling rates), RWF per 1 foreign
// unit (Direct). Dates look like `19-May-26`; some historical values carry thousands commas (`1,253.60`).
// (Id BNRRW: BNR is the National Bank of Romania.)
import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
  readDecimal,
} from "../src/feed/kit.js";

const ID = "BNRRW";
const ENDPOINT = "https://fxrates.bnr.rw/currency_history/";
const TIME_ZONE = "Africa/Kigali";
const CODE = /^[A-Z]{3}$/;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** The currencies the endpoint serves (its SDR answers are empty). */
export const BNRRW_CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "JPY",
  "CHF",
  "CAD",
  "AUD",
  "CNY",
  "INR",
  "ZAR",
  "AED",
  "SAR",
  "KES",
  "UGX",
  "TZS",
  "BIF",
] as const;

interface BnrRow {
  currency_name?: unknown;
  average_rate?: unknown;
  post_date?: unknown;
}

/** `19-May-26` to 2026-05-19; two-digit years from 60 are read as 19xx. */
function postDate(raw: unknown): IsoDate | undefined {
  const m = typeof raw === "string" ? /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(raw.trim()) : null;
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2]!.toUpperCase()) + 1;
  const yy = Number(m[3]);
  return month > 0 ? isoFromParts(yy >= 60 ? 1900 + yy : 2000 + yy, month, m[1]!) : undefined;
}

const bnrrw = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Rwanda", abbreviatedName: "BNR" },
      { languageCode: "fr", name: "Banque Nationale du Rwanda", abbreviatedName: "BNR" },
      { languageCode: "rw", name: "Banki Nkuru y'u Rwanda", abbreviatedName: "BNR" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "RWF",
    countryCode: ["RW"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bnr.rw",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-03",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const docs: FeedDocument[] = [];
    for (const currency of BNRRW_CURRENCIES) {
      docs.push(
        await http.get(`${ENDPOINT}?currency_name=${currency}&end_date=${to}&start_date=${from}`, {
          accept: "application/json",
        }),
      );
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json))
      throw new FeedError(ID, "not a BNR currency_history answer: the body is not a JSON array");
    const records: RateRecord[] = [];
    (json as BnrRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `row ${i} is not an object`);
      const code = typeof row.currency_name === "string" ? row.currency_name.trim() : "";
      if (!CODE.test(code))
        throw new FeedError(ID, `row ${i}: currency_name "${String(row.currency_name)}" is not ISO 4217`);
      const date = postDate(row.post_date);
      if (!date) throw new FeedError(ID, `row ${i} (${code}): post_date "${String(row.post_date)}" is not DD-Mon-YY`);
      const raw = jsonNumberText(row.average_rate);
      if (raw === undefined || raw.trim() === "") return; // no average published that day
      const rate = readDecimal(raw, { thousands: "," });
      if (!rate) throw new FeedError(ID, `row ${i} (${code} on ${date}): average_rate "${raw}" is not a decimal`);
      records.push({ effectiveDate: date, currency: code, rate });
    });
    return records;
  },
});

export default bnrrw;

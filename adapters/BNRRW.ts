// National Bank of Rwanda: the daily reference rates of the Rwandan franc, as JSON, one call per
// currency: https://fxrates.bnr.rw/currency_history/?currency_name=USD&end_date=&start_date=
// (YYYY-MM-DD). The answer is an array of {currency_name, buying_rate, average_rate, selling_rate,
// post_date}.
// - Figures: `average_rate` (the mid of the published buying and selling rates), RWF per 1 foreign unit
//   (Direct), a string; some historical values carry thousands commas (`1,253.60`). An empty figure is
//   a day without one.
// - Dates look like `19-May-26` (also `21-may-26`); two-digit years from 60 are read as 19xx.
// - The endpoint serves the 16 currencies listed below (its SDR answers are empty).
// - Published on business days, checked from 16:00 Kigali time.
// (Id BNRRW: BNR is the National Bank of Romania.)
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isoFromParts,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  resolveCurrency,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BNRRW";
const ENDPOINT = "https://fxrates.bnr.rw/currency_history/";
const TIME_ZONE = "Africa/Kigali";

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
  const month = m ? monthNumber(m[2]!) : undefined;
  if (!m || !month) return undefined;
  const yy = Number(m[3]);
  return isoFromParts(yy >= 60 ? 1900 + yy : 2000 + yy, month, m[1]!);
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
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json))
      throw new FeedError(ID, "not a BNR currency_history answer: the body is not a JSON array");
    const rows = new AnswerRows(ID);
    (json as BnrRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null) {
        return rows.hold(`row ${i}`, "bad-row", `not an object: ${JSON.stringify(row)}`);
      }
      const name = typeof row.currency_name === "string" ? row.currency_name : String(row.currency_name);
      const day = typeof row.post_date === "string" ? row.post_date : String(row.post_date);
      const raw = jsonNumberText(row.average_rate);
      rows.read(
        `row ${i}`,
        () => {
          if (raw === undefined || raw.trim() === "") return undefined; // no average published that day
          const currency = resolveCurrency(ID, name, { date: postDate(day) });
          const date = requireDate(ID, postDate(day), day);
          return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, "average_rate", { thousands: "," }) };
        },
        { effectiveDate: day, currency: name, rate: raw },
      );
    });
    return rows.result();
  },
});

export default bnrrw;

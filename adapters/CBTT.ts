// Central Bank of Trinidad and Tobago: the daily weighted-average buying and selling rates of the TT dollar.
// - Endpoint: GET https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate/{YYYY}-{YYYY}, every day of a
//   span of years (WordPress REST, JSON, chunked); there is no day-level parameter, so a backfill chunk asks
//   for the years it touches and every day of them is read (stored again unchanged where already known).
//   The answer is `{"cbttdailyforexrates":[{"famedate":"2026-01-02","USD_Buying":"6.7017",
//   "USD_Selling":"6.7992","CAD_Buying":...,"Euro_Buying":...}]}`: one object per calendar day, legs for
//   USD, CAD, GBP, EUR (the prefix is `Euro`), CHF, BBD, GYD and JMD, each a string with 4 decimals or null.
//   A span without any day comes back as one all-null object instead of an array: the bank saying it
//   published nothing for the span (noPublication), as is a span whose every day has all legs null.
// - Figures: TTD per 1 foreign unit (Direct). `_Buying` and `_Selling` are the weighted averages of the
//   day's authorised-dealer purchases and sales (GYD and JMD are not weighted). The bank publishes no mid
//   and no single official rate. We publish the exact mean of the two legs (derivation "mean") on the days
//   both exist: the midpoint is the usual reading of a buy/sell pair as one rate and keeps the figure
//   traceable to the bank's two numbers. A day with one leg null (CHF on most days: no sales reported)
//   has no such figure and is skipped, not held: publishing the lone leg would pass a buying or selling
//   average off as a mid. Buying above selling happens (CAD 2026-02-10: 6.0986 / 5.6038): the two are
//   averages over different trades, not a quoted spread, so the mean is still taken. Weekends and
//   holidays carry all legs null: no rates that day.
// - Publication: a day's averages appear by the next business morning (at 08:49 Port of Spain on
//   2026-09-09 the newest row was 2026-09-08); the hour is not published, 08:30 is an estimate.
// Each leg pair is one row: a leg that is not a decimal, an unknown currency prefix or a bad famedate holds
// that pair; an answer without the cbttdailyforexrates key, or with a field of another shape, is not this
// feed and is refused whole.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  mean,
  noPublication,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBTT";
const TIME_ZONE = "America/Port_of_Spain";
const API = "https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate";

/** The bank's leg prefixes that are not ISO codes. */
const PREFIXES: Readonly<Record<string, string>> = { Euro: "EUR" };

const LEG = /^(.+)_(Buying|Selling)$/;

type Day = Record<string, unknown>;
const isDay = (x: unknown): x is Day => typeof x === "object" && x !== null && !Array.isArray(x);

/** A leg as the bank wrote it: its text, or undefined for null. */
function leg(day: Day, key: string): string | undefined {
  const value = day[key];
  if (value === null || value === undefined) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The currency prefixes of a day object, in the bank's order; any key other than famedate and legs refuses the answer. */
function prefixesOf(day: Day, where: string): string[] {
  const out: string[] = [];
  for (const key of Object.keys(day)) {
    if (key === "famedate") continue;
    const m = LEG.exec(key);
    if (!m) throw new FeedError(ID, `${where}: unexpected field "${key}" (not a <currency>_Buying/_Selling leg)`);
    if (!out.includes(m[1]!)) out.push(m[1]!);
  }
  return out;
}

/** One day: the mean of each currency whose two legs are published. */
function readDay(rows: AnswerRows, day: Day, where: string): void {
  const rawDate = day.famedate;
  for (const prefix of prefixesOf(day, where)) {
    const buying = leg(day, `${prefix}_Buying`);
    const selling = leg(day, `${prefix}_Selling`);
    if (buying === undefined && selling === undefined) continue; // no trades reported: no rate that day
    rows.read(
      `${where} ${prefix}`,
      (): RateRecord | undefined => {
        const text = typeof rawDate === "string" ? rawDate : String(rawDate);
        const effectiveDate = requireDate(ID, isIsoDate(text) ? text : undefined, text);
        const currency = requireCurrencyCode(ID, PREFIXES[prefix] ?? prefix);
        const buy = buying === undefined ? undefined : requireDecimal(ID, buying, `${prefix}_Buying`);
        const sell = selling === undefined ? undefined : requireDecimal(ID, selling, `${prefix}_Selling`);
        if (buy === undefined || sell === undefined) return undefined; // one leg only: no mid to publish
        if (!/[1-9]/.test(buy) || !/[1-9]/.test(sell)) rowProblem(ID, "bad-rate", `a zero leg (${buy} / ${sell})`);
        return { effectiveDate, currency, rate: mean(buy, sell), derivation: "mean" };
      },
      { effectiveDate: String(rawDate), currency: prefix, rate: `${buying ?? "null"} / ${selling ?? "null"}` },
    );
  }
}

export function parseForexRates(body: Uint8Array): ParsedAnswer {
  const json = parseJsonExact(ID, body);
  if (!isDay(json) || !("cbttdailyforexrates" in json)) {
    throw new FeedError(ID, "not a CBTT forex-rate answer: no cbttdailyforexrates");
  }
  const list = json.cbttdailyforexrates;
  // A span without any day: one object whose every field is null.
  const days = Array.isArray(list) ? (list as unknown[]) : isDay(list) ? [list] : undefined;
  if (!days) throw new FeedError(ID, "cbttdailyforexrates is neither a list of days nor a day");
  const rows = new AnswerRows(ID);
  days.forEach((day, i) => {
    if (!isDay(day)) throw new FeedError(ID, `cbttdailyforexrates[${i}] is not an object`);
    readDay(rows, day, `cbttdailyforexrates[${i}] (${String(day.famedate)})`);
  });
  const result = rows.result();
  if (result.records.length > 0 || result.held.length > 0) return result;
  // Every leg null: the bank saying it has no figure for the span (an empty span, weekends, holidays).
  if (!Array.isArray(list)) return noPublication("a span without any day (one object whose every field is null)");
  if ((days as Day[]).every((day) => Object.entries(day).every(([key, v]) => key === "famedate" || v === null)))
    return noPublication("every day of the span has all its legs null (no trades reported)");
  return result;
}

/** The years a range touches, as the endpoint's span. */
export const spanUrl = (from: string, to: string) => `${API}/${from.slice(0, 4)}-${to.slice(0, 4)}`;

const cbtt = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of Trinidad and Tobago", abbreviatedName: "CBTT" }],
    // An estimate: the bank does not say; the previous business day's row was there at 08:49.
    dailyUpdateTime: "08:30:00",
    bankCurrency: "TTD",
    countryCode: ["TT"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.central-bank.org.tt",
    quoteType: "Direct",
    // Each business day's averages appear the next business morning.
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-01-01",
    // The endpoint takes years; a chunk of a year asks for one or two.
    maxRangeDays: 366,
    sourceUrl: `${API}/{YYYY}-{YYYY}`,
  },

  // One request for the years of the range; the latest asks for the last ten days' years (two in early January).
  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [await http.get(spanUrl(from, to), { accept: "application/json" })];
  },

  parse: (body) => parseForexRates(body),
});

export default cbtt;

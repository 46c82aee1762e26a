// Nepal Rastra Bank: the daily foreign exchange rates of the Nepalese rupee from the forex API
// (api/forex/v1/rates?from=YYYY-MM-DD&page=N&per_page=100&to=YYYY-MM-DD), paged JSON: page 1's
// pagination.pages says how many pages follow. data.payload is an array of days (or a JSON string
// holding one), each {date, published_on, rates:[{currency:{iso3, name, unit}, buy, sell}]}. Rates
// are released at midnight Kathmandu time, 7 days a week. Only buying and selling rates are
// published: the figure is their exact mean (derivation "mean"; equal sides give the text itself),
// NPR per `unit` foreign units (Direct; JPY per 10, INR and KRW per 100, kept as unitMultiplier).
// Prices may carry thousands separators ("1,173.69"). A currency whose buy and sell are both null or
// empty, or zero, is not quoted that day and is skipped. The API lists impossible dates (2026-04-31)
// with no rates; a rate under such a date is held.
import {
  AnswerRows,
  noPublication,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  mean,
  parseJsonExact,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NRB";
const ENDPOINT = "https://www.nrb.org.np/api/forex/v1/rates";
const TIME_ZONE = "Asia/Kathmandu";
const PER_PAGE = 100;

interface NrbRate {
  currency?: { iso3?: unknown; unit?: unknown } | null;
  buy?: unknown;
  sell?: unknown;
}
interface NrbDay {
  date?: unknown;
  rates?: unknown;
}
interface NrbAnswer {
  data?: { payload?: unknown } | null;
  pagination?: { pages?: unknown } | null;
}

const pageUrl = (from: string, to: string, page: number) =>
  `${ENDPOINT}?from=${from}&page=${page}&per_page=${PER_PAGE}&to=${to}`;

function answerOf(body: Uint8Array): NrbAnswer {
  const json = parseJsonExact(ID, body) as NrbAnswer;
  if (
    typeof json !== "object" ||
    json === null ||
    Array.isArray(json) ||
    typeof json.data !== "object" ||
    json.data === null ||
    !("payload" in json.data)
  ) {
    throw new FeedError(ID, "not an NRB forex answer: no data.payload");
  }
  return json;
}

const blank = (text: string | undefined) => text === undefined || text.trim() === "";

/** One currency of a day, or undefined when it is not quoted that day. */
function rateOf(r: NrbRate | null, rawDate: string): RateRecord | undefined {
  if (typeof r !== "object" || r === null) return rowProblem(ID, "bad-row", "a rate that is not an object");
  const buyText = jsonNumberText(r.buy);
  const sellText = jsonNumberText(r.sell);
  if (blank(buyText) && blank(sellText)) return undefined; // not quoted
  const date = requireDate(ID, isIsoDate(rawDate.slice(0, 10)) ? rawDate.slice(0, 10) : undefined, rawDate);
  const code = requireCurrencyCode(ID, typeof r.currency?.iso3 === "string" ? r.currency.iso3 : "");
  const buy = requireDecimal(ID, buyText, `${code} buy`, { thousands: "," });
  const sell = requireDecimal(ID, sellText, `${code} sell`, { thousands: "," });
  const unit = requireUnits(ID, jsonNumberText(r.currency?.unit), `${code} unit`);
  if (!/[1-9]/.test(buy) || !/[1-9]/.test(sell)) return undefined; // a zero placeholder
  // Equal sides: the published text is the figure itself.
  if (buy === sell) return { effectiveDate: date, currency: code, ...perUnits(buy, unit) };
  return { effectiveDate: date, currency: code, ...perUnits(mean(buy, sell), unit), derivation: "mean" };
}

const nrb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Nepal Rastra Bank", abbreviatedName: "NRB" },
      { languageCode: "ne", name: "नेपाल राष्ट्र बैंक", abbreviatedName: "ने.रा.बैं." },
    ],
    // The day's rates are released at midnight (the recording's published_on reads 00:00:13).
    dailyUpdateTime: "00:00:00",
    bankCurrency: "NPR",
    countryCode: ["NP"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.nrb.org.np",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    coverageStart: "2000-01-01",
    maxRangeDays: 90,
    sourceUrl: ENDPOINT,
  },

  // Page 1 says how many pages the window has; the others follow.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 3);
    const first = await http.get(pageUrl(from, to, 1), { accept: "application/json" });
    const docs: FeedDocument[] = [first];
    const pages = Number(jsonNumberText(answerOf(first.body).pagination?.pages) ?? "1");
    if (!Number.isInteger(pages) || pages < 0 || pages > 1000)
      throw new FeedError(ID, `pagination.pages "${String(pages)}" is not a page count`);
    for (let page = 2; page <= pages; page++)
      docs.push(await http.get(pageUrl(from, to, page), { accept: "application/json" }));
    return docs;
  },

  parse(body) {
    let payload = answerOf(body).data!.payload;
    if (typeof payload === "string") payload = parseJsonExact(ID, payload);
    const rows = new AnswerRows(ID);
    if (payload === null) return noPublication("data.payload is null: no rates in the days asked");
    if (!Array.isArray(payload)) throw new FeedError(ID, "data.payload is not an array of days");
    for (const [i, day] of (payload as NrbDay[]).entries()) {
      if (typeof day !== "object" || day === null || !Array.isArray(day.rates))
        throw new FeedError(ID, `payload[${i}] has no rates array`);
      const rawDate = typeof day.date === "string" ? day.date : String(day.date);
      for (const [j, r] of (day.rates as Array<NrbRate | null>).entries()) {
        rows.read(`payload[${i}] (${rawDate}) rates[${j}]`, () => rateOf(r, rawDate), {
          effectiveDate: rawDate,
          currency: typeof r?.currency?.iso3 === "string" ? r.currency.iso3 : undefined,
          rate: `buy ${String(jsonNumberText(r?.buy))} sell ${String(jsonNumberText(r?.sell))}`,
        });
      }
    }
    return rows.result();
  },
});

export default nrb;

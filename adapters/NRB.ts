// Nepal Rastra Bank: the daily foreign exchange rates of the Nepalese rupee, as paged JSON (7 days a week).
// Only buying and selling rates are published: the figure is their exact mean (derivation "mean"), NPR per
// `unit` foreign units (Direct; JPY per 10, INR and KRW per 100, kept as unitMultiplier). A day whose date
// does not parse is skipped. The payload is an array of days, or a JSON string holding one.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  mean,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NRB";
const ENDPOINT = "https://www.nrb.org.np/api/forex/v1/rates";
const TIME_ZONE = "Asia/Kathmandu";
const CODE = /^[A-Z]{3}$/;
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
  const json = parseJsonExact(ID, decodeText(ID, body)) as NrbAnswer;
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

function rateOf(r: NrbRate, where: string): RateRecord | undefined {
  const code = typeof r?.currency?.iso3 === "string" ? r.currency.iso3.trim() : "";
  if (!CODE.test(code)) throw new FeedError(ID, `${where}: iso3 "${String(r?.currency?.iso3)}" is not a currency code`);
  const buyText = jsonNumberText(r.buy);
  const sellText = jsonNumberText(r.sell);
  if (buyText === undefined || sellText === undefined || buyText.trim() === "" || sellText.trim() === "")
    return undefined; // not quoted
  const buy = readDecimal(buyText, { thousands: "," });
  const sell = readDecimal(sellText, { thousands: "," });
  if (!buy || !sell)
    throw new FeedError(ID, `${where} (${code}): buy "${buyText}" / sell "${sellText}" are not decimals`);
  const unit = readDecimal(jsonNumberText(r.currency?.unit) ?? "");
  if (!unit || !/^[1-9]\d*$/.test(unit))
    throw new FeedError(
      ID,
      `${where} (${code}): unit "${String(jsonNumberText(r.currency?.unit))}" is not a whole number`,
    );
  if (!/[1-9]/.test(buy) || !/[1-9]/.test(sell)) return undefined; // a zero placeholder
  // Equal sides: the published text is the figure itself.
  if (buy === sell) return { effectiveDate: "", currency: code, ...perUnits(buy, unit) };
  const unitRate = perUnits(mean(buy, sell), unit);
  return { effectiveDate: "", currency: code, ...unitRate, derivation: "mean" };
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
    if (payload === null) return [];
    if (!Array.isArray(payload)) throw new FeedError(ID, "data.payload is not an array of days");
    const records: RateRecord[] = [];
    (payload as NrbDay[]).forEach((day, i) => {
      if (typeof day !== "object" || day === null || !Array.isArray(day.rates))
        throw new FeedError(ID, `payload[${i}] has no rates array`);
      const date = typeof day.date === "string" ? day.date.slice(0, 10) : "";
      if (!isIsoDate(date)) return; // the API documents such days as unusable
      (day.rates as NrbRate[]).forEach((r, j) => {
        const record = rateOf(r, `payload[${i}] (${date}) rates[${j}]`);
        if (record) records.push({ ...record, effectiveDate: date });
      });
    });
    return records;
  },
});

export default nrb;

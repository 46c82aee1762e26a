// Bank of Japan: the US dollar/yen spot rate at 17:00 JST in the Tokyo interbank market
// (series FXERD04 of database FM08), from the BOJ Time-Series Data Search API, as JSON.
// JPY per 1 USD (Direct). Dates come as YYYYMMDD numbers, non-business days as null values.
// The same database's FXERD34 is the euro in US dollars (a USD/EUR cross, not a yen rate): it is
// not a rate of this bank's currency and is not taken (no EUR/JPY figure is derived from it).
import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BOJ";
const TIME_ZONE = "Asia/Tokyo";
const API = "https://www.stat-search.boj.or.jp/api/v1/getDataCode";

/** FM08 series taken, to the currency they quote in yen. */
const SERIES: Readonly<Record<string, string>> = { FXERD04: "USD" };
/** FM08 series recognised but not yen rates. */
const NOT_YEN = new Set(["FXERD34"]);

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
const month = (date: IsoDate) => date.slice(0, 7).replace("-", "");

function dateOf(raw: unknown): IsoDate | undefined {
  const text = jsonNumberText(raw) ?? "";
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  return m ? isoFromParts(m[1]!, m[2]!, m[3]!) : undefined;
}

const boj = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Japan", abbreviatedName: "BOJ" },
      { languageCode: "ja", name: "日本銀行", abbreviatedName: "日銀" },
    ],
    // Time-Series Data Search is updated at 09:00 JST; the 17:00 rate of a day appears the next morning.
    dailyUpdateTime: "09:00:00",
    bankCurrency: "JPY",
    countryCode: ["JP"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.boj.or.jp",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // Not verified: the FM08 monthly 17:00 series start in January 1973.
    coverageStart: "1973-01-04",
    maxRangeDays: 366,
    sourceUrl: `${API}?format=json&lang=en&db=FM08&code=FXERD04`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${API}?format=json&lang=en&db=FM08&code=${Object.keys(SERIES).join(",")}&startDate=${month(from)}&endDate=${month(to)}`;
    return [await http.get(url, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!isNode(json) || !("STATUS" in json)) throw new FeedError(ID, "not a BOJ API answer: no STATUS");
    const status = jsonNumberText(json.STATUS);
    if (status !== "200")
      throw new FeedError(ID, `API status ${String(status)}: ${String(json.MESSAGE ?? "").slice(0, 200)}`);
    if (!Array.isArray(json.RESULTSET)) throw new FeedError(ID, "not a getDataCode answer: no RESULTSET");
    const records: RateRecord[] = [];
    for (const series of json.RESULTSET as unknown[]) {
      const code = isNode(series) && typeof series.SERIES_CODE === "string" ? series.SERIES_CODE : "";
      if (NOT_YEN.has(code)) continue;
      const currency = SERIES[code];
      if (!currency) throw new FeedError(ID, `unknown series "${code}"`);
      const values = isNode((series as Node).VALUES) ? ((series as Node).VALUES as Node) : {};
      const dates = values.SURVEY_DATES;
      const figures = values.VALUES;
      if (!Array.isArray(dates) || !Array.isArray(figures) || dates.length !== figures.length) {
        throw new FeedError(ID, `${code}: SURVEY_DATES and VALUES are missing or of different lengths`);
      }
      dates.forEach((raw, i) => {
        const date = dateOf(raw);
        if (!date) throw new FeedError(ID, `${code}: survey date "${String(jsonNumberText(raw))}" is not YYYYMMDD`);
        if (figures[i] === null) return; // no business day
        const text = jsonNumberText(figures[i]);
        const rate = text === undefined ? undefined : readDecimal(text);
        if (rate === undefined) throw new FeedError(ID, `${code} on ${date}: "${String(text)}" is not a decimal`);
        records.push({ effectiveDate: date, currency, rate });
      });
    }
    return records;
  },
});

export default boj;

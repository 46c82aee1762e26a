// Bank of Japan: the US dollar/yen spot rate at 17:00 JST in the Tokyo interbank market (series
// FXERD04 of database FM08), from the BOJ Time-Series Data Search API, as JSON
// (https://www.stat-search.boj.or.jp/api/v1/getDataCode?format=json&lang=en&db=FM08&code=FXERD04
// &startDate=YYYYMM&endDate=YYYYMM: whole months).
// - Answer: STATUS 200 (another status is an API error, refused) and RESULTSET, one entry per series
//   with VALUES.SURVEY_DATES (YYYYMMDD numbers) and VALUES.VALUES (numbers, null on non-business days),
//   two arrays of the same length (else the answer is malformed and refused).
// - JPY per 1 USD (Direct), the number's digits as sent.
// - The same database's FXERD34 is the euro in US dollars (a USD/EUR cross, not a yen rate): not taken,
//   and no EUR/JPY figure is derived from it. A series we do not know is held.
// - The database is updated at 09:00 JST; the 17:00 rate of a day appears the next morning.
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
  type IsoDate,
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
    const json = parseJsonExact(ID, body);
    if (!isNode(json) || !("STATUS" in json)) throw new FeedError(ID, "not a BOJ API answer: no STATUS");
    const status = jsonNumberText(json.STATUS);
    if (status !== "200")
      throw new FeedError(
        ID,
        `API status ${String(status)}: ${(typeof json.MESSAGE === "string" ? json.MESSAGE : "").slice(0, 200)}`,
      );
    if (!Array.isArray(json.RESULTSET)) throw new FeedError(ID, "not a getDataCode answer: no RESULTSET");
    const rows = new AnswerRows(ID);
    (json.RESULTSET as unknown[]).forEach((series, k) => {
      const code = isNode(series) && typeof series.SERIES_CODE === "string" ? series.SERIES_CODE : "";
      if (NOT_YEN.has(code)) return;
      const currency = SERIES[code];
      if (!currency) {
        return rows.hold(`RESULTSET[${k}]`, "unknown-currency", `series "${code}" is not a yen rate we know`, {
          currency: code,
        });
      }
      const values = isNode((series as Node).VALUES) ? ((series as Node).VALUES as Node) : {};
      const dates = values.SURVEY_DATES;
      const figures = values.VALUES;
      if (!Array.isArray(dates) || !Array.isArray(figures) || dates.length !== figures.length) {
        throw new FeedError(ID, `${code}: SURVEY_DATES and VALUES are missing or of different lengths`);
      }
      dates.forEach((raw, i) => {
        if (figures[i] === null) return; // no business day
        const day = String(jsonNumberText(raw));
        const text = jsonNumberText(figures[i]);
        rows.read(
          `${code} SURVEY_DATES[${i}]`,
          () => {
            const date = requireDate(ID, dateOf(raw), day);
            return { effectiveDate: date, currency, rate: requireDecimal(ID, text, `${code} on ${date}`) };
          },
          { effectiveDate: day, currency, rate: text },
        );
      });
    });
    return rows.result();
  },
});

export default boj;

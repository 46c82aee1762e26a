// Central Bank of the Republic of Türkiye: indicative exchange rates from EVDS3, announced at 15:30
// Istanbul time on working days. igmevdsms-dis/series=TP.DK.{ISO}.A.YTL-TP.DK.{ISO}.S.YTL-…
// &startDate=DD-MM-YYYY&endDate=DD-MM-YYYY&type=json&frequency=1, with the EVDS key in the `key`
// header, answers JSON {items:[{Tarih DD-MM-YYYY, TP_DK_USD_A_YTL, TP_DK_USD_S_YTL, ..., UNIXTIME}]}
// with the figures as text. The bank publishes a buying (A) and a selling (S) rate, no middle one:
// the official figure taken is their exact mean (derivation "mean"), TRY per 1 foreign unit (Direct);
// JPY is quoted per 100 (kept as unitMultiplier 2). Weekend and holiday items carry nulls on both
// sides and are skipped; a currency with only one side, or a side that is not a number, is held, and
// so is every currency of an item whose Tarih is no real day. A series the request did not ask for
// means the answer is not ours and refuses it.
import {
  AnswerRows,
  FeedError,
  credentialFrom,
  defineAdapter,
  fromDayMonthYear,
  mean,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "TCMB";
const TIME_ZONE = "Europe/Istanbul";
const API = "https://evds3.tcmb.gov.tr/igmevdsms-dis/";

/** The 21 currencies asked for, in the order of the series list. */
export const TCMB_CURRENCIES = [
  "AED",
  "AUD",
  "AZN",
  "CAD",
  "CHF",
  "CNY",
  "DKK",
  "EUR",
  "GBP",
  "JPY",
  "KRW",
  "KWD",
  "KZT",
  "NOK",
  "PKR",
  "QAR",
  "RON",
  "RUB",
  "SAR",
  "SEK",
  "USD",
] as const;

/** Currencies quoted per 10^n units (JPY: TRY per 100 JPY, about 28 when USD is about 44). */
const UNIT_POWER: Readonly<Record<string, number>> = { JPY: 2 };

const KEY = /^TP_DK_([A-Z]{3})_([AS])_YTL$/;

const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`;

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
const side = (x: unknown) => (typeof x === "string" ? x : x === null || x === undefined ? "none" : JSON.stringify(x));

const tcmb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Republic of Türkiye", abbreviatedName: "CBRT" },
      { languageCode: "tr", name: "Türkiye Cumhuriyet Merkez Bankası", abbreviatedName: "TCMB" },
    ],
    // The indicative rates are announced at 15:30 Istanbul time.
    dailyUpdateTime: "15:30:00",
    bankCurrency: "TRY",
    countryCode: ["TR"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.tcmb.gov.tr",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The (new) Turkish lira since 2005; how far back EVDS serves these series is not verified.
    coverageStart: "2005-01-03",
    maxRangeDays: 730,
    sourceUrl: API,
    credential: {
      env: "EXRATES_TCMB_API_KEY",
      description: "an EVDS API key, from a free account at https://evds3.tcmb.gov.tr",
    },
  },

  async fetch(range, ctx) {
    const key = credentialFrom(tcmb, ctx);
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const series = TCMB_CURRENCIES.flatMap((c) => [`TP.DK.${c}.A.YTL`, `TP.DK.${c}.S.YTL`]).join("-");
    const url = `${API}series=${series}&startDate=${ddmmyyyy(from)}&endDate=${ddmmyyyy(to)}&type=json&frequency=1`;
    return [await ctx.http.get(url, { accept: "application/json", headers: { key } })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!isNode(json) || !Array.isArray(json.items)) throw new FeedError(ID, "not an EVDS answer: no items array");
    const rows = new AnswerRows(ID);
    for (const [i, item] of (json.items as unknown[]).entries()) {
      if (!isNode(item)) throw new FeedError(ID, `items[${i}] is not an object`);
      const rawDate = typeof item.Tarih === "string" ? item.Tarih : "";
      const sides = new Map<string, { A?: unknown; S?: unknown }>();
      for (const [key, value] of Object.entries(item)) {
        if (key === "Tarih" || key === "UNIXTIME") continue;
        const m = KEY.exec(key);
        if (!m) throw new FeedError(ID, `items[${i}]: unexpected series "${key}"`);
        const pair = sides.get(m[1]!) ?? {};
        pair[m[2] as "A" | "S"] = value;
        sides.set(m[1]!, pair);
      }
      for (const [code, { A, S }] of sides) {
        const missing = (x: unknown) => x === null || x === undefined || x === "";
        rows.read(
          `items[${i}] (${rawDate}) ${code}`,
          () => {
            if (missing(A) && missing(S)) return undefined; // weekend or holiday
            const date = requireDate(ID, fromDayMonthYear(rawDate), rawDate);
            const currency = requireCurrencyCode(ID, code);
            if (missing(A) || missing(S)) rowProblem(ID, "bad-rate", "only one of the buying and selling rates");
            const buy = requireDecimal(ID, A, `${currency} buying rate`);
            const sell = requireDecimal(ID, S, `${currency} selling rate`);
            const power = UNIT_POWER[currency];
            return {
              effectiveDate: date,
              currency,
              rate: mean(buy, sell),
              ...(power ? { unitMultiplier: power } : {}),
              derivation: "mean" as const,
            };
          },
          { effectiveDate: rawDate, currency: code, rate: `buying ${side(A)} selling ${side(S)}` },
        );
      }
    }
    return rows.result();
  },
});

export default tcmb;

// Central Bank of the Republic of Türkiye: indicative exchange rates from EVDS3, as JSON
// {items:[{Tarih, TP_DK_USD_A_YTL, TP_DK_USD_S_YTL, ...}]}. The bank publishes a buying (A) and a
// selling (S) rate, no middle one: the official figure taken is their exact mean (derivation
// "mean"), TRY per 1 foreign unit (Direct); JPY is quoted per 100 (kept as unitMultiplier 2).
// Weekend and holiday items carry nulls and are skipped. Needs an EVDS key (header `key`).
import {
  FeedError,
  credentialFrom,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  mean,
  parseJsonExact,
  recentDays,
  requireDecimal,
  type IsoDate,
  type RateRecord,
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!isNode(json) || !Array.isArray(json.items)) throw new FeedError(ID, "not an EVDS answer: no items array");
    const records: RateRecord[] = [];
    for (const [i, item] of (json.items as unknown[]).entries()) {
      if (!isNode(item)) throw new FeedError(ID, `items[${i}] is not an object`);
      const date = typeof item.Tarih === "string" ? fromDayMonthYear(item.Tarih) : undefined;
      if (!date) throw new FeedError(ID, `items[${i}]: Tarih "${String(item.Tarih)}" is not DD-MM-YYYY`);
      const sides = new Map<string, { A?: unknown; S?: unknown }>();
      for (const [key, value] of Object.entries(item)) {
        if (key === "Tarih" || key === "UNIXTIME") continue;
        const m = KEY.exec(key);
        if (!m) throw new FeedError(ID, `items[${i}]: unexpected series "${key}"`);
        const pair = sides.get(m[1]!) ?? {};
        pair[m[2] as "A" | "S"] = value;
        sides.set(m[1]!, pair);
      }
      for (const [currency, { A, S }] of sides) {
        const missing = (x: unknown) => x === null || x === undefined || x === "";
        if (missing(A) && missing(S)) continue; // weekend or holiday
        if (missing(A) || missing(S))
          throw new FeedError(ID, `${currency} on ${date}: only one of the buying and selling rates`);
        const buy = requireDecimal(ID, A, `${currency} buying rate on ${date}`);
        const sell = requireDecimal(ID, S, `${currency} selling rate on ${date}`);
        const power = UNIT_POWER[currency];
        records.push({
          effectiveDate: date,
          currency,
          rate: mean(buy, sell),
          ...(power ? { unitMultiplier: power } : {}),
          derivation: "mean",
        });
      }
    }
    return records;
  },
});

export default tcmb;

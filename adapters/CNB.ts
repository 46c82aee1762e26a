// Czech National Bank: the daily fixing from the CNB API, as JSON. CZK per `amount` units (Direct);
// an amount of 100 or 1000 is kept as unitMultiplier 2 or 3. Numbers are read without losing digits.
import {
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  todayIn,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CNB";
const API = "https://api.cnb.cz/cnbapi/exrates";
const TIME_ZONE = "Europe/Prague";

interface CnbRate {
  validFor?: unknown;
  currencyCode?: unknown;
  amount?: unknown;
  rate?: unknown;
}

const cnb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Czech National Bank", abbreviatedName: "CNB" },
      { languageCode: "cs", name: "Česká národní banka", abbreviatedName: "ČNB" },
    ],
    dailyUpdateTime: "14:30:00",
    bankCurrency: "CZK",
    countryCode: ["CZ"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.cnb.cz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-01-01",
    maxRangeDays: 366,
    sourceUrl: `${API}/daily-year?lang=EN`,
  },

  async fetch(range, { http }) {
    // One call per calendar year; the extra days of a year are stored too (idempotent). The latest is the
    // current year's file (in Prague), which also fills any gap; early in January, last year's as well,
    // as the new year's file stays empty until the first fixing.
    const today = todayIn(TIME_ZONE);
    const { from, to } = range.kind === "range" ? range : { from: addDays(today, -10), to: today };
    const docs: FeedDocument[] = [];
    for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
      docs.push(await http.get(`${API}/daily-year?lang=EN&year=${year}`, { accept: "application/json" }));
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as { rates?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.rates)) {
      throw new FeedError(ID, "not a CNB exrates answer: no rates array");
    }
    return asArray(json.rates as CnbRate[]).map((r, i): RateRecord => {
      const where = `rates[${i}]`;
      const date = typeof r.validFor === "string" ? r.validFor : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${where}: validFor "${String(r.validFor)}" is not a date`);
      const currency = typeof r.currencyCode === "string" ? r.currencyCode : "";
      const rate = readDecimal(jsonNumberText(r.rate) ?? "");
      const amount = readDecimal(jsonNumberText(r.amount) ?? "");
      if (!rate)
        throw new FeedError(ID, `${where} (${currency}): rate "${String(jsonNumberText(r.rate))}" is not a decimal`);
      if (!amount || !/^[1-9]\d*$/.test(amount))
        throw new FeedError(ID, `${where} (${currency}): amount is not a whole number`);
      return { effectiveDate: date, currency, ...perUnits(rate, amount) };
    });
  },
});

export default cnb;

// Czech National Bank: the daily fixing from the CNB API, as JSON. CZK per `amount` units (Direct);
// an amount of 100 or 1000 is kept as unitMultiplier 2 or 3. Numbers are read without losing digits.
import { FeedError, asArray, decodeText, defineAdapter, isIsoDate, jsonNumberText, parseJsonExact, perUnits, readDecimal, type FeedDocument, type RateRecord } from "../src/feed/kit.js";

const ID = "CNB";
const API = "https://api.cnb.cz/cnbapi/exrates";

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
    timeZone: "Europe/Prague",
    website: "https://www.cnb.cz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-01-01",
    maxRangeDays: 366,
    sourceUrl: `${API}/daily-year?lang=EN`,
  },

  async fetch(range, { http }) {
    if (range.kind === "latest") return [await http.get(`${API}/daily?lang=EN`, { accept: "application/json" })];
    // One call per calendar year; the extra days of a year are stored too (idempotent).
    const docs: FeedDocument[] = [];
    for (let year = Number(range.from.slice(0, 4)); year <= Number(range.to.slice(0, 4)); year++) {
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
      if (!rate) throw new FeedError(ID, `${where} (${currency}): rate "${String(jsonNumberText(r.rate))}" is not a decimal`);
      if (!amount || !/^[1-9]\d*$/.test(amount)) throw new FeedError(ID, `${where} (${currency}): amount is not a whole number`);
      return { effectiveDate: date, currency, ...perUnits(rate, amount) };
    });
  },
});

export default cnb;

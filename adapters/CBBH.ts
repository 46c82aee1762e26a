// Central Bank of Bosnia and Herzegovina: the daily exchange rate list as JSON (GetJson?date=).
// The official figure is `Middle`, BAM per `Units` units (Direct); 100 HUF/JPY/RSD keeps unitMultiplier 2.
// EUR is listed at the currency-board parity 1.955830 and kept as published. Numbers are strings.
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
  requireDecimal,
  todayIn,
  weekday,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBBH";
const ENDPOINT = "https://www.cbbh.ba/CurrencyExchange/GetJson";
const TIME_ZONE = "Europe/Sarajevo";
const CODE = /^[A-Z]{3}$/;

interface Item {
  AlphaCode?: unknown;
  Units?: unknown;
  Middle?: unknown;
}

const cbbh = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Bosnia and Herzegovina", abbreviatedName: "CBBH" },
      { languageCode: "bs", name: "Centralna banka Bosne i Hercegovine", abbreviatedName: "CBBiH" },
      { languageCode: "hr", name: "Centralna banka Bosne i Hercegovine", abbreviatedName: "CBBiH" },
      { languageCode: "sr", name: "Централна банка Босне и Херцеговине", abbreviatedName: "ЦББиХ" },
    ],
    // "published every working day around 16:00" (cbbh.ba/CurrencyExchange).
    dailyUpdateTime: "16:00:00",
    bankCurrency: "BAM",
    countryCode: ["BA"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.cbbh.ba",
    quoteType: "Direct",
    // Published Monday to Friday, each list dated the next day (Friday's is dated Saturday): the scheduler
    // runs on the publication days; stored effective dates run Tuesday to Saturday.
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2002-01-01",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  // One call per effective day (Tuesday to Saturday); asking for a day without a list of its own
  // answers with the list in force, under that list's own date, which the store folds.
  async fetch(range, { http }) {
    const accept = "application/json";
    if (range.kind === "latest") {
      // The list issued today after 16:00 is dated tomorrow; asking for tomorrow returns the newest one.
      return [await http.get(`${ENDPOINT}?date=${addDays(todayIn(TIME_ZONE), 1)}`, { accept })];
    }
    const docs: FeedDocument[] = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) === 7 || weekday(day) === 1) continue;
      docs.push(await http.get(`${ENDPOINT}?date=${day}`, { accept }));
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as { Date?: unknown; CurrencyExchangeItems?: unknown } | null;
    if (
      typeof json !== "object" ||
      json === null ||
      Array.isArray(json) ||
      !Array.isArray(json.CurrencyExchangeItems)
    ) {
      throw new FeedError(ID, "not a CBBH exchange rate list: no CurrencyExchangeItems array");
    }
    const date = typeof json.Date === "string" ? json.Date.slice(0, 10) : "";
    if (!isIsoDate(date) || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(String(json.Date))) {
      throw new FeedError(ID, `list Date "${String(json.Date)}" is not a date`);
    }
    return asArray(json.CurrencyExchangeItems as Item[]).map((item, i): RateRecord => {
      const code = typeof item.AlphaCode === "string" ? item.AlphaCode : "";
      if (!CODE.test(code))
        throw new FeedError(ID, `item ${i}: AlphaCode "${String(item.AlphaCode)}" is not a currency code`);
      const middle = requireDecimal(ID, jsonNumberText(item.Middle), `${code} Middle`);
      const units = requireDecimal(ID, jsonNumberText(item.Units), `${code} Units`);
      if (!/^[1-9]\d*$/.test(units)) throw new FeedError(ID, `${code}: Units "${units}" is not a whole number`);
      return { effectiveDate: date, currency: code, ...perUnits(middle, units) };
    });
  },
});

export default cbbh;

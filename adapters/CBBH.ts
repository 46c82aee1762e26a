// Central Bank of Bosnia and Herzegovina: the daily exchange rate list.
// - Endpoint: GET https://www.cbbh.ba/CurrencyExchange/GetJson?date=YYYY-MM-DD, the list in force on that
//   day under its own date: `{"Date":"2026-03-07T00:00:00","Number":46,"CurrencyExchangeItems":[{"Country":
//   "EMU","NumCode":"978","AlphaCode":"EUR","Units":"1","Buy":"1.955830","Middle":"1.955830","Sell":...}]}`.
//   Numbers come as strings with the bank's six decimals.
// - Quotes: the official figure is `Middle`, BAM per `Units` units (Direct); Units 100 (HUF, JPY, RSD) kept
//   as unitMultiplier 2. EUR stands at the currency-board parity 1.955830 and is kept as published.
// - Published every working day around 16:00 Sarajevo time, dated the next day (Friday's list is dated
//   Saturday); asking for a day without a list of its own returns the list in force.
// Each item is one row: a bad Middle or Units holds it; a list Date that does not exist holds every item;
// an answer without CurrencyExchangeItems, or a Date in another form, is refused whole.
import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  requireDate,
  requireDecimal,
  requireUnits,
  todayIn,
  weekday,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "CBBH";
const ENDPOINT = "https://www.cbbh.ba/CurrencyExchange/GetJson";
const TIME_ZONE = "Europe/Sarajevo";

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
    // The list is published every working day around 16:00.
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
    const json = parseJsonExact(ID, body) as { Date?: unknown; CurrencyExchangeItems?: unknown } | null;
    if (
      typeof json !== "object" ||
      json === null ||
      Array.isArray(json) ||
      !Array.isArray(json.CurrencyExchangeItems)
    ) {
      throw new FeedError(ID, "not a CBBH exchange rate list: no CurrencyExchangeItems array");
    }
    const stamp = typeof json.Date === "string" ? json.Date : "";
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(stamp)) {
      throw new FeedError(ID, `list Date "${stamp.slice(0, 40)}" is not in the form YYYY-MM-DDThh:mm:ss`);
    }
    const date = stamp.slice(0, 10);
    const rows = new AnswerRows(ID);
    (json.CurrencyExchangeItems as unknown[]).forEach((entry, i) => {
      const item = (typeof entry === "object" && entry !== null ? entry : {}) as Item;
      const code = typeof item.AlphaCode === "string" ? item.AlphaCode : "";
      const middle = jsonNumberText(item.Middle);
      rows.read(
        `CurrencyExchangeItems[${i}]`,
        () => ({
          effectiveDate: requireDate(ID, isIsoDate(date) ? date : undefined, stamp),
          currency: code,
          ...perUnits(requireDecimal(ID, middle, "Middle"), requireUnits(ID, jsonNumberText(item.Units), "Units")),
        }),
        { effectiveDate: stamp, currency: code, rate: middle ?? "" },
      );
    });
    return rows.result();
  },
});

export default cbbh;

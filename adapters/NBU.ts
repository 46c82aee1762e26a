// National Bank of Ukraine: official hryvnia exchange rates and bank metal prices from the
// NBU_Exchange service, as a JSON array. UAH per `units` units (Direct): 10, 100 or 1000 are
// kept as unitMultiplier 1, 2, 3 with the published `rate`. Metals (XAU, XAG, XPT, XPD) are
// already quoted per troy ounce. The service has a row for every calendar day; the rate set on
// Friday is carried over Saturday and Sunday, so weekend rows are dropped (the bank's effective
// business days are Monday to Friday).
import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  todayIn,
  weekday,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBU";
const TIME_ZONE = "Europe/Kyiv";
const ENDPOINT = "https://bank.gov.ua/NBU_Exchange/exchange_site";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
const compact = (date: IsoDate) => date.replaceAll("-", "");

const nbu = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Ukraine", abbreviatedName: "NBU" },
      { languageCode: "uk", name: "Національний банк України", abbreviatedName: "НБУ" },
    ],
    // Published by 16:00 Kyiv time on the day it is set, effective from the next business day.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "UAH",
    countryCode: ["UA"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://bank.gov.ua",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The hryvnia since 2 September 1996 (how far back this service answers is not verified).
    coverageStart: "1996-09-02",
    maxRangeDays: 365,
    sourceUrl: `${ENDPOINT}?json`,
  },

  async fetch(range, { http }) {
    // The rate set today is effective from the next business day: the latest window reaches tomorrow.
    const { from, to } =
      range.kind === "range" ? range : { from: recentDays(TIME_ZONE, 10).from, to: addDays(todayIn(TIME_ZONE), 1) };
    const url = `${ENDPOINT}?start=${compact(from)}&end=${compact(to)}&sort=exchangedate&order=asc&json`;
    return [await http.get(url, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBU exchange answer: not a JSON array");
    const records: RateRecord[] = [];
    for (const [i, row] of json.entries()) {
      if (!isNode(row) || !("exchangedate" in row) || !("cc" in row))
        throw new FeedError(ID, `row ${i} has no exchangedate or cc`);
      const date = typeof row.exchangedate === "string" ? fromDayMonthYear(row.exchangedate) : undefined;
      if (!date) throw new FeedError(ID, `row ${i}: exchangedate "${String(row.exchangedate)}" is not DD.MM.YYYY`);
      if (weekday(date) >= 6) continue; // Friday's rate carried over the weekend
      const currency = typeof row.cc === "string" ? row.cc : "";
      if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `row ${i}: cc "${currency}" is not a currency code`);
      const rawRate = jsonNumberText(row.rate);
      const rate = rawRate === undefined ? undefined : readDecimal(rawRate);
      if (rate === undefined)
        throw new FeedError(ID, `${currency} on ${date}: rate "${String(rawRate)}" is not a decimal`);
      const units = jsonNumberText(row.units) ?? "";
      if (!/^[1-9]\d*$/.test(units))
        throw new FeedError(ID, `${currency} on ${date}: units "${units}" is not a whole number`);
      records.push({ effectiveDate: date, currency, ...perUnits(rate, units) });
    }
    return records;
  },
});

export default nbu;

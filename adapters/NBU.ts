// National Bank of Ukraine: official hryvnia exchange rates and bank metal prices from the
// NBU_Exchange service (exchange_site?start=YYYYMMDD&end=YYYYMMDD&sort=exchangedate&order=asc&json),
// a JSON array of rows {exchangedate DD.MM.YYYY, r030, cc, txt, enname, rate, units, rate_per_unit,
// calcdate}. UAH per `units` units (Direct): 10, 100 or 1000 are kept as unitMultiplier 1, 2, 3 with
// the published `rate` (rate_per_unit is a derived figure, not read). Metals (XAU, XAG, XPT, XPD) are
// already quoted per troy ounce. Set by 16:00 Kyiv time, effective from the next business day. The
// service has a row for every calendar day; the rate set on Friday is carried over Saturday and
// Sunday, so weekend rows are skipped (the bank's effective business days are Monday to Friday).
import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  fromDayMonthYear,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  todayIn,
  weekday,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "NBU";
const TIME_ZONE = "Europe/Kyiv";
const ENDPOINT = "https://bank.gov.ua/NBU_Exchange/exchange_site";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);
/** What a field said, as text (numbers with their digits); undefined when absent. */
const raw = (x: unknown) =>
  x === undefined || x === null ? undefined : typeof x === "string" ? x : (jsonNumberText(x) ?? JSON.stringify(x));
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
    // Rates are set for the next business day (Friday for Monday): up to 4 days ahead across a holiday.
    maxDaysAhead: 4,
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
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBU exchange answer: not a JSON array");
    const rows = new AnswerRows(ID);
    for (const [i, row] of json.entries()) {
      if (!isNode(row) || !("exchangedate" in row) || !("cc" in row))
        throw new FeedError(ID, `not an NBU exchange answer: row ${i + 1} has no exchangedate or cc`);
      const rawDate = raw(row.exchangedate) ?? "";
      rows.read(
        `row ${i + 1}`,
        () => {
          const date = requireDate(ID, fromDayMonthYear(rawDate), rawDate);
          if (weekday(date) >= 6) return undefined; // Friday's rate carried over the weekend
          const currency = requireCurrencyCode(ID, typeof row.cc === "string" ? row.cc : "");
          const rate = requireDecimal(ID, jsonNumberText(row.rate), `${currency} rate`);
          const units = requireUnits(ID, jsonNumberText(row.units), `${currency} units`);
          return { effectiveDate: date, currency, ...perUnits(rate, units) };
        },
        { effectiveDate: rawDate, currency: raw(row.cc), rate: raw(row.rate) },
      );
    }
    return rows.result();
  },
});

export default nbu;

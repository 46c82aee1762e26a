// Czech National Bank: the daily fixing ("kurzy devizového trhu") from the CNB's open API.
// - Endpoint: GET https://api.cnb.cz/cnbapi/exrates/daily-year?lang=EN&year=YYYY, every fixing of one
//   calendar year in one JSON answer: `{"rates":[{"validFor":"2026-01-02","order":1,"country":"EMU",
//   "currency":"euro","amount":1,"currencyCode":"EUR","rate":24.170}, ...]}`. A year without a fixing yet
//   (the first working day of January before 14:30) answers `{"rates":[]}`.
// - Quotes: CZK per `amount` units of the foreign currency (Direct); `amount` is 1, 100 (HUF, JPY...)
//   or 1000 (IDR), kept as unitMultiplier 0, 2 or 3.
// - Published on Czech working days at about 14:30 Prague time, valid from that day.
// - Numbers are JSON numbers whose digits matter (24.170 keeps its trailing zero): they are read as text.
// Each entry of `rates` is one row: an entry whose date, figure or amount cannot be read is held with
// its index; an answer without a `rates` array is not this API's and is refused whole.
import {
  AnswerRows,
  noPublication,
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
  type FeedDocument,
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
    const json = parseJsonExact(ID, body) as { rates?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.rates)) {
      throw new FeedError(ID, "not a CNB exrates answer: no rates array");
    }
    // The new year's file before its first fixing: an empty list.
    if (json.rates.length === 0) return noPublication("an empty rates list: no fixing yet in the year asked");
    const rows = new AnswerRows(ID);
    (json.rates as unknown[]).forEach((entry, i) => {
      const r = (typeof entry === "object" && entry !== null ? entry : {}) as CnbRate;
      const date = typeof r.validFor === "string" ? r.validFor : String(r.validFor);
      const currency = typeof r.currencyCode === "string" ? r.currencyCode : String(r.currencyCode);
      const rate = jsonNumberText(r.rate);
      rows.read(
        `rates[${i}]`,
        () => ({
          effectiveDate: requireDate(ID, isIsoDate(date) ? date : undefined, date),
          currency,
          ...perUnits(requireDecimal(ID, rate, "rate"), requireUnits(ID, jsonNumberText(r.amount), "amount")),
        }),
        { effectiveDate: date, currency, rate: rate ?? String(r.rate) },
      );
    });
    return rows.result();
  },
});

export default cnb;

// Central Bank of the Republic of Uzbekistan: the official rates of the sum.
// - Endpoint: GET https://cbu.uz/en/arkhiv-kursov-valyut/json/all/YYYY-MM-DD/ (the trailing slash is
//   needed), the rates set for that day as a JSON array: `[{"id":69,"Code":"840","Ccy":"USD","CcyNm_EN":
//   "US Dollar","Nominal":"1","Rate":"12194.21","Diff":"-16.5","Date":"01.04.2026"}, ...]`; every field
//   is a string, dates DD.MM.YYYY. One call per weekday.
// - Quotes: UZS per `Nominal` units (Direct); Nominal 10 (IDR, VND, IRR...) kept as unitMultiplier 1.
// - Set on working days, in force from the date given; polled from 13:00 Tashkent time.
// Each element is one row: a Date, Rate or Nominal that cannot be read holds it. A body that is not a
// JSON array is refused whole.
import {
  AnswerRows,
  addDays,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  parseJsonExact,
  perUnits,
  requireDate,
  requireDecimal,
  requireUnits,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBU";
const ARCHIVE = "https://cbu.uz/en/arkhiv-kursov-valyut/json/all";
const TIME_ZONE = "Asia/Tashkent";

type Node = Record<string, unknown>;

const dayUrl = (date: IsoDate) => `${ARCHIVE}/${date}/`;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

const cbu = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Republic of Uzbekistan", abbreviatedName: "CBU" },
      { languageCode: "uz", name: "O‘zbekiston Respublikasi Markaziy banki", abbreviatedName: "Markaziy bank" },
      { languageCode: "ru", name: "Центральный банк Республики Узбекистан", abbreviatedName: "ЦБ РУз" },
    ],
    dailyUpdateTime: "13:00:00",
    bankCurrency: "UZS",
    countryCode: ["UZ"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://cbu.uz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-04",
    maxRangeDays: 31,
    sourceUrl: `${ARCHIVE}/`,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-3);
    const docs: FeedDocument[] = [];
    for (const day of days) docs.push(await http.get(dayUrl(day), { accept: "application/json" }));
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CBU rates answer: no array");
    const rows = new AnswerRows(ID);
    (json as unknown[]).forEach((entry, i) => {
      const row = (typeof entry === "object" && entry !== null ? entry : {}) as Node;
      const currency = str(row.Ccy);
      const date = str(row.Date);
      const rate = str(row.Rate);
      rows.read(
        `[${i}]`,
        (): RateRecord => ({
          effectiveDate: requireDate(ID, fromDayMonthYear(date), date),
          currency,
          ...perUnits(requireDecimal(ID, rate, "Rate"), requireUnits(ID, str(row.Nominal), "Nominal")),
        }),
        { effectiveDate: date, currency, rate },
      );
    });
    return rows.result();
  },
});

export default cbu;

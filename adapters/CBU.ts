// Central Bank of the Republic of Uzbekistan: official sum rates from the archive JSON, one call
// per weekday. UZS per `Nominal` units (Direct; 10 kept as unitMultiplier). Every field is a string;
// dates are DD.MM.YYYY. The trailing slash of the URL is needed.
import {
  addDays,
  decodeText,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  parseJsonExact,
  perUnits,
  readDecimal,
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CBU rates answer: no array");
    return (json as Node[]).map((row, i): RateRecord => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `entry ${i} is not an object`);
      const currency = str(row.Ccy);
      if (!/^[A-Z]{3}$/.test(currency))
        throw new FeedError(ID, `entry ${i}: Ccy "${String(row.Ccy)}" is not a currency code`);
      const date = fromDayMonthYear(str(row.Date));
      if (!date) throw new FeedError(ID, `${currency}: Date "${String(row.Date)}" is not DD.MM.YYYY`);
      const rate = readDecimal(str(row.Rate));
      if (rate === undefined || !/[1-9]/.test(rate))
        throw new FeedError(ID, `${currency} on ${date}: Rate "${String(row.Rate)}" is not a positive decimal`);
      const nominal = str(row.Nominal);
      if (!/^[1-9]\d*$/.test(nominal))
        throw new FeedError(ID, `${currency} on ${date}: Nominal "${String(row.Nominal)}" is not a whole number`);
      return { effectiveDate: date, currency, ...perUnits(rate, nominal) };
    });
  },
});

export default cbu;

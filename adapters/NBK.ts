// National Bank of Kazakhstan: official tenge rates from the RSS-style XML (get_rates.cfm), one
// call per weekday. KZT per `quant` units (Direct; 10, 100, 1000 kept as unitMultiplier); the
// figure is in <description> and the ISO code in <title>. The USD rate is the KASE weighted
// average at 15:30 Astana time and the others cross rates at 16:00, set for the next business day.
import {
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  parseXml,
  perUnits,
  readDecimal,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBK";
const ENDPOINT = "https://nationalbank.kz/rss/get_rates.cfm";
const TIME_ZONE = "Asia/Almaty";

type Node = Record<string, unknown>;

const dayUrl = (date: IsoDate) => `${ENDPOINT}?fdate=${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
const text = (v: unknown) => (typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim());

const nbk = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of the Republic of Kazakhstan", abbreviatedName: "NBK" },
      { languageCode: "kk", name: "Қазақстан Республикасының Ұлттық Банкі", abbreviatedName: "ҚРҰБ" },
      { languageCode: "ru", name: "Национальный Банк Республики Казахстан", abbreviatedName: "НБРК" },
    ],
    // Cross rates fixed at 16:00 (Astana time) for the next business day.
    dailyUpdateTime: "16:00:00",
    bankCurrency: "KZT",
    countryCode: ["KZ"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://nationalbank.kz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-04",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-3);
    const docs: FeedDocument[] = [];
    for (const day of days) docs.push(await http.get(dayUrl(day), { accept: "application/xml, text/xml" }));
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const rates = doc.rates as Node | undefined;
    if (!rates || typeof rates !== "object")
      throw new FeedError(ID, "not a National Bank of Kazakhstan rates answer: no rates root");
    const date = fromDayMonthYear(text(rates.date));
    if (!date) throw new FeedError(ID, `date "${text(rates.date)}" is not DD.MM.YYYY`);
    const out: RateRecord[] = [];
    for (const item of asArray(rates.item as Node | Node[])) {
      const currency = text(item.title);
      if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `item title "${currency}" is not a currency code`);
      const raw = text(item.description);
      const rate = readDecimal(raw);
      if (rate === undefined || !/[1-9]/.test(rate))
        throw new FeedError(ID, `${currency} on ${date}: description "${raw}" is not a positive decimal`);
      const quant = text(item.quant);
      if (!/^[1-9]\d*$/.test(quant))
        throw new FeedError(ID, `${currency} on ${date}: quant "${quant}" is not a whole number`);
      out.push({ effectiveDate: date, currency, ...perUnits(rate, quant) });
    }
    return out;
  },
});

export default nbk;

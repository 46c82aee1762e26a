// National Bank of Kazakhstan: official tenge rates, one call per weekday.
// Endpoint: GET https://nationalbank.kz/rss/get_rates.cfm?fdate=DD.MM.YYYY.
// Format: RSS-style XML <rates><date>01.04.2026</date><item><fullname/><title>USD</title>
// <description>478.77</description><quant>1</quant><index/><change/></item>...</rates>: the ISO code in
// <title>, the figure in <description>, the unit count in <quant>.
// Quote: KZT per `quant` units (Direct; 10, 100, 1000 kept as unitMultiplier). The USD rate is the KASE
// weighted average at 15:30 Astana time and the others cross rates at 16:00, set for the next business day.
// An item whose code, figure or quant cannot be read is held (every item of a list whose date is not a
// real DD.MM.YYYY day too); an answer without the <rates> root (another bank, an error page) is refused.
import {
  AnswerRows,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
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
const text = (v: unknown) =>
  typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : JSON.stringify(v);

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
    // Rates are set for the next business day (Friday for Monday): up to 4 days ahead across a holiday.
    maxDaysAhead: 4,
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
    const day = text(rates.date);
    const answer = new AnswerRows(ID);
    asArray(rates.item as Node | Node[]).forEach((item, i) => {
      const currency = text(item.title);
      const raw = text(item.description);
      answer.read(
        `item ${i + 1}`,
        (): RateRecord => {
          const date = requireDate(ID, fromDayMonthYear(day), day);
          const code = requireCurrencyCode(ID, currency);
          const rate = requireDecimal(ID, raw, `${currency} description`);
          if (!/[1-9]/.test(rate)) rowProblem(ID, "bad-rate", `${currency}: a zero is no rate`);
          return {
            effectiveDate: date,
            currency: code,
            ...perUnits(rate, requireUnits(ID, text(item.quant), "quant")),
          };
        },
        { effectiveDate: day, currency, rate: raw },
      );
    });
    return answer.result();
  },
});

export default nbk;

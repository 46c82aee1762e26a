// National Bank of Ethiopia: the daily indicative rates of the birr, one call per day.
// Endpoint: GET https://api.nbe.gov.et/api/filter-exchange-rates?date=YYYY-MM-DD.
// Format: JSON {success, message, data:[{date, buying, selling, weighted_average, currency:{name, code}}]};
// figures as strings or numbers, their digits kept.
// Quote: the official figure is `weighted_average` (the interbank weighted average), ETB per 1 foreign unit
// (Direct); buying and selling rates are published beside it and ignored. Published on working days at
// about 13:00 Addis Ababa time, since the float of July 2024. A null weighted_average is a currency
// without a figure that day.
// A row whose currency (its code, else its name through ICU), date or figure cannot be read is held;
// `success` other than true, or an answer without the data array, is refused.
import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  resolveCurrency,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBE";
const ENDPOINT = "https://api.nbe.gov.et/api/filter-exchange-rates";
const TIME_ZONE = "Africa/Addis_Ababa";

interface NbeRow {
  date?: unknown;
  weighted_average?: unknown;
  currency?: { code?: unknown; name?: unknown } | null;
}

const nbe = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Ethiopia", abbreviatedName: "NBE" },
      { languageCode: "am", name: "የኢትዮጵያ ብሔራዊ ባንክ", abbreviatedName: "NBE" },
    ],
    dailyUpdateTime: "13:00:00",
    bankCurrency: "ETB",
    countryCode: ["ET"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://nbe.gov.et",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2024-10-01",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  // One call per weekday of the range (the API answers one date at a time).
  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 4);
    const docs: FeedDocument[] = [];
    for (let day: IsoDate = from; day <= to; day = addDays(day, 1)) {
      if (weekday(day) > 5) continue;
      docs.push(await http.get(`${ENDPOINT}?date=${day}`, { accept: "application/json" }));
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as { success?: unknown; data?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      throw new FeedError(ID, "not an NBE exchange-rate answer: no data array");
    }
    if (json.success !== true) throw new FeedError(ID, `the API reports success=${String(json.success)}`);
    const rows = new AnswerRows(ID);
    (json.data as unknown[]).forEach((item, i) => {
      const row = (typeof item === "object" && item !== null ? item : {}) as NbeRow;
      const text = (x: unknown) => (typeof x === "string" ? x.trim() : "");
      const label = text(row.currency?.code) || text(row.currency?.name);
      const date = typeof row.date === "string" ? row.date.slice(0, 10) : "";
      const raw = jsonNumberText(row.weighted_average);
      if (row.weighted_average === null || raw?.trim() === "") return; // no figure for this currency that day
      rows.read(
        `data[${i}]`,
        (): RateRecord => ({
          effectiveDate: requireDate(ID, isIsoDate(date) ? date : undefined, String(row.date)),
          currency: resolveCurrency(ID, label, { date: isIsoDate(date) ? date : undefined }),
          rate: requireDecimal(ID, raw, `weighted_average of ${label} on ${date}`),
        }),
        { effectiveDate: date, currency: label, rate: raw ?? "" },
      );
    });
    return rows.result();
  },
});

export default nbe;

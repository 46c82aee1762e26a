// National Bank of Ethiopia: the daily indicative rates of the birr, as JSON, one call per day.
// The official figure is `weighted_average` (the interbank weighted average), ETB per 1 foreign unit (Direct);
// buying and selling rates are published beside it and ignored. Since the float of July 2024.
import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  recentDays,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBE";
const ENDPOINT = "https://api.nbe.gov.et/api/filter-exchange-rates";
const TIME_ZONE = "Africa/Addis_Ababa";
const CODE = /^[A-Z]{3}$/;

interface NbeRow {
  date?: unknown;
  weighted_average?: unknown;
  currency?: { code?: unknown } | null;
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
    const json = parseJsonExact(ID, decodeText(ID, body)) as { success?: unknown; data?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      throw new FeedError(ID, "not an NBE exchange-rate answer: no data array");
    }
    if (json.success !== true) throw new FeedError(ID, `the API reports success=${String(json.success)}`);
    const records: RateRecord[] = [];
    (json.data as NbeRow[]).forEach((row, i) => {
      const code = typeof row?.currency?.code === "string" ? row.currency.code.trim() : "";
      if (!CODE.test(code))
        throw new FeedError(ID, `data[${i}]: currency code "${String(row?.currency?.code)}" is not ISO 4217`);
      const date = typeof row.date === "string" ? row.date.slice(0, 10) : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `data[${i}] (${code}): date "${String(row.date)}" is not a date`);
      const raw = jsonNumberText(row.weighted_average);
      if (raw === undefined || raw.trim() === "") return; // no figure published for this currency that day
      const rate = readDecimal(raw);
      if (!rate) throw new FeedError(ID, `data[${i}] (${code} on ${date}): weighted_average "${raw}" is not a decimal`);
      records.push({ effectiveDate: date, currency: code, rate });
    });
    return records;
  },
});

export default nbe;

// Financial Benchmarks India: the FBIL reference rates of the rupee (USD, GBP, EUR, JPY, AED, IDR), as JSON.
// INR per N foreign units, N read from `subProdName` ("INR / 100 JPY", "INR / 10000 IDR"); a power of ten
// is kept as unitMultiplier (Direct). The JSON numbers keep their digits (`92.451400` stays `92.451400`).
// Mumbai holidays are simply absent.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "FBIL";
const ENDPOINT = "https://www.fbil.org.in/wasdm/refrates/fetchfiltered";
const TIME_ZONE = "Asia/Kolkata";
const SUB_PRODUCT = /^INR\s*\/\s*(\d+)\s+([A-Z]{3})$/;

interface FbilRow {
  processRunDate?: unknown;
  subProdName?: unknown;
  rate?: unknown;
}

const fbil = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Financial Benchmarks India Private Limited", abbreviatedName: "FBIL" }],
    // FBIL announces the INR reference rates at 13:30 IST (the recording's displayTime says 13:00).
    dailyUpdateTime: "13:30:00",
    bankCurrency: "INR",
    // The rupee is legal tender in India and, beside the ngultrum, in Bhutan.
    countryCode: ["IN", "BT"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.fbil.org.in",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // FBIL took the reference rate over from the Reserve Bank of India on 10 July 2018.
    coverageStart: "2018-07-10",
    maxRangeDays: 90,
    sourceUrl: `${ENDPOINT}?authenticated=false`,
  },

  async fetch(range, { http }) {
    // Public (unauthenticated) access shows the rates with a lag of 7 days since 30 March 2021: look back 14.
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 14);
    return [
      await http.get(`${ENDPOINT}?authenticated=false&fromDate=${from}&toDate=${to}`, { accept: "application/json" }),
    ];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json))
      throw new FeedError(ID, "not an FBIL reference-rate answer: the body is not a JSON array");
    return (json as FbilRow[]).map((row, i): RateRecord => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `row ${i} is not an object`);
      const label = typeof row.subProdName === "string" ? row.subProdName.trim() : "";
      const m = SUB_PRODUCT.exec(label);
      if (!m) throw new FeedError(ID, `row ${i}: subProdName "${String(row.subProdName)}" is not "INR / N XXX"`);
      const [, units, currency] = m as unknown as [string, string, string];
      const date = typeof row.processRunDate === "string" ? row.processRunDate.slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `row ${i} (${currency}): processRunDate "${String(row.processRunDate)}" is not a date`);
      const rate = readDecimal(jsonNumberText(row.rate) ?? "");
      if (!rate)
        throw new FeedError(
          ID,
          `row ${i} (${currency} on ${date}): rate "${String(jsonNumberText(row.rate) ?? row.rate)}" is not a decimal`,
        );
      if (!/^[1-9]\d*$/.test(units)) throw new FeedError(ID, `row ${i}: unit count "${units}" is not a whole number`);
      return { effectiveDate: date, currency, ...perUnits(rate, units) };
    });
  },
});

export default fbil;

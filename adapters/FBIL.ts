// Financial Benchmarks India: the FBIL reference rates of the rupee (USD, GBP, EUR, JPY, AED, IDR).
// Endpoint: GET /wasdm/refrates/fetchfiltered?authenticated=false&fromDate=YYYY-MM-DD&toDate=YYYY-MM-DD,
// a JSON array of one object per currency and day: `processRunDate` ("2026-03-18 00:00:00"),
// `subProdName` ("INR / 1 USD", "INR / 100 JPY", "INR / 10000 IDR"), `rate` (a JSON number).
// Quote: INR per N foreign units (Direct), N and the currency read from subProdName; a power of ten is
// kept as unitMultiplier, any other count divided out exactly. The JSON numbers keep their digits
// (`92.451400` stays `92.451400`). Published on Mumbai business days at 13:30 IST; holidays are simply
// absent. Unauthenticated access shows the rates a week late, hence the 14-day look-back.
// A row whose label, date or figure cannot be read is held; an answer that is not a JSON array, or
// whose rows carry no "INR / N XXX" label at all (another product), is refused.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  recentDays,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "FBIL";
const ENDPOINT = "https://www.fbil.org.in/wasdm/refrates/fetchfiltered";
const TIME_ZONE = "Asia/Kolkata";
const SUB_PRODUCT = /^INR\s*\/\s*(\S+)\s+(\S+)$/;

interface FbilRow {
  processRunDate?: unknown;
  subProdName?: unknown;
  rate?: unknown;
}

const fbil = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Financial Benchmarks India Private Limited", abbreviatedName: "FBIL" }],
    // FBIL announces the INR reference rates at 13:30 IST (answers' displayTime has said 13:00).
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
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json))
      throw new FeedError(ID, "not an FBIL reference-rate answer: the body is not a JSON array");
    const labelOf = (row: unknown) =>
      typeof row === "object" && row !== null && typeof (row as FbilRow).subProdName === "string"
        ? ((row as FbilRow).subProdName as string).trim()
        : "";
    if (json.length > 0 && !json.some((row) => SUB_PRODUCT.test(labelOf(row))))
      throw new FeedError(ID, `not the INR reference rates: no "INR / N XXX" product in "${labelOf(json[0])}"`);
    const rows = new AnswerRows(ID);
    (json as unknown[]).forEach((item, i) => {
      const row = (typeof item === "object" && item !== null ? item : {}) as FbilRow;
      const label = labelOf(item);
      const date = typeof row.processRunDate === "string" ? row.processRunDate.slice(0, 10) : "";
      const figure = jsonNumberText(row.rate) ?? String(row.rate);
      rows.read(
        `row ${i + 1}`,
        (): RateRecord => {
          if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "the row is not an object");
          const m = SUB_PRODUCT.exec(label);
          if (!m) rowProblem(ID, "unknown-currency", `subProdName "${label}" is not "INR / N XXX"`);
          const units = requireUnits(ID, m[1], "unit count of subProdName");
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, String(row.processRunDate));
          const rate = requireDecimal(ID, jsonNumberText(row.rate) ?? row.rate, "rate");
          return { effectiveDate, currency: m[2]!, ...perUnits(rate, units) };
        },
        { effectiveDate: date, currency: label, rate: figure },
      );
    });
    return rows.result();
  },
});

export default fbil;

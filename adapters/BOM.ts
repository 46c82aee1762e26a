// Bank of Mongolia (Mongolbank): the official daily rates of the tögrög, as JSON. The answer is one wide row
// per date ({RATE_DATE, USD: "3,576.17", ...}), and the endpoint returns the whole archive whatever dates are
// posted. MNT per 1 foreign unit (Direct); gold and silver (XAU, XAG) are already in MNT per troy ounce. Numbers
// are strings with comma thousands separators; SDR is relabelled XDR.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  type RateRecord,
  readDecimal,
} from "../src/feed/kit.js";

const ID = "BOM";
const ENDPOINT = "https://www.mongolbank.mn/en/currency-rate-movement/data";
const TIME_ZONE = "Asia/Ulaanbaatar";
const CODE = /^[A-Z]{3}$/;
const RELABEL: Readonly<Record<string, string>> = { SDR: "XDR" };

const bom = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Mongolia", abbreviatedName: "Mongolbank" },
      { languageCode: "mn", name: "Монгол Улсын Төв банк", abbreviatedName: "Монголбанк" },
    ],
    dailyUpdateTime: "10:00:00",
    bankCurrency: "MNT",
    countryCode: ["MN"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.mongolbank.mn",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1993-01-01",
    maxRangeDays: 366,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const body = JSON.stringify({ startDate: from, endDate: to });
    return [
      await http.post(ENDPOINT, body, { accept: "application/json", headers: { "content-type": "application/json" } }),
    ];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as { success?: unknown; data?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      throw new FeedError(ID, "not a Mongolbank rate-movement answer: no data array");
    }
    if (json.success !== true) throw new FeedError(ID, `the answer reports success=${String(json.success)}`);
    const records: RateRecord[] = [];
    (json.data as Array<Record<string, unknown>>).forEach((row, i) => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `data[${i}] is not an object`);
      const date = typeof row.RATE_DATE === "string" ? row.RATE_DATE.trim().slice(0, 10) : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `data[${i}]: RATE_DATE "${String(row.RATE_DATE)}" is not a date`);
      for (const [key, value] of Object.entries(row)) {
        if (key === "RATE_DATE") continue;
        const currency = RELABEL[key] ?? key;
        if (!CODE.test(currency))
          throw new FeedError(ID, `data[${i}] (${date}): column "${key}" is not a currency code`);
        if (currency === "MNT") continue;
        const raw = jsonNumberText(value);
        if (raw === undefined || ["", "-", "0", "0.00"].includes(raw.trim())) continue; // not quoted that day
        const rate = readDecimal(raw, { thousands: "," });
        if (!rate) throw new FeedError(ID, `data[${i}] (${currency} on ${date}): "${raw}" is not a decimal`);
        records.push({ effectiveDate: date, currency, rate });
      }
    });
    return records;
  },
});

export default bom;

// Bank of Mongolia (Mongolbank): the official daily rates of the tögrög, as JSON, from a POST of
// {"startDate":"YYYY-MM-DD","endDate":"YYYY-MM-DD"} to https://www.mongolbank.mn/en/currency-rate-movement/data
// (the endpoint answers with the archive it holds whatever dates are posted).
// - Answer: {success: true, data: one wide row per date {RATE_DATE, USD: "3,576.17", ...}}.
// - Figures: MNT per 1 foreign unit (Direct), strings with comma thousands separators; "", "-", "0" and
//   "0.00" mean not quoted that day. Gold and silver (XAU, XAG) are already in MNT per troy ounce. SDR is
//   relabelled XDR; a column that names no currency holds its figures.
// - Published on business days, checked from 10:00 Ulaanbaatar time.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  requireDecimal,
  resolveCurrency,
} from "../src/feed/kit.js";

const ID = "BOM";
const ENDPOINT = "https://www.mongolbank.mn/en/currency-rate-movement/data";
const TIME_ZONE = "Asia/Ulaanbaatar";

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
    const json = parseJsonExact(ID, body) as { success?: unknown; data?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      throw new FeedError(ID, "not a Mongolbank rate-movement answer: no data array");
    }
    if (json.success !== true) throw new FeedError(ID, `the answer reports success=${String(json.success)}`);
    const rows = new AnswerRows(ID);
    (json.data as unknown[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row))
        return rows.hold(`data[${i}]`, "bad-row", "not an object");
      const wide = row as Record<string, unknown>;
      const day = typeof wide.RATE_DATE === "string" ? wide.RATE_DATE.trim() : String(wide.RATE_DATE);
      const date = day.slice(0, 10);
      if (!isIsoDate(date))
        return rows.hold(`data[${i}]`, "bad-date", `RATE_DATE "${day}" is not a real date`, { effectiveDate: day });
      for (const [key, value] of Object.entries(wide)) {
        if (key === "RATE_DATE" || key === "MNT") continue;
        const raw = jsonNumberText(value)?.trim();
        if (raw === undefined || ["", "-", "0", "0.00"].includes(raw)) continue; // not quoted that day
        rows.read(
          `data[${i}] ${key}`,
          () => {
            const currency = resolveCurrency(ID, key, { date }); // SDR: the standard's abbreviation of XDR
            return {
              effectiveDate: date,
              currency,
              rate: requireDecimal(ID, raw, `${key} on ${date}`, { thousands: "," }),
            };
          },
          { effectiveDate: day, currency: key, rate: raw },
        );
      }
    });
    return rows.result();
  },
});

export default bom;

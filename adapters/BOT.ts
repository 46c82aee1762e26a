// Bank of Thailand: the daily weighted-average interbank rates of commercial banks in Bangkok from
// the BOT API gateway (Stat-ExchangeRate v2, DAILY_AVG_EXG_RATE, JSON). The official figure is
// `mid_rate` (midpoint of the buying transfer and selling rates), THB per unit (Direct). The unit is
// written in the currency's name, e.g. "JAPAN : YEN (100 YEN) (JPY)" or "INDONESIA : RUPIAH (1,000
// RUPIAH) (IDR)", and kept as unitMultiplier. Numbers are strings (32.6611000, kept as published).
import {
  FeedError,
  asArray,
  credentialFrom,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type BankAdapter,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BOT";
const ENDPOINT = "https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/";
const TIME_ZONE = "Asia/Bangkok";
const CODE = /^[A-Z]{3}$/;
const MISSING = new Set(["", "-", "N/A"]);

interface Detail {
  period?: unknown;
  currency_id?: unknown;
  currency_name_eng?: unknown;
  mid_rate?: unknown;
}

/** The unit a currency name states, "(100 YEN)" or "(1,000 RUPIAH)"; 1 when it states none. */
export function unitOfName(name: string): string {
  const stated = /\((\d{1,3}(?:,\d{3})*) [A-Z][A-Z ]*\)/.exec(name);
  return stated ? stated[1]!.replace(/,/g, "") : "1";
}

const bot: BankAdapter = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Thailand", abbreviatedName: "BOT" },
      { languageCode: "th", name: "ธนาคารแห่งประเทศไทย", abbreviatedName: "ธปท." },
    ],
    // The daily average rates are released at about 18:00 Bangkok time.
    dailyUpdateTime: "18:00:00",
    bankCurrency: "THB",
    countryCode: ["TH"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.bot.or.th",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2002-01-02",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
    credential: {
      env: "EXRATES_BOT_API_KEY",
      description: "API key of the BOT API portal (portal.api.bot.or.th), sent as the Authorization header",
    },
  },

  async fetch(range, ctx) {
    const key = credentialFrom(bot, ctx);
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?start_period=${from}&end_period=${to}`;
    return [await ctx.http.get(url, { accept: "application/json", headers: { Authorization: key } })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as {
      result?: { data?: { data_header?: { report_uoq_name_eng?: unknown }; data_detail?: unknown } };
    } | null;
    const data = json && typeof json === "object" ? json.result?.data : undefined;
    if (!data || !Array.isArray(data.data_detail))
      throw new FeedError(ID, "not a BOT exchange rate answer: no result.data.data_detail");
    // The header states the direction; refuse an answer that says otherwise.
    const uoq = String(data.data_header?.report_uoq_name_eng ?? "");
    if (!/Baht \/ 1 Unit of Foreign Currency/i.test(uoq))
      throw new FeedError(ID, `unexpected unit of quotation "${uoq}"`);
    const records: RateRecord[] = [];
    for (const d of asArray(data.data_detail as Detail[])) {
      const code = typeof d.currency_id === "string" ? d.currency_id.trim() : "";
      if (!CODE.test(code)) throw new FeedError(ID, `currency_id "${String(d.currency_id)}" is not a currency code`);
      const date = typeof d.period === "string" ? d.period : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `${code}: period "${String(d.period)}" is not a date`);
      const raw = (jsonNumberText(d.mid_rate) ?? "").trim();
      if (MISSING.has(raw)) continue;
      const rate = readDecimal(raw);
      if (rate === undefined) throw new FeedError(ID, `${code} on ${date}: mid_rate "${raw}" is not a decimal`);
      records.push({
        effectiveDate: date,
        currency: code,
        ...perUnits(rate, unitOfName(String(d.currency_name_eng ?? ""))),
      });
    }
    return records;
  },
});

export default bot;

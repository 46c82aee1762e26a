// Bank of Thailand: the daily weighted-average interbank rates of commercial banks in Bangkok from the
// BOT API gateway (https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/
// ?start_period=YYYY-MM-DD&end_period=YYYY-MM-DD, the key of the BOT API portal in the Authorization
// header), as JSON: result.data.data_header and result.data.data_detail.
// - The header's report_uoq_name_eng says "(Unit: Baht / 1 Unit of Foreign Currency)": another unit of
//   quotation refuses the answer.
// - The official figure is `mid_rate` (midpoint of the buying transfer and selling rates), THB per unit
//   (Direct), a string kept as published (32.6611000); "", "-" and "N/A" are days without one.
// - The unit is written in the currency's name, e.g. "JAPAN : YEN (100 YEN) (JPY)" or "INDONESIA :
//   RUPIAH (1,000 RUPIAH) (IDR)", and kept as unitMultiplier; a name stating a unit that is no whole
//   number, or no name at all, leaves the unit unknown and the row is held.
// - Released on business days at about 18:00 Bangkok time.
import {
  AnswerRows,
  FeedError,
  asArray,
  credentialFrom,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type BankAdapter,
} from "../src/feed/kit.js";

const ID = "BOT";
const ENDPOINT = "https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/";
const TIME_ZONE = "Asia/Bangkok";
const MISSING = new Set(["", "-", "N/A"]);

interface Detail {
  period?: unknown;
  currency_id?: unknown;
  currency_name_eng?: unknown;
  mid_rate?: unknown;
}

/**
 * The unit a currency name states, "(100 YEN)" or "(1,000 RUPIAH)"; 1 when it states none. A stated
 * count that is no whole number ("(1.5 YEN)", "(1,00 YEN)") is a RowProblem (`unknown-unit`).
 */
export function unitOfName(name: string): string {
  const stated = /\(([\d.,]+) [A-Z][A-Z ]*\)/.exec(name);
  if (!stated) return "1";
  if (!/^\d{1,3}(?:,\d{3})*$/.test(stated[1]!))
    rowProblem(ID, "unknown-unit", `the name "${name.trim()}" states the unit "${stated[1]}", not a whole number`);
  return requireUnits(ID, stated[1]!.replace(/,/g, ""));
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
    const json = parseJsonExact(ID, body) as {
      result?: { data?: { data_header?: { report_uoq_name_eng?: unknown }; data_detail?: unknown } };
    } | null;
    const data = json && typeof json === "object" ? json.result?.data : undefined;
    if (!data || !Array.isArray(data.data_detail))
      throw new FeedError(ID, "not a BOT exchange rate answer: no result.data.data_detail");
    // The header states the direction; refuse an answer that says otherwise.
    const uoq = data.data_header?.report_uoq_name_eng;
    if (typeof uoq !== "string" || !/Baht \/ 1 Unit of Foreign Currency/i.test(uoq))
      throw new FeedError(ID, `unexpected unit of quotation ${JSON.stringify(uoq)}`);
    const rows = new AnswerRows(ID);
    asArray(data.data_detail as Detail[]).forEach((d, i) => {
      const source = `data_detail[${i}]`;
      if (typeof d !== "object" || d === null) return rows.hold(source, "bad-row", "not an object");
      const code = typeof d.currency_id === "string" ? d.currency_id.trim() : String(d.currency_id);
      const day = typeof d.period === "string" ? d.period : String(d.period);
      const raw = (jsonNumberText(d.mid_rate) ?? "").trim();
      if (MISSING.has(raw)) return;
      rows.read(
        source,
        () => {
          const currency = requireCurrencyCode(ID, code);
          const date = requireDate(ID, isIsoDate(day) ? day : undefined, day);
          const rate = requireDecimal(ID, raw, `${currency} mid_rate on ${date}`);
          if (typeof d.currency_name_eng !== "string")
            rowProblem(ID, "unknown-unit", `${currency}: no currency_name_eng to state the unit`);
          return { effectiveDate: date, currency, ...perUnits(rate, unitOfName(d.currency_name_eng)) };
        },
        { effectiveDate: day, currency: code, rate: raw },
      );
    });
    return rows.result();
  },
});

export default bot;

// Central Bank of Nigeria: the official exchange rates of the naira.
// - Endpoint: GET https://www.cbn.gov.ng/api/GetAllExchangeRates, no parameters: one JSON array with the
//   whole history since December 2001, `[{"id":61852,"currency":"CFA","ratedate":"2026-05-19",
//   "buyingrate":"2.4184","centralrate":"2.4284","sellingrate":"2.4384"}, ...]`, figures as strings
//   (sometimes empty, sometimes with a thousands comma), dates YYYY-MM-DD (older rows with a time).
// - Quotes: the official figure is `centralrate`, NGN per 1 foreign unit (Direct); buying and selling
//   rates are published beside it and not used.
// - Currencies come as English names with spelling, case and whitespace variants (`  POUND  STERLING `,
//   `DANISH KRONA`/`DANISH KRONER`, `YEN`): read by the kit's resolver (ICU's and ISO's names, then its
//   rules: inflections, territories, units, misspellings), with the bank's own two below. WAUA (the
//   African Development Bank's unit of account) has no ISO 4217 code and is skipped.
// - Polled on working days from 16:00 Lagos time.
// Each element is one row: an unknown name, a date that is no date or a figure that is not a number holds
// it; an empty or zero centralrate is a day without a figure. A body that is not a JSON array is refused.
import {
  AnswerRows,
  FeedError,
  currencyOf,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  type CurrencyResolution,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBN";
const ENDPOINT = "https://www.cbn.gov.ng/api/GetAllExchangeRates";

/** The bank's names no rule resolves (keys folded), each with why. */
export const CBN_ALIASES: Readonly<Record<string, string>> = {
  // The West African (BCEAO) franc, at par with the Central African one: "CFA" alone fits both.
  cfa: "XOF",
  // "Riyal" alone fits the Saudi and the Qatari riyal; the bank's figure (about 1/3.75 of its USD figure) is the Saudi one.
  riyal: "SAR",
};

/** Names published without an ISO code. */
const DROPPED = new Set(["WAUA"]);

interface CbnRow {
  currency?: unknown;
  ratedate?: unknown;
  centralrate?: unknown;
}

/**
 * The currency of a name on a date, and how it was resolved when not exactly; an unknown or ambiguous
 * name is a RowProblem (`unknown-currency`), which holds the row.
 */
export function cbnCurrency(name: string, date?: string): CurrencyResolution {
  return resolveCurrencyName(ID, name.trim().replace(/\s+/g, " "), { aliases: CBN_ALIASES, date });
}

const cbn = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of Nigeria", abbreviatedName: "CBN" }],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "NGN",
    countryCode: ["NG"],
    region: ["Africa"],
    timeZone: "Africa/Lagos",
    website: "https://www.cbn.gov.ng",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2001-12-10",
    maxRangeDays: 3660,
    sourceUrl: ENDPOINT,
  },

  // The endpoint takes no dates: the whole history comes back and is stored (idempotently) as a whole.
  async fetch(_range, { http }) {
    return [await http.get(ENDPOINT, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CBN exchange-rate answer: the body is not a JSON array");
    const rows = new AnswerRows(ID);
    (json as unknown[]).forEach((entry, i) => {
      const row = (typeof entry === "object" && entry !== null ? entry : {}) as CbnRow;
      const name = typeof row.currency === "string" ? row.currency : "";
      if (DROPPED.has(name.trim().toUpperCase())) return;
      const stamp = typeof row.ratedate === "string" ? row.ratedate.trim() : "";
      const raw = jsonNumberText(row.centralrate)?.trim() ?? "";
      rows.read(
        `[${i}]`,
        (): RateRecord | undefined => {
          const date = stamp.slice(0, 10);
          const currency = currencyOf(cbnCurrency(name, isIsoDate(date) ? date : undefined));
          const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, stamp);
          if (raw === "") return undefined; // no central rate that day
          const rate = requireDecimal(ID, raw, "centralrate", { thousands: "," });
          if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
          return { effectiveDate, currency, rate };
        },
        { effectiveDate: stamp, currency: name, rate: raw },
      );
    });
    return rows.result();
  },
});

export default cbn;

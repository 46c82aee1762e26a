// Central Bank of Nigeria: the official exchange rates of the naira, as JSON; one call answers the whole history
// (from December 2001). The official figure is `centralrate`, NGN per 1 foreign unit (Direct); buying and selling
// rates are published beside it and ignored. Currencies come as NAMES with spelling and whitespace variants,
// mapped below; an unknown name is an error rather than a guess. WAUA (the African Development Bank's unit of
// account) has no ISO code and is dropped.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  type RateRecord,
  readDecimal,
} from "../src/feed/kit.js";

const ID = "CBN";
const ENDPOINT = "https://www.cbn.gov.ng/api/GetAllExchangeRates";

/** CBN's currency names (trimmed, single-spaced, upper case) to ISO 4217. */
export const CBN_CURRENCY_NAMES: Readonly<Record<string, string>> = {
  "US DOLLAR": "USD",
  "POUNDS STERLING": "GBP",
  "POUND STERLING": "GBP",
  EURO: "EUR",
  "SWISS FRANC": "CHF",
  YEN: "JPY",
  "JAPANESE YEN": "JPY",
  // The CFA franc: CBN quotes the West African (BCEAO) franc, at par with the Central African one.
  CFA: "XOF",
  "DANISH KRONA": "DKK",
  "DANISH KRONER": "DKK",
  RIYAL: "SAR",
  "SAUDI RIYAL": "SAR",
  "SOUTH AFRICAN RAND": "ZAR",
  SDR: "XDR",
  "YUAN/RENMINBI": "CNY",
  "UAE DIRHAM": "AED",
};

/** Names published without an ISO code. */
const DROPPED = new Set(["WAUA"]);

interface CbnRow {
  currency?: unknown;
  ratedate?: unknown;
  centralrate?: unknown;
}

export function cbnCurrency(name: string): string | undefined {
  return CBN_CURRENCY_NAMES[name.trim().replace(/\s+/g, " ").toUpperCase()];
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not a CBN exchange-rate answer: the body is not a JSON array");
    const records: RateRecord[] = [];
    (json as CbnRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `row ${i} is not an object`);
      const name = typeof row.currency === "string" ? row.currency : "";
      if (DROPPED.has(name.trim().toUpperCase())) return;
      const currency = cbnCurrency(name);
      if (!currency) throw new FeedError(ID, `row ${i}: unknown currency name "${String(row.currency)}"`);
      const date = typeof row.ratedate === "string" ? row.ratedate.trim().slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `row ${i} (${currency}): ratedate "${String(row.ratedate)}" is not a date`);
      const raw = jsonNumberText(row.centralrate);
      if (raw === undefined || raw.trim() === "") return; // no central rate that day
      const rate = readDecimal(raw, { thousands: "," });
      if (!rate) throw new FeedError(ID, `row ${i} (${currency} on ${date}): centralrate "${raw}" is not a decimal`);
      if (!/[1-9]/.test(rate)) return; // a zero placeholder
      records.push({ effectiveDate: date, currency, rate });
    });
    return records;
  },
});

export default cbn;

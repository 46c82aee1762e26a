// Central Bank of Myanmar: the reference exchange rates of the kyat.
// - Endpoints: GET https://forex.cbm.gov.mm/api/latest, and for history /api/history/DD-MM-YYYY (data from
//   2018, with gaps), both JSON: `{"info":"Central Bank of Myanmar","description":...,"timestamp":
//   "1775721600","rates":{"USD":"2100.00","JPY":"1321.88",...}}`. The figures are strings, sometimes with
//   a thousands comma (`6,845.20`); `0.00` means not quoted that day. The date is the epoch `timestamp`
//   read in Myanmar time.
// - Quotes: MMK per unit(s) of the foreign currency (Direct). The feed does not say that some currencies
//   are quoted per 100 units. Established from the data (the 2026-04-09 answer, USD = 2100.00 MMK) by the
//   implied dollar cross rate, checked against the Bank of Thailand's figures for the same week (JPY
//   158.7 per USD on 2026-04-02): JPY 1321.88 -> 158.9 JPY per USD only per 100 JPY (per 1 it would be
//   1.59); KRW 141.81 -> 1481 per USD; IDR 12.29 -> 17088; VND 7.98 -> 26316; KHR 52.51 -> 3999; LAK 9.52
//   -> 22059: all per 100. Every other currency is per 1 (INR 22.65 -> 92.7 per USD, LKR 6.66 -> 315,
//   RSD 20.87 -> 100.6, PKR 7.53 -> 279). A code not in the table has no stated unit: held with its figure,
//   and the ingest establishes its unit from other banks' figures where they settle it.
// - Polled on working days from 10:30 Yangon time.
// Each entry of `rates` is one row: a figure that is not a number or a currency without an established
// unit holds it; a timestamp that is not epoch seconds holds every entry; an answer without a rates
// object or a timestamp is refused whole.
import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  jsonNumberText,
  parseJsonExact,
  requireDate,
  requireDecimal,
  todayIn,
  unitNotEstablished,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBM";
const API = "https://forex.cbm.gov.mm/api";
const TIME_ZONE = "Asia/Yangon";

/** The power of ten of the units each currency is quoted per (0: per 1, 2: per 100). */
export const CBM_UNITS: Readonly<Record<string, 0 | 2>> = {
  AUD: 0,
  BDT: 0,
  BND: 0,
  BRL: 0,
  CAD: 0,
  CHF: 0,
  CNY: 0,
  CZK: 0,
  DKK: 0,
  EGP: 0,
  EUR: 0,
  GBP: 0,
  HKD: 0,
  ILS: 0,
  INR: 0,
  KES: 0,
  KWD: 0,
  LKR: 0,
  MYR: 0,
  NOK: 0,
  NPR: 0,
  NZD: 0,
  PHP: 0,
  PKR: 0,
  RSD: 0,
  RUB: 0,
  SAR: 0,
  SEK: 0,
  SGD: 0,
  THB: 0,
  USD: 0,
  ZAR: 0,
  IDR: 2,
  JPY: 2,
  KHR: 2,
  KRW: 2,
  LAK: 2,
  VND: 2,
};

const ddmmyyyy = (date: string) => `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`;

const cbm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Myanmar", abbreviatedName: "CBM" },
      { languageCode: "my", name: "မြန်မာနိုင်ငံတော်ဗဟိုဘဏ်", abbreviatedName: "ဗဟိုဘဏ်" },
    ],
    dailyUpdateTime: "10:30:00",
    bankCurrency: "MMK",
    countryCode: ["MM"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.cbm.gov.mm",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2018-01-02",
    maxRangeDays: 31,
    sourceUrl: `${API}/latest`,
  },

  async fetch(range, { http }) {
    const accept = "application/json";
    if (range.kind === "latest") return [await http.get(`${API}/latest`, { accept })];
    const docs: FeedDocument[] = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      docs.push(await http.get(`${API}/history/${ddmmyyyy(day)}`, { accept }));
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as {
      timestamp?: unknown;
      rates?: unknown;
      info?: unknown;
    } | null;
    if (
      typeof json !== "object" ||
      json === null ||
      Array.isArray(json) ||
      typeof json.rates !== "object" ||
      json.rates === null ||
      Array.isArray(json.rates)
    ) {
      throw new FeedError(ID, "not a CBM forex answer: no rates object");
    }
    if (json.timestamp === undefined) throw new FeedError(ID, "not a CBM forex answer: no timestamp");
    const stamp = jsonNumberText(json.timestamp) ?? "";
    // Whole seconds to a calendar date in Myanmar.
    const date = /^\d{9,10}$/.test(stamp) ? todayIn(TIME_ZONE, new Date(Number(stamp) * 1000)) : undefined;
    const rows = new AnswerRows(ID);
    for (const [code, value] of Object.entries(json.rates as Record<string, unknown>)) {
      const raw = (jsonNumberText(value) ?? "").trim();
      if (raw === "" || raw === "-") continue; // not quoted that day
      rows.read(
        `rates.${code}`,
        (): RateRecord | undefined => {
          const effectiveDate = requireDate(ID, date, `timestamp ${stamp} (not epoch seconds)`);
          const power = CBM_UNITS[code];
          const rate = requireDecimal(ID, raw, code, { thousands: "," });
          if (!/[1-9]/.test(rate)) return undefined; // 0.00: not quoted that day
          if (power === undefined) {
            const reason = `${code} is not in the table of units (per 1 or per 100)`;
            unitNotEstablished(ID, { effectiveDate, currency: code, rate }, reason);
          }
          return power
            ? { effectiveDate, currency: code, rate, unitMultiplier: power }
            : { effectiveDate, currency: code, rate };
        },
        { effectiveDate: date ?? stamp, currency: code, rate: raw },
      );
    }
    return rows.result();
  },
});

export default cbm;

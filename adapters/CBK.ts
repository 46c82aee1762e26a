// Central Bank of Kenya: the indicative exchange rates from the bank's wpDataTables tables, asked
// for whole through WordPress's admin-ajax (table 32 covers 2003-2024, table 193 runs from 2024).
// The answer is JSON (served as text/html): rows of [DD/MM/YYYY, currency name, rate]. Most rows
// are KES per unit of the foreign currency (Direct; `JPY (100)` per 100 yen, kept as
// unitMultiplier 2); the East African cross rows `KES / USHS`, `KES / TSHS`, `KES / RWF`,
// `KES / BIF` are foreign units per 1 KES and are inverted (10 significant digits, flagged).
// Currencies are names, mapped by the table below; an unknown name is an error.
import {
  FeedError,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  invert,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBK";
const AJAX = "https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable";
/** Table 193 starts with the first fixing of 2024; earlier dates are in table 32. */
const TABLE_193_FROM = "2024-01-01";

interface Row {
  currency: string;
  units?: number;
  /** The row is foreign units per 1 KES. */
  indirect?: boolean;
}

/** The names the tables use, as recorded, to ISO 4217 codes. */
export const CBK_NAMES: Readonly<Record<string, Row>> = {
  "US DOLLAR": { currency: "USD" },
  "STG POUND": { currency: "GBP" },
  EURO: { currency: "EUR" },
  "SA RAND": { currency: "ZAR" },
  "KES / USHS": { currency: "UGX", indirect: true },
  "KES / TSHS": { currency: "TZS", indirect: true },
  "KES / RWF": { currency: "RWF", indirect: true },
  "KES / BIF": { currency: "BIF", indirect: true },
  "AE DIRHAM": { currency: "AED" },
  "CAN $": { currency: "CAD" },
  "S FRANC": { currency: "CHF" },
  "JPY (100)": { currency: "JPY", units: 100 },
  "SW KRONER": { currency: "SEK" },
  "NOR KRONER": { currency: "NOK" },
  "DAN KRONER": { currency: "DKK" },
  "IND RUPEE": { currency: "INR" },
  "HONGKONG DOLLAR": { currency: "HKD" },
  "SINGAPORE DOLLAR": { currency: "SGD" },
  "SAUDI RIYAL": { currency: "SAR" },
  "CHINESE YUAN": { currency: "CNY" },
  "AUSTRALIAN $": { currency: "AUD" },
};

const cbk = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Kenya", abbreviatedName: "CBK" },
      { languageCode: "sw", name: "Benki Kuu ya Kenya", abbreviatedName: "CBK" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "KES",
    countryCode: ["KE"],
    region: ["Africa"],
    timeZone: "Africa/Nairobi",
    website: "https://www.centralbank.go.ke",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2003-01-02",
    maxRangeDays: 36500,
    sourceUrl: `${AJAX}&table_id=193`,
  },

  async fetch(range, { http }) {
    const form = "draw=1&start=0&length=-1";
    const init = {
      accept: "application/json, text/javascript, */*; q=0.01",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
        "X-Requested-With": "XMLHttpRequest",
      },
    };
    const docs: FeedDocument[] = [];
    if (range.kind === "range" && range.from < TABLE_193_FROM)
      docs.push(await http.post(`${AJAX}&table_id=32`, form, init));
    if (range.kind === "latest" || range.to >= TABLE_193_FROM)
      docs.push(await http.post(`${AJAX}&table_id=193`, form, init));
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as { data?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.data))
      throw new FeedError(ID, "not a wpDataTables answer: no data array");
    const records: RateRecord[] = [];
    for (const [i, raw] of (json.data as unknown[]).entries()) {
      if (!Array.isArray(raw) || raw.length < 3)
        throw new FeedError(ID, `data[${i}] is not a [date, currency, rate] row`);
      const [d, n, v] = raw as unknown[];
      const date = typeof d === "string" ? fromDayMonthYear(d) : undefined;
      if (!date || !isIsoDate(date)) throw new FeedError(ID, `data[${i}]: date "${String(d)}" is not DD/MM/YYYY`);
      const name = typeof n === "string" ? n.trim().replace(/\s+/g, " ") : "";
      const row = CBK_NAMES[name];
      if (!row) throw new FeedError(ID, `data[${i}]: unknown currency name "${name}"`);
      const text = jsonNumberText(v)?.trim() ?? "";
      if (text === "" || /^(-+|n\/?a)$/i.test(text)) continue;
      const rate = readDecimal(text, { thousands: "," });
      if (rate === undefined) throw new FeedError(ID, `${date} ${row.currency}: "${text}" is not a decimal number`);
      if (!/[1-9]/.test(rate)) continue;
      if (row.indirect)
        records.push({ effectiveDate: date, currency: row.currency, rate: invert(rate), derivation: "inverted" });
      else records.push({ effectiveDate: date, currency: row.currency, ...perUnits(rate, row.units ?? 1) });
    }
    return records;
  },
});

export default cbk;

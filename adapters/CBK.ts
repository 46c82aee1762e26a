// Central Bank of Kenya: the indicative exchange rates, from the bank's wpDataTables tables.
// - Endpoint: POST https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable&table_id=N
//   with the form `draw=1&start=0&length=-1` (the whole table at once, as the site's own table asks with
//   X-Requested-With: XMLHttpRequest). Table 32 covers 2003-2023, table 193 runs from the first fixing
//   of 2024. The answer is JSON served as text/html: `{"draw":1,"recordsTotal":"6909",...,"data":
//   [["05/01/2024","US DOLLAR","157.9012"], ...]}`, rows of [DD/MM/YYYY, currency name, rate as text].
// - Quotes: KES per unit of the foreign currency (Direct); `JPY (100)` is per 100 yen (unitMultiplier 2).
//   The East African cross rows `KES / USHS`, `KES / TSHS`, `KES / RWF`, `KES / BIF` are foreign units
//   per 1 KES (the bank's codes USHS and TSHS are UGX and TZS): inverted to 10 significant digits, flagged.
// - Currencies are named in the bank's abbreviations (`STG POUND`, `CAN $`, `SW KRONER`): ICU's English
//   names first, then the table below for what ICU does not know.
// - Polled on working days from 12:00 Nairobi time. An empty rate cell is a day without a figure.
// Each data row is one row: a bad date, an unknown name or a rate that is not a number holds it; an
// answer without a data array is refused whole.
import {
  AnswerRows,
  FeedError,
  currencyOf,
  defineAdapter,
  fromDayMonthYear,
  invert,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBK";
const AJAX = "https://www.centralbank.go.ke/wp-admin/admin-ajax.php?action=get_wdtable";
/** Table 193 starts with the first fixing of 2024; earlier dates are in table 32. */
const TABLE_193_FROM = "2024-01-01";

/**
 * The bank's abbreviations no rule resolves (keys folded), each with why. The kit's resolver reads the
 * others by territory: `SA RAND` (South Africa's initials), `AE DIRHAM`, `CAN $` and `NOR KRONER`,
 * `IND RUPEE` (ISO 3166 codes), `AUSTRALIAN` (an adjective alone).
 */
const ALIASES: Readonly<Record<string, string>> = {
  // STG, the market's abbreviation of sterling: no territory, no unit.
  "stg pound": "GBP",
  // One letter for Swiss: too short to mean anything by rule.
  "s franc": "CHF",
  // "Sw." and "Dan." shorten Swedish and Danish; SW is no territory code, and DAN none of Denmark's.
  "sw kroner": "SEK",
  "dan kroner": "DKK",
};

/** The bank's codes in the cross rows that are not ISO 4217. */
const CROSS_CODES: Readonly<Record<string, string>> = { USHS: "UGX", TSHS: "TZS" };

/**
 * What a row's currency label says: the currency (and how it was resolved, when by rule), the units its
 * figure is for, and its direction.
 */
export interface CbkLabel extends CurrencyResolution {
  currency: string;
  units: string;
  /** The row is foreign units per 1 KES (`KES / USHS`). */
  indirect: boolean;
}

/** Reads a currency label (`US DOLLAR`, `JPY (100)`, `KES / USHS`); an unknown one holds the row. */
export function cbkLabel(label: string, date?: string): CbkLabel {
  const name = label.trim().replace(/\s+/g, " ");
  const cross = /^KES ?\/ ?([A-Z]{3,4})$/.exec(name);
  if (cross) {
    const code = CROSS_CODES[cross[1]!] ?? cross[1]!;
    return { currency: requireCurrencyCode(ID, code), units: "1", indirect: true };
  }
  const counted = /^(.*?) ?\((\d+)\)$/.exec(name);
  const units = counted ? requireUnits(ID, counted[2], `units of "${name}"`) : "1";
  return {
    ...resolveCurrencyName(ID, counted ? counted[1]! : name, { aliases: ALIASES, date }),
    units,
    indirect: false,
  };
}

/** Rate cells that stand for "no figure that day". */
const NO_FIGURE = /^(-+|n\/?a)?$/i;

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
    const json = parseJsonExact(ID, body) as { data?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.data))
      throw new FeedError(ID, "not a wpDataTables answer: no data array");
    const rows = new AnswerRows(ID);
    (json.data as unknown[]).forEach((raw, i) => {
      const [d, n, v] = Array.isArray(raw) ? (raw as unknown[]) : [];
      const date = typeof d === "string" ? d : "";
      const name = typeof n === "string" ? n : "";
      const text = jsonNumberText(v)?.trim() ?? "";
      rows.read(
        `data[${i}]`,
        (): RateRecord | undefined => {
          if (!Array.isArray(raw) || raw.length < 3) rowProblem(ID, "bad-row", "not a [date, currency, rate] row");
          const effectiveDate = requireDate(ID, fromDayMonthYear(date), date);
          const label = cbkLabel(name, effectiveDate);
          const currency = currencyOf(label);
          if (NO_FIGURE.test(text)) return undefined;
          const rate = requireDecimal(ID, text, "rate", { thousands: "," });
          if (!/[1-9]/.test(rate)) return undefined; // a zero: no figure that day
          if (label.indirect) return { effectiveDate, currency, rate: invert(rate), derivation: "inverted" };
          return { effectiveDate, currency, ...perUnits(rate, label.units) };
        },
        { effectiveDate: date, currency: name, rate: text },
      );
    });
    return rows.result();
  },
});

export default cbk;

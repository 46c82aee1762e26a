// Banco Central de Cuba: the daily exchange rates of the Cuban peso.
// - Endpoint: GET https://api.bc.gob.cu/v1/tasas-de-cambio/historico?codigoMoneda=XXX&fechaFin=YYYY-MM-DD
//   &fechaInicio=YYYY-MM-DD, one call per currency (AUD CAD CHF CNY DKK EUR GBP JPY MXN NOK RUB SEK USD).
// - The answer is a JSON array, one object per day: `fecha` (YYYY-MM-DD) and three parallel series as JSON
//   numbers (sometimes as strings, `null` on a day without a figure). It does not name its currency: parse
//   reads it from the URL's codigoMoneda.
// - The figure taken is `tasaEspecial` (segment III, the floating rate, from 18 December 2025), CUP per 1
//   foreign unit (Direct). `tasaOficial` (segment I, USD pegged at 24) and `tasaPublica` (segment II, USD at
//   120) are administered pegs and are not taken. A null or zero tasaEspecial is a day without it: skipped.
// - Published 7 days a week, dated the day it applies (from midnight Havana time).
import {
  FeedError,
  readRows,
  requireDate,
  requireDecimal,
  rowProblem,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  recentDays,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "BCC";
const ENDPOINT = "https://api.bc.gob.cu/v1/tasas-de-cambio/historico";
const TIME_ZONE = "America/Havana";

/** The 13 currencies BCC publishes. */
export const BCC_CURRENCIES = [
  "AUD",
  "CAD",
  "CHF",
  "CNY",
  "DKK",
  "EUR",
  "GBP",
  "JPY",
  "MXN",
  "NOK",
  "RUB",
  "SEK",
  "USD",
] as const;

interface BccRow {
  fecha?: unknown;
  tasaEspecial?: unknown;
}

function currencyOf(url: string): string {
  let code: string | null;
  try {
    code = new URL(url).searchParams.get("codigoMoneda");
  } catch {
    code = null;
  }
  if (!code || !(BCC_CURRENCIES as readonly string[]).includes(code)) {
    throw new FeedError(ID, `the answer names no currency: the URL "${url}" has no known codigoMoneda`);
  }
  return code;
}

const bcc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Cuba", abbreviatedName: "BCC" },
      { languageCode: "es", name: "Banco Central de Cuba", abbreviatedName: "BCC" },
    ],
    dailyUpdateTime: "00:00:00",
    bankCurrency: "CUP",
    countryCode: ["CU"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bc.gob.cu",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    // The floating segment III rate starts on 18 December 2025.
    coverageStart: "2025-12-18",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 3);
    const docs: FeedDocument[] = [];
    for (const code of BCC_CURRENCIES) {
      docs.push(
        await http.get(`${ENDPOINT}?codigoMoneda=${code}&fechaFin=${to}&fechaInicio=${from}`, {
          accept: "application/json",
        }),
      );
    }
    return docs;
  },

  parse(body, { url }) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not a BCC historico answer: the body is not a JSON array");
    const currency = currencyOf(url);
    const rows: unknown[] = json;
    const head = rows.find((row): row is BccRow => typeof row === "object" && row !== null);
    if (head && !("fecha" in head && "tasaEspecial" in head)) {
      throw new FeedError(ID, `the layout changed: rows have ${Object.keys(head).join(", ")}`);
    }
    return readRows(
      ID,
      rows,
      (_row, i) => `row ${i}`,
      (item) => {
        if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "not a {fecha, tasa…} object");
        const row = item as BccRow;
        const fecha = typeof row.fecha === "string" ? row.fecha : String(row.fecha);
        const raw = jsonNumberText(row.tasaEspecial);
        if (raw === undefined || raw.trim() === "") return undefined; // no segment III rate that day
        const day = fecha.slice(0, 10);
        const date = requireDate(ID, isIsoDate(day) ? day : undefined, fecha);
        const rate = requireDecimal(ID, raw.trim(), `${currency} tasaEspecial`);
        if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
        return { effectiveDate: date, currency, rate };
      },
    );
  },
});

export default bcc;

// Banco Central de Cuba: the daily exchange rates of the Cuban peso, as JSON, one call per currency (the
// currency is named only in the URL's codigoMoneda). Three parallel series are published; the figure taken is
// `tasaEspecial` (segment III, the floating rate), CUP per 1 foreign unit (Direct). `tasaOficial` (segment I,
// USD pegged at 24) and `tasaPublica` (segment II, USD at 120) are administered pegs and are not taken.
// Published 7 days a week.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
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
  let code: string | null = null;
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
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not a BCC historico answer: the body is not a JSON array");
    const currency = currencyOf(url);
    const records: RateRecord[] = [];
    (json as BccRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null || !("fecha" in row))
        throw new FeedError(ID, `row ${i} is not a {fecha, tasa…} object`);
      const date = typeof row.fecha === "string" ? row.fecha.slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `row ${i} (${currency}): fecha "${String(row.fecha)}" is not a date`);
      const raw = jsonNumberText(row.tasaEspecial);
      if (raw === undefined || raw.trim() === "") return; // no segment III rate that day
      const rate = readDecimal(raw);
      if (!rate) throw new FeedError(ID, `row ${i} (${currency} on ${date}): tasaEspecial "${raw}" is not a decimal`);
      if (!/[1-9]/.test(rate)) return; // a zero placeholder
      records.push({ effectiveDate: date, currency, rate });
    });
    return records;
  },
});

export default bcc;

// Bank of Mexico: exchange rates from the SIE API (JSON), series by id. MXN per 1 unit (Direct):
// SF43718 is the FIX (the rate to settle obligations in US dollars, by its determination date);
// SF46410, SF46407, SF46406 are the euro, pound and yen of the SDR basket and SF60632 the Canadian
// dollar, all against the peso. "N/E" marks a day without a figure; dates are DD/MM/YYYY; numbers may
// carry comma thousands separators.
import {
  FeedError,
  asArray,
  credentialFrom,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  parseJsonExact,
  readDecimal,
  recentDays,
  type BankAdapter,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BANXICO";
const API = "https://www.banxico.org.mx/SieAPIRest/service/v1/series";
const TIME_ZONE = "America/Mexico_City";

/** SIE series id to the currency it prices in pesos. */
export const BANXICO_SERIES: Readonly<Record<string, string>> = {
  SF43718: "USD",
  SF46410: "EUR",
  SF46407: "GBP",
  SF46406: "JPY",
  SF60632: "CAD",
};
const SERIES_PATH = "SF43718,SF46410,SF46407,SF46406,SF60632";
const MISSING = new Set(["N/E", ""]);

interface Serie {
  idSerie?: unknown;
  datos?: unknown;
}

const banxico: BankAdapter = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Mexico", abbreviatedName: "Banxico" },
      { languageCode: "es", name: "Banco de México", abbreviatedName: "Banxico" },
    ],
    // The FIX is determined at 12:00 Mexico City time on banking days.
    dailyUpdateTime: "12:00:00",
    bankCurrency: "MXN",
    countryCode: ["MX"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.banxico.org.mx",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1991-11-12",
    maxRangeDays: 366,
    sourceUrl: `${API}/${SERIES_PATH}/datos`,
    credential: {
      env: "EXRATES_BANXICO_API_KEY",
      description: "SIE API token of Banco de México (banxico.org.mx/SieAPIRest), sent as the Bmx-Token header",
    },
  },

  async fetch(range, ctx) {
    const token = credentialFrom(banxico, ctx);
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${API}/${SERIES_PATH}/datos/${from}/${to}`;
    return [await ctx.http.get(url, { accept: "application/json", headers: { "Bmx-Token": token } })];
  },

  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body)) as { bmx?: { series?: unknown } } | null;
    const series =
      json && typeof json === "object" && json.bmx && typeof json.bmx === "object" ? json.bmx.series : undefined;
    if (!Array.isArray(series)) throw new FeedError(ID, "not a SIE answer: no bmx.series array");
    const records: RateRecord[] = [];
    for (const serie of series as Serie[]) {
      const id = String(serie.idSerie ?? "");
      const currency = BANXICO_SERIES[id];
      if (!currency) throw new FeedError(ID, `unknown series "${id}"`);
      for (const dato of asArray(serie.datos as Array<{ fecha?: unknown; dato?: unknown }>)) {
        const raw = typeof dato.dato === "string" ? dato.dato.trim() : "";
        if (MISSING.has(raw)) continue;
        const date = typeof dato.fecha === "string" ? fromDayMonthYear(dato.fecha) : undefined;
        if (!date) throw new FeedError(ID, `${id}: fecha "${String(dato.fecha)}" is not DD/MM/YYYY`);
        const rate = readDecimal(raw, { thousands: "," });
        if (rate === undefined) throw new FeedError(ID, `${id} on ${date}: "${raw}" is not a decimal`);
        records.push({ effectiveDate: date, currency, rate });
      }
    }
    return records;
  },
});

export default banxico;

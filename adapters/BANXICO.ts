// Bank of Mexico: exchange rates from the SIE API, series by id, MXN per 1 unit (Direct).
// - Endpoint: GET https://www.banxico.org.mx/SieAPIRest/service/v1/series/<ids, comma-separated>/datos/<from>/<to>
//   (dates YYYY-MM-DD), with the SIE token in the Bmx-Token header; one call covers the whole range.
// - Series: SF43718 is the FIX (the rate to settle obligations in US dollars, dated by its determination
//   date); SF46410, SF46407 and SF46406 are the euro, pound and yen of the SDR basket and SF60632 the
//   Canadian dollar, all against the peso.
// - The answer is JSON `{ bmx: { series: [{ idSerie, titulo, datos: [{ fecha, dato }] }] } }`: `fecha` is
//   DD/MM/YYYY, `dato` a string that may carry comma thousands separators ("1,013.2500"); "N/E" marks a day
//   without a figure (skipped). A series comes back with empty `datos` when it has nothing in the range.
// - The FIX is determined at 12:00 Mexico City time on banking days.
import {
  AnswerRows,
  FeedError,
  asArray,
  credentialFrom,
  defineAdapter,
  fromDayMonthYear,
  parseJsonExact,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type BankAdapter,
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
    const json = parseJsonExact(ID, body) as { bmx?: { series?: unknown } } | null;
    const series =
      json && typeof json === "object" && json.bmx && typeof json.bmx === "object" ? json.bmx.series : undefined;
    if (!Array.isArray(series)) throw new FeedError(ID, "not a SIE answer: no bmx.series array");
    for (const serie of series as Serie[]) {
      if (typeof serie !== "object" || serie === null || !("idSerie" in serie)) {
        throw new FeedError(ID, "the layout changed: a series without idSerie");
      }
    }
    const rows = new AnswerRows(ID);
    for (const serie of series as Serie[]) {
      const id = typeof serie.idSerie === "string" ? serie.idSerie : JSON.stringify(serie.idSerie);
      const currency = BANXICO_SERIES[id];
      asArray(serie.datos as unknown[]).forEach((item, i) => {
        const dato = (typeof item === "object" && item !== null ? item : {}) as { fecha?: unknown; dato?: unknown };
        const raw = typeof dato.dato === "string" ? dato.dato.trim() : String(dato.dato);
        const fecha = String(dato.fecha);
        if (MISSING.has(raw)) return;
        const fields = { effectiveDate: fecha, currency: id, rate: raw };
        rows.read(
          `serie ${id} datos[${i}]`,
          () => {
            if (!currency) rowProblem(ID, "unknown-currency", `series "${id}" is not one of the series asked for`);
            const date = requireDate(ID, fromDayMonthYear(fecha), fecha);
            return { effectiveDate: date, currency, rate: requireDecimal(ID, raw, `${id} dato`, { thousands: "," }) };
          },
          fields,
        );
      });
    }
    return rows.result();
  },
});

export default banxico;

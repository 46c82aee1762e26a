// Central Bank of Costa Rica: the BCCR reference rate of the US dollar from the SDDE indicators API
// (the site's own "cuadro" of variable group 1, JSON). The table is pivoted: `columnas` are the dates
// ("15 dec 2025"), `indicadoresRaiz` the rows, each with `serieN` (Spanish text, decimal comma) and
// `serieNIngles` (decimal point). The official figure taken is the SELLING reference rate,
// indicator 318 "Venta"/"Sell" (BANKS.md), CRC per 1 USD (Direct); its row label is checked.
// Rates exist for every calendar day (Friday's rate carries over the weekend as the bank sets it).
// Access needs an anonymous JWT from Token/GenereCSRF, sent as header token_csrf with the site's Origin.
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  parseJsonExact,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCCR";
const API = "https://apim.bccr.fi.cr/SDDE/api";
const TOKEN_URL = `${API}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`;
const DATA_URL = `${API}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro`;
const ORIGIN = "https://sdd.bccr.fi.cr";
const TIME_ZONE = "America/Costa_Rica";
const SELL = 318;

const MONTHS_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTHS_ES = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"];

/** "15 dec 2025" (or the Spanish "15 dic 2025") to ISO; undefined when it is not such a date. */
export function columnDate(title: string, months: readonly string[] = MONTHS_EN): string | undefined {
  const m = /^(\d{1,2}) ([a-z]{3})\.? (\d{4})$/i.exec(title.trim());
  if (!m) return undefined;
  const month = months.indexOf(m[2]!.toLowerCase());
  return month < 0 ? undefined : isoFromParts(m[3]!, month + 1, m[1]!);
}

interface Indicator {
  idIndicador?: unknown;
  nombreEspanol?: unknown;
  nombreIngles?: unknown;
  series?: Record<string, unknown>;
}

const bccr = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Costa Rica", abbreviatedName: "BCCR" },
      { languageCode: "es", name: "Banco Central de Costa Rica", abbreviatedName: "BCCR" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "CRC",
    countryCode: ["CR"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bccr.fi.cr",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    coverageStart: "1992-03-02",
    // At most 100 date columns per call.
    maxRangeDays: 90,
    sourceUrl: `${DATA_URL}?IdGrupoVariable=1`,
  },

  // The token is fetched first in the same session; only the data answer is returned.
  async fetch(range, { http }) {
    const session = http.session();
    const tokenDoc = await session.get(TOKEN_URL, { accept: "text/plain" });
    const token = expectFeedText(ID, decodeText(ID, tokenDoc.body), "a CSRF token").trim();
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new FeedError(ID, "Token/GenereCSRF did not answer a token");
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${DATA_URL}?IdGrupoVariable=1&FechaInicio=${from}T00:00:00&FechaFin=${to}&CantidadSeriesAMostrar=100`;
    const docs: FeedDocument[] = [
      await session.get(url, { accept: "application/json", headers: { token_csrf: token, Origin: ORIGIN } }),
    ];
    return docs;
  },

  parse(body, { url }) {
    const text = decodeText(ID, body);
    if (url.includes("/Token/GenereCSRF")) {
      // The anonymous token answer carries no rate.
      if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(expectFeedText(ID, text, "a CSRF token").trim()))
        throw new FeedError(ID, "Token/GenereCSRF answer is not a token");
      return [];
    }
    const json = parseJsonExact(ID, text) as { columnas?: unknown; indicadoresRaiz?: unknown } | null;
    if (
      typeof json !== "object" ||
      json === null ||
      !Array.isArray(json.columnas) ||
      !Array.isArray(json.indicadoresRaiz)
    ) {
      throw new FeedError(ID, "not an SDDE cuadro: no columnas and indicadoresRaiz");
    }
    const sell = asArray(json.indicadoresRaiz as Indicator[]).find((i) => String(i.idIndicador) === String(SELL));
    if (!sell) throw new FeedError(ID, `no indicator ${SELL} (selling reference rate) in the cuadro`);
    if (sell.nombreEspanol !== "Venta" || sell.nombreIngles !== "Sell") {
      throw new FeedError(
        ID,
        `indicator ${SELL} is labelled "${String(sell.nombreEspanol)}"/"${String(sell.nombreIngles)}", not Venta/Sell`,
      );
    }
    const series = sell.series ?? {};
    const records: RateRecord[] = [];
    for (const col of json.columnas as Array<{ field?: unknown; tituloIngles?: unknown; tituloEspanol?: unknown }>) {
      const field = String(col.field ?? "");
      if (field === "nombre") continue;
      if (!/^serie\d+$/.test(field)) throw new FeedError(ID, `unexpected column "${field}"`);
      const date = columnDate(String(col.tituloIngles ?? ""));
      if (!date || (col.tituloEspanol !== undefined && columnDate(String(col.tituloEspanol), MONTHS_ES) !== date)) {
        throw new FeedError(
          ID,
          `column ${field}: titles "${String(col.tituloIngles)}"/"${String(col.tituloEspanol)}" are not one date`,
        );
      }
      const english = series[`${field}Ingles`];
      const spanish = series[field];
      if (english === undefined || english === null || english === "") continue; // no rate that day
      const rate = typeof english === "string" ? readDecimal(english) : undefined;
      if (rate === undefined) throw new FeedError(ID, `${date}: "${String(english)}" is not a decimal`);
      if (typeof spanish === "string" && readDecimal(spanish, { decimalComma: true, thousands: "." }) !== rate) {
        throw new FeedError(ID, `${date}: the Spanish and English figures differ ("${spanish}", "${english}")`);
      }
      if (!/[1-9]/.test(rate)) continue; // 0,00: no rate that day
      records.push({ effectiveDate: date, currency: "USD", rate });
    }
    return records;
  },
});

export default bccr;

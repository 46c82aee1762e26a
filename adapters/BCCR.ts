// Central Bank of Costa Rica: the BCCR reference rate of the US dollar from the SDDE indicators API (the
// site's own "cuadro" of variable group 1).
// - Access: an anonymous JWT from GET …/Token/GenereCSRF (plain text), then GET …/CuadroGrupoVariables/
//   ObtenerDatosCuadro?IdGrupoVariable=1&FechaInicio=YYYY-MM-DDT00:00:00&FechaFin=YYYY-MM-DD
//   &CantidadSeriesAMostrar=100 with the token in the token_csrf header and the site's Origin
//   (https://sdd.bccr.fi.cr), in one session. The token answer carries no rate: it is a navigation answer.
//   One call gives at most 100 date columns.
// - The answer is JSON and the table is pivoted: `columnas` are the dates (`field` serieN, `tituloIngles`
//   "15 dec 2025", `tituloEspanol` "15 dic 2025"), `indicadoresRaiz` the rows, each with `serieN` (Spanish
//   text, decimal comma, dot thousands) and `serieNIngles` (decimal point) for every column.
// - The official figure taken is the SELLING reference rate, indicator 318 labelled "Venta"/"Sell", CRC per
//   1 USD (Direct); its row label is checked (another label means the cuadro changed). An empty or 0,00
//   figure is a day without a rate: skipped. A column whose English and Spanish figures differ is held.
// - Rates exist for every calendar day (Friday's rate carries over the weekend as the bank sets it); the
//   day's rate is set around 12:00 Costa Rica time.
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  parseJsonExact,
  readDecimal,
  readRows,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BCCR";
const API = "https://apim.bccr.fi.cr/SDDE/api";
const TOKEN_URL = `${API}/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF`;
const DATA_URL = `${API}/Bccr.GE.SDDE.IndicadoresSitioExterno.GrupoVariables.API/CuadroGrupoVariables/ObtenerDatosCuadro`;
const ORIGIN = "https://sdd.bccr.fi.cr";
const TIME_ZONE = "America/Costa_Rica";
const SELL = 318;

/** "15 dec 2025" (with `["es"]`, "15 dic 2025") to ISO; undefined when it is not such a date. */
export function columnDate(title: string, locales: readonly string[] = ["en"]): string | undefined {
  const m = /^(\d{1,2}) (\p{L}{3,4})\.? (\d{4})$/u.exec(title.trim());
  if (!m) return undefined;
  const month = monthNumber(m[2]!, locales);
  return month === undefined ? undefined : isoFromParts(m[3]!, month, m[1]!);
}

/** A JSON value as text, for messages and held rows. */
const textOf = (value: unknown): string => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

interface Column {
  field?: unknown;
  tituloIngles?: unknown;
  tituloEspanol?: unknown;
}

interface Indicator {
  idIndicador?: unknown;
  nombreEspanol?: unknown;
  nombreIngles?: unknown;
  series?: Record<string, unknown>;
}

const bccr = defineAdapter({
  navigation: /\/Token\/GenereCSRF/,
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

  // The token is fetched first in the same session and returned as a navigation answer (never parsed).
  async fetch(range, { http }) {
    const session = http.session();
    const tokenDoc = await session.get(TOKEN_URL, { accept: "text/plain" });
    const token = expectFeedText(ID, decodeText(ID, tokenDoc.body), "a CSRF token").trim();
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new FeedError(ID, "Token/GenereCSRF did not answer a token");
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${DATA_URL}?IdGrupoVariable=1&FechaInicio=${from}T00:00:00&FechaFin=${to}&CantidadSeriesAMostrar=100`;
    const docs: FeedDocument[] = [
      { ...tokenDoc, role: "navigation" },
      await session.get(url, { accept: "application/json", headers: { token_csrf: token, Origin: ORIGIN } }),
    ];
    return docs;
  },

  parse(body) {
    const text = decodeText(ID, body);
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
    const columns = (json.columnas as Column[]).filter((col) => col.field !== "nombre");
    for (const col of columns) {
      if (typeof col.field !== "string" || !/^serie\d+$/.test(col.field))
        throw new FeedError(ID, `the layout changed: unexpected column "${String(col.field)}"`);
    }
    return readRows(
      ID,
      columns,
      (col) => `column ${String(col.field)}`,
      (col) => {
        const field = String(col.field);
        const value = series[`${field}Ingles`];
        const spanish = series[field];
        if (value === undefined || value === null || value === "") return undefined; // no rate that day
        const english = textOf(value);
        const titles = `${textOf(col.tituloIngles)}/${textOf(col.tituloEspanol)}`;
        const fields = { effectiveDate: titles, currency: "USD", rate: english };
        const date = columnDate(textOf(col.tituloIngles));
        const oneDate =
          date !== undefined &&
          (col.tituloEspanol === undefined || columnDate(textOf(col.tituloEspanol), ["es"]) === date);
        const effectiveDate = requireDate(ID, oneDate ? date : undefined, titles);
        const rate = requireDecimal(ID, english, "the English figure");
        if (typeof spanish === "string" && readDecimal(spanish, { decimalComma: true, thousands: "." }) !== rate) {
          rowProblem(ID, "conflict", `the Spanish and English figures differ ("${spanish}", "${english}")`, fields);
        }
        if (!/[1-9]/.test(rate)) return undefined; // 0,00: no rate that day
        return { effectiveDate, currency: "USD", rate };
      },
    );
  },
});

export default bccr;

// Banco Central de la República Argentina: "Cotizaciones" of the Estadísticas Cambiarias API v1.0.
// - Endpoint: GET https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones?fecha=YYYY-MM-DD, one call
//   per weekday. The answer is JSON `{ status, results: { fecha, detalle: [{ codigoMoneda, descripcion,
//   tipoPase, tipoCotizacion }] } }`; an error has a status other than 200 and `errorMessages`; a holiday
//   comes back as `{ fecha: null, detalle: [] }`.
// - The figure is `tipoCotizacion` (eight decimals, kept), ARS per 1 foreign unit (Direct); `tipoPase` is the
//   USD parity and is not used. A currency quoted per N units says so in its description ("DONG VIETNAM
//   (C/1.000 UNIDADES)", a dot as thousands separator) and N is kept (1000 gives unitMultiplier 3).
// - Skipped as no rates: ARS itself, REF (the Com. A 3500 reference dollar, not a currency), and a zero
//   tipoCotizacion (the metals, priced in USD only). Held: VEB, a Venezuelan code retired twice over, whose
//   unit (bolívar of 2008 or of 2018, per 1 or per 1000) cannot be told from the feed. CNH (the offshore
//   yuan, not ISO 4217) is passed on as written and held by the ingest gate.
// - MXP, the bank's legacy code for the Mexican peso, is published as MXN: its figure (78.438321 ARS with USD
//   at 1394.5 on 2026-03-19, i.e. 17.78 per USD) is the current peso, not the pre-1993 one.
// - Published on weekdays in the afternoon (polled from 15:00 Buenos Aires time).
import {
  AnswerRows,
  addDays,
  defineAdapter,
  FeedError,
  isIsoDate,
  jsonNumberText,
  noPublication,
  parseJsonExact,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCRA";
const ENDPOINT = "https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones";
const TIME_ZONE = "America/Argentina/Buenos_Aires";
/** Rows that are not rates of a foreign currency: the peso itself, the Com. A 3500 reference dollar. */
const NOT_RATES = new Set(["ARS", "REF"]);
/** Codes whose unit cannot be told from the feed. */
const UNKNOWN_UNIT = new Set(["VEB"]);
const RENAMED: Readonly<Record<string, string>> = { MXP: "MXN" };

type Node = Record<string, unknown>;

/** N of "(C/1.000 UNIDADES)", with the dot as thousands separator; 1 when absent. */
function unitsOf(description: string): string {
  const m = /C\/\s*([\d.]+)\s*UNIDADES/i.exec(description);
  if (!m) return "1";
  // Dots group thousands here ("1.000"); read by hand, since a lone dot would otherwise be a decimal point.
  const grouped = m[1]!;
  const units = /^\d{1,3}(\.\d{3})*$/.test(grouped) ? grouped.split(".").join("") : "";
  if (!/^[1-9]\d*$/.test(units))
    rowProblem(ID, "unknown-unit", `unit count "${m[1]}" in "${description}" is not a whole number`);
  return units;
}

const bcra = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Argentine Republic", abbreviatedName: "BCRA" },
      { languageCode: "es", name: "Banco Central de la República Argentina", abbreviatedName: "BCRA" },
    ],
    dailyUpdateTime: "15:00:00",
    bankCurrency: "ARS",
    countryCode: ["AR"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcra.gob.ar",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2003-01-02",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-3);
    const docs: FeedDocument[] = [];
    for (const day of days) docs.push(await http.get(`${ENDPOINT}?fecha=${day}`, { accept: "application/json" }));
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as Node;
    const results = typeof json === "object" && json !== null ? (json.results as Node | undefined) : undefined;
    if (!results || typeof results !== "object" || !Array.isArray(results.detalle)) {
      throw new FeedError(ID, "not a BCRA Cotizaciones answer: no results.detalle");
    }
    const status = jsonNumberText(json.status);
    if (status !== undefined && status !== "200") throw new FeedError(ID, `the API answered status ${status}`);
    if (results.fecha === null) {
      if ((results.detalle as unknown[]).length) throw new FeedError(ID, "rates without a date");
      return noPublication("the API answered with no date and no rates (a holiday)");
    }
    const fecha = typeof results.fecha === "string" ? results.fecha : JSON.stringify(results.fecha);
    const rows = new AnswerRows(ID);
    (results.detalle as unknown[]).forEach((item, i) => {
      const row = (typeof item === "object" && item !== null ? item : {}) as Node;
      const code = typeof row.codigoMoneda === "string" ? row.codigoMoneda.trim() : JSON.stringify(row.codigoMoneda);
      if (NOT_RATES.has(code)) return;
      const raw = jsonNumberText(row.tipoCotizacion);
      const description = typeof row.descripcion === "string" ? row.descripcion : "";
      rows.read(
        `detalle[${i}]`,
        (): RateRecord | undefined => {
          const effectiveDate = requireDate(ID, isIsoDate(fecha) ? fecha : undefined, fecha);
          if (!/^[A-Z]{3}$/.test(code)) requireCurrencyCode(ID, code);
          const value = requireDecimal(ID, raw ?? "", "tipoCotizacion");
          if (!/[1-9]/.test(value)) return undefined; // no ARS figure (metals)
          if (UNKNOWN_UNIT.has(code))
            rowProblem(
              ID,
              "unknown-unit",
              `${code} "${description}": which bolívar, and per how many, the feed does not say`,
            );
          // CNH and other non-ISO codes go on as written: the ingest gate holds them.
          return { effectiveDate, currency: RENAMED[code] ?? code, ...perUnits(value, unitsOf(description)) };
        },
        { effectiveDate: fecha, currency: code, rate: raw },
      );
    });
    return rows.result();
  },
});

export default bcra;

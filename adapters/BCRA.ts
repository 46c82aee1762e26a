// Banco Central de la República Argentina: "Cotizaciones" of the Estadísticas Cambiarias API v1.0
// (JSON), one call per weekday. The figure is `tipoCotizacion`, ARS per 1 foreign unit (Direct);
// a currency quoted per N units says so in its description ("DONG VIETNAM (C/1.000 UNIDADES)",
// a dot as thousands separator) and N is kept (1000 gives unitMultiplier 3). `tipoPase` is the
// USD parity and is not used. Dropped: ARS itself, REF (the Com. A 3500 reference, not a currency),
// VEB (a Venezuelan code retired twice over, whose unit cannot be told from the feed) and CNH
// (offshore yuan, not an ISO 4217 code). MXP, the bank's legacy code for the Mexican peso, is
// published as MXN: its figure (78.438321 ARS with USD at 1394.5 on 2026-03-19, i.e. 17.78 per USD)
// is the current peso, not the pre-1993 one. A zero tipoCotizacion (the metals, priced in USD only)
// means no ARS figure. Holidays come back as {fecha: null, detalle: []}.
import {
  addDays,
  decodeText,
  defineAdapter,
  FeedError,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  todayIn,
  weekdaysBetween,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCRA";
const ENDPOINT = "https://api.bcra.gob.ar/estadisticascambiarias/v1.0/Cotizaciones";
const TIME_ZONE = "America/Argentina/Buenos_Aires";
const DROPPED = new Set(["ARS", "REF", "VEB", "CNH"]);
const RENAMED: Readonly<Record<string, string>> = { MXP: "MXN" };

type Node = Record<string, unknown>;

/** N of "(C/1.000 UNIDADES)", with the dot as thousands separator; 1 when absent. */
function unitsOf(description: string, where: string): string {
  const m = /C\/\s*([\d.]+)\s*UNIDADES/i.exec(description);
  if (!m) return "1";
  // Dots group thousands here ("1.000"); read by hand, since a lone dot would otherwise be a decimal point.
  const grouped = m[1]!;
  const units = /^\d{1,3}(\.\d{3})*$/.test(grouped) ? grouped.split(".").join("") : "";
  if (!/^[1-9]\d*$/.test(units))
    throw new FeedError(ID, `${where}: unit count "${m[1]}" in "${description}" is not a whole number`);
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
    const json = parseJsonExact(ID, decodeText(ID, body)) as Node;
    const results = typeof json === "object" && json !== null ? (json.results as Node | undefined) : undefined;
    if (!results || typeof results !== "object" || !Array.isArray(results.detalle)) {
      throw new FeedError(ID, "not a BCRA Cotizaciones answer: no results.detalle");
    }
    const status = jsonNumberText(json.status);
    if (status !== undefined && status !== "200") throw new FeedError(ID, `the API answered status ${status}`);
    if (results.fecha === null) {
      if ((results.detalle as unknown[]).length) throw new FeedError(ID, "rates without a date");
      return []; // a holiday
    }
    const date = typeof results.fecha === "string" ? results.fecha : "";
    if (!isIsoDate(date)) throw new FeedError(ID, `fecha "${String(results.fecha)}" is not a date`);
    const byCurrency = new Map<string, RateRecord>();
    for (const row of results.detalle as Node[]) {
      const code = typeof row?.codigoMoneda === "string" ? row.codigoMoneda.trim() : "";
      if (!/^[A-Z]{3}$/.test(code))
        throw new FeedError(ID, `codigoMoneda "${String(row?.codigoMoneda)}" is not a currency code`);
      if (DROPPED.has(code)) continue;
      const currency = RENAMED[code] ?? code;
      const where = `${code} on ${date}`;
      const raw = jsonNumberText(row.tipoCotizacion);
      const value = raw === undefined ? undefined : readDecimal(raw);
      if (value === undefined) throw new FeedError(ID, `${where}: tipoCotizacion "${String(raw)}" is not a decimal`);
      if (!/[1-9]/.test(value)) continue; // no ARS figure (metals)
      const units = unitsOf(typeof row.descripcion === "string" ? row.descripcion : "", where);
      const record: RateRecord = { effectiveDate: date, currency, ...perUnits(value, units) };
      const seen = byCurrency.get(currency);
      if (seen && (seen.rate !== record.rate || seen.unitMultiplier !== record.unitMultiplier)) {
        throw new FeedError(
          ID,
          `${currency} appears twice on ${date} with different figures (${seen.rate}, ${record.rate}): the day is refused`,
        );
      }
      byCurrency.set(currency, record);
    }
    return [...byCurrency.values()];
  },
});

export default bcra;

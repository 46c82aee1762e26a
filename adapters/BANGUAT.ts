// Banco de Guatemala: the reference rate of the quetzal against the US dollar, from its SOAP service.
// - Endpoint: POST https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx, SOAP 1.1 (`Content-Type:
//   text/xml; charset=utf-8`, SOAPAction `http://www.banguat.gob.gt/variables/ws/<operation>`).
//   `TipoCambioRango` (fechainit, fechafin as dd/mm/yyyy; 1990 to today fits in one call) is what we ask,
//   for the latest days and for a backfill chunk alike. `TipoCambioDia` (no arguments: today's
//   `<referencia>`) is read too, when a saved answer is given to `exrates import`. The answer is one line of
//   XML; which operation answered is read from the body, not the URL (both share it).
// - GTQ per 1 USD (Direct, `moneda` 2). Rango gives `<venta>` and `<compra>`; from 2006-12-01 they are equal,
//   and equal to Dia's `<referencia>`: the official reference rate, published as written (`7.62106`). Up to
//   2006-11-30 they differ every day (buying above selling on some days of 1990-91): the published figure is
//   their exact mean, flagged `mean` (see docs/DECISIONS.md, "BANGUAT").
// - Every calendar day is listed: a weekend repeats the Friday before. A Saturday or Sunday whose figures
//   repeat the day before it (or whose day before the answer does not hold) is that carry-over, not a
//   publication: skipped, so that the weekend reads as Friday's set in force. A weekend day with figures of
//   its own is kept as the bank gives it. Weekday holidays also repeat the day before; they are kept, as
//   the figure the bank states for that date (the service has no Guatemalan closing calendar). Five days
//   are missing in 36 years; a zero or empty figure is a day without a rate, skipped.
// - `TotalItems` gives the row count: an answer holding another number of rows is truncated, refused. A
//   `soap:Fault` (`System.FormatException` for a bad date) is refused whole with its fault string.
// - Publication: not established; `TipoCambioDia` gave the day's own date on the morning it was probed, so
//   the rate of a day is known at its start. 08:00 Guatemala time is an estimate. Banguat's edge has been
//   seen resetting connections from some hosting ranges (another service gave up on it for that reason).
import {
  AnswerRows,
  noPublication,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  mean,
  parseXml,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
  weekday,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BANGUAT";
const TIME_ZONE = "America/Guatemala";
const ENDPOINT = "https://www.banguat.gob.gt/variables/ws/TipoCambio.asmx";
const NS = "http://www.banguat.gob.gt/variables/ws/";
/** Banguat's currency number for the US dollar (the only one TipoCambioRango answers). */
const US_DOLLAR = "2";

const dmy = (date: IsoDate) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The SOAP 1.1 envelope of a TipoCambioRango call. */
export function banguatRangeRequest(from: IsoDate, to: IsoDate): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <TipoCambioRango xmlns="${NS}">
      <fechainit>${dmy(from)}</fechainit>
      <fechafin>${dmy(to)}</fechafin>
    </TipoCambioRango>
  </soap:Body>
</soap:Envelope>
`;
}

/** The child of `node` named `name`, whatever namespace prefix it carries. */
function child(node: unknown, name: string): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
}

const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value).trim() : "");

/** One day of an answer, as written: its date, currency number and the figures to publish from. */
interface Day {
  fecha: string;
  moneda: string;
  /** `referencia` (Dia), or `venta` and `compra` (Rango). */
  figures: string[];
  source: string;
}

/** The days of a TipoCambioDia or TipoCambioRango answer; a fault, another answer or a truncated one is refused. */
function daysOf(body: Uint8Array): Day[] {
  const soapBody = child(child(parseXml(ID, decodeText(ID, body)), "Envelope"), "Body");
  const fault = child(soapBody, "Fault");
  if (fault !== undefined) {
    const reason = text(child(fault, "faultstring")).split("\n")[0]!.slice(0, 300);
    throw new FeedError(ID, `SOAP fault: ${reason || "no reason given"}`);
  }
  const dia = child(child(soapBody, "TipoCambioDiaResponse"), "TipoCambioDiaResult");
  const rango = child(child(soapBody, "TipoCambioRangoResponse"), "TipoCambioRangoResult");
  let days: Day[];
  let total: string;
  if (dia !== undefined) {
    days = asArray(child(child(dia, "CambioDolar"), "VarDolar")).map((v, i) => ({
      fecha: text(child(v, "fecha")),
      moneda: US_DOLLAR,
      figures: [text(child(v, "referencia"))],
      source: `<VarDolar> ${i + 1}`,
    }));
    total = text(child(dia, "TotalItems"));
  } else if (rango !== undefined) {
    days = asArray(child(child(rango, "Vars"), "Var")).map((v, i) => ({
      fecha: text(child(v, "fecha")),
      moneda: text(child(v, "moneda")),
      figures: [text(child(v, "venta")), text(child(v, "compra"))],
      source: `<Var> ${i + 1}`,
    }));
    total = text(child(rango, "TotalItems"));
  } else {
    throw new FeedError(ID, "not a TipoCambio answer: no TipoCambioDiaResult or TipoCambioRangoResult");
  }
  if (total !== String(days.length))
    throw new FeedError(
      ID,
      `TotalItems says ${total || "nothing"} but the answer holds ${days.length} days (truncated?)`,
    );
  return days;
}

/** The record of one day: the figure as written when the sides agree, else their exact mean. */
function readDay(day: Day): RateRecord | undefined {
  const effectiveDate = requireDate(ID, fromDayMonthYear(day.fecha), day.fecha);
  if (day.moneda !== US_DOLLAR)
    rowProblem(ID, "unknown-currency", `Banguat currency number "${day.moneda}" is not the US dollar (2)`);
  if (day.figures.every((f) => f === "" || !/[1-9]/.test(f))) return undefined; // no rate that day
  const [first, second] = day.figures.map((f, i) => requireDecimal(ID, f, i === 0 ? "venta/referencia" : "compra"));
  if (second === undefined || first === second) return { effectiveDate, currency: "USD", rate: first! };
  return { effectiveDate, currency: "USD", rate: mean(first!, second), derivation: "mean" };
}

const banguat = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Guatemala", abbreviatedName: "BANGUAT" },
      { languageCode: "es", name: "Banco de Guatemala", abbreviatedName: "BANGUAT" },
    ],
    // An estimate (see the header): the day's rate is there in the morning.
    dailyUpdateTime: "08:00:00",
    bankCurrency: "GTQ",
    countryCode: ["GT"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.banguat.gob.gt",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1990-01-01",
    maxRangeDays: 3653,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    // Two days more before a chunk, so that a weekend at its start can be told from Friday's carry-over.
    const { from, to } =
      range.kind === "range" ? { ...range, from: addDays(range.from, -2) } : recentDays(TIME_ZONE, 7);
    return [
      await http.post(ENDPOINT, banguatRangeRequest(from, to), {
        accept: "text/xml",
        headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${NS}TipoCambioRango"` },
      }),
    ];
  },

  parse(body) {
    const days = daysOf(body);
    const written = new Map(days.map((d) => [fromDayMonthYear(d.fecha), d.figures.join("/")]));
    const rows = new AnswerRows(ID);
    for (const day of days) {
      const date = fromDayMonthYear(day.fecha);
      // A weekend day repeating the day before (or without it in the answer) is a carry-over, not a publication.
      if (date !== undefined && weekday(date) >= 6) {
        const before = written.get(addDays(date, -1));
        if (before === undefined || before === day.figures.join("/")) continue;
      }
      rows.read(day.source, () => readDay(day), {
        effectiveDate: day.fecha,
        currency: day.moneda,
        rate: day.figures.join(" / "),
      });
    }
    const answer = rows.result();
    if (answer.records.length + answer.held.length > 0 || days.length === 0) return answer;
    return noPublication("every day of the answer is a weekend carry-over or without a rate");
  },
});

export default banguat;

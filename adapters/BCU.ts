// Banco Central del Uruguay: the exchange rates of the peso uruguayo, from the SOAP service wsbcucotizaciones.
// - Endpoint: POST https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones, an envelope
//   wsbcucotizaciones.Execute with Entrada/Moneda/item (BCU's own numeric currency code), FechaDesde,
//   FechaHasta (YYYY-MM-DD) and Grupo 0: one POST per currency. The bank asks for a pause of about a second
//   between calls.
// - The answer is SOAP XML: Salida/respuestastatus (status 1 is success; otherwise codigoerror and mensaje)
//   and Salida/datoscotizaciones holding one datoscotizaciones.dato per day: Fecha, Moneda (the numeric code,
//   sometimes without its leading zero: 500 for 0500), Nombre, CodigoISO (not reliable: "DLS." for the US
//   dollar, so the numeric code is mapped below), TCC (buying), TCV (selling), ArbAct.
// - The figure is the midpoint of TCC and TCV, UYU per 1 foreign unit (Direct); when both are the same, as
//   they are for most currencies, the published text itself. A zero TCC or TCV is a day without a quote:
//   skipped.
// - Weekdays; the day's rates are in place around 12:00 Montevideo time.
import {
  AnswerRows,
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  mean,
  parseXml,
  recentDays,
  pause,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BCU";
const ENDPOINT = "https://cotizaciones.bcu.gub.uy/wscotizaciones/servlet/awsbcucotizaciones";
const TIME_ZONE = "America/Montevideo";

/** BCU currency codes (Moneda) and their ISO 4217 codes: the 27 currencies of the daily table, asked in this order. */
export const BCU_CURRENCIES: ReadonlyArray<readonly [moneda: string, iso: string]> = [
  ["2225", "USD"], // DLS. USA BILLETE
  ["1111", "EUR"],
  ["1000", "BRL"],
  ["0500", "ARS"],
  ["2309", "CAD"],
  ["1300", "CLP"],
  ["4150", "CNY"],
  ["5500", "COP"],
  ["1800", "DKK"],
  ["5100", "HKD"],
  ["4300", "HUF"],
  ["5700", "INR"],
  ["2700", "GBP"],
  ["4900", "ISK"],
  ["3600", "JPY"],
  ["5300", "KRW"],
  ["5600", "MYR"],
  ["4200", "MXN"],
  ["4600", "NOK"],
  ["1490", "NZD"],
  ["4800", "PYG"],
  ["4000", "PEN"],
  ["5400", "RUB"],
  ["1620", "ZAR"],
  ["5800", "SEK"],
  ["5900", "CHF"],
  ["4400", "TRY"],
];

/** The pause between two calls, in milliseconds (tests set it to 0). */
export const bcuPacing = { pauseMs: 1000 };

const byNumber = new Map(BCU_CURRENCIES.map(([code, iso]) => [String(Number(code)), iso]));

/** The SOAP request, laid out as the service's published example. */
export function bcuRequest(moneda: string, from: string, to: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"
                   xmlns:cot="Cotiza">
   <soapenv:Header />
   <soapenv:Body>
      <cot:wsbcucotizaciones.Execute>
         <cot:Entrada>
            <cot:Moneda>
               <cot:item>${moneda}</cot:item>
            </cot:Moneda>
            <cot:FechaDesde>${from}</cot:FechaDesde>
            <cot:FechaHasta>${to}</cot:FechaHasta>
            <cot:Grupo>0</cot:Grupo>
         </cot:Entrada>
      </cot:wsbcucotizaciones.Execute>
   </soapenv:Body>
</soapenv:Envelope>
`;
}

/** The child of `node` named `name`, whatever namespace prefix it carries. */
function child(node: unknown, name: string): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
}

const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value).trim() : "");

const bcu = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Uruguay", abbreviatedName: "BCU" },
      { languageCode: "es", name: "Banco Central del Uruguay", abbreviatedName: "BCU" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "UYU",
    countryCode: ["UY"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcu.gub.uy",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-03",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http, signal }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const docs: FeedDocument[] = [];
    for (const [moneda] of BCU_CURRENCIES) {
      if (docs.length > 0 && bcuPacing.pauseMs > 0) await pause(bcuPacing.pauseMs);
      signal?.throwIfAborted();
      docs.push(
        await http.post(ENDPOINT, bcuRequest(moneda, from, to), {
          accept: "text/xml",
          headers: { "content-type": "text/xml; charset=utf-8" },
        }),
      );
    }
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const envelope = child(doc, "Envelope");
    const response = child(child(envelope, "Body"), "wsbcucotizaciones.ExecuteResponse");
    const salida = child(response, "Salida");
    if (!salida) {
      const fault = child(child(envelope, "Body"), "Fault");
      if (fault) throw new FeedError(ID, `SOAP fault: ${text(child(fault, "faultstring")) || "no reason given"}`);
      throw new FeedError(ID, "not a wsbcucotizaciones answer: no Salida");
    }
    const status = child(salida, "respuestastatus");
    if (text(child(status, "status")) !== "1") {
      throw new FeedError(
        ID,
        `the service answers status ${text(child(status, "status"))}, error ${text(child(status, "codigoerror"))}: ${text(child(status, "mensaje")) || "no message"}`,
      );
    }
    const rows = new AnswerRows(ID);
    // One datoscotizaciones per answer so far; each is read should the service ever send several.
    asArray(child(salida, "datoscotizaciones")).forEach((block, b) => {
      asArray(child(block, "datoscotizaciones.dato")).forEach((row, i) => {
        const moneda = text(child(row, "Moneda"));
        const fecha = text(child(row, "Fecha"));
        rows.read(
          `<datoscotizaciones> ${b + 1} <datoscotizaciones.dato> ${i + 1}`,
          (): RateRecord | undefined => {
            const currency = /^\d+$/.test(moneda) ? byNumber.get(String(Number(moneda))) : undefined;
            if (!currency) rowProblem(ID, "unknown-currency", `unknown BCU currency code "${moneda}"`);
            const date = requireDate(ID, isIsoDate(fecha.slice(0, 10)) ? fecha.slice(0, 10) : undefined, fecha);
            const buy = requireDecimal(ID, text(child(row, "TCC")), "TCC");
            const sell = requireDecimal(ID, text(child(row, "TCV")), "TCV");
            if (!/[1-9]/.test(buy) || !/[1-9]/.test(sell)) return undefined; // a zero placeholder: not quoted that day
            return buy === sell
              ? { effectiveDate: date, currency, rate: buy }
              : { effectiveDate: date, currency, rate: mean(buy, sell), derivation: "mean" };
          },
          { effectiveDate: fecha, currency: moneda, rate: `${text(child(row, "TCC"))} / ${text(child(row, "TCV"))}` },
        );
      });
    });
    return rows.result();
  },
});

export default bcu;

// Central Bank of Nicaragua: the official córdoba/dollar rate from its SOAP service.
// - Endpoint: POST https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx, SOAPAction
//   "http://servicios.bcn.gob.ni/RecuperaTC_Mes", an envelope with RecuperaTC_Mes(Ano, Mes): one call per
//   month, a rate for every calendar day (the rates of a month are set in advance).
// - The answer is SOAP XML: RecuperaTC_MesResponse/RecuperaTC_MesResult/Detalle_TC holding one `Tc` per day
//   (`Fecha` YYYY-MM-DD, `Valor` with four decimals, `Ano`, `Mes`, `Dia`). An empty Detalle_TC is a month
//   without rates yet; a server error is a SOAP Fault. Namespace prefixes vary: elements are found by
//   local name.
// - NIO per 1 USD (Direct), every day of the week; the month's table is in place before the month starts
//   (polled at 08:00 Managua time).
// - The server only speaks TLS 1.0: Node must run with an OpenSSL configuration that allows it (OPENSSL_CONF
//   pointing to a file with `MinProtocol = TLSv1` and `CipherString = DEFAULT@SECLEVEL=0`).
import {
  AnswerRows,
  FeedError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseXml,
  requireDate,
  requireDecimal,
  todayIn,
  type FeedDocument,
} from "../src/feed/kit.js";

const ID = "BCN";
const ENDPOINT = "https://servicios.bcn.gob.ni/Tc_Servicio/ServicioTC.asmx";
const SOAP_ACTION = '"http://servicios.bcn.gob.ni/RecuperaTC_Mes"';
const TIME_ZONE = "America/Managua";

type Node = Record<string, unknown>;

/** The child of an XML node by local name, whatever namespace prefix the server used. */
function child(node: unknown, name: string): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === name || key.endsWith(`:${name}`)) return value;
  }
  return undefined;
}

/** An XML value as text, for messages and held rows. */
const textOf = (value: unknown): string => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

export function envelope(year: number, month: number): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"
               xmlns:tns="http://servicios.bcn.gob.ni/">
  <soap:Body>
    <tns:RecuperaTC_Mes>
      <tns:Ano>${year}</tns:Ano>
      <tns:Mes>${month}</tns:Mes>
    </tns:RecuperaTC_Mes>
  </soap:Body>
</soap:Envelope>
`;
}

const bcn = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Nicaragua", abbreviatedName: "BCN" },
      { languageCode: "es", name: "Banco Central de Nicaragua", abbreviatedName: "BCN" },
    ],
    dailyUpdateTime: "08:00:00",
    bankCurrency: "NIO",
    countryCode: ["NI"],
    region: ["Americas"],
    timeZone: TIME_ZONE,
    website: "https://www.bcn.gob.ni",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    coverageStart: "2000-01-01",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  // One call per calendar month touched by the range (all days of a month are stored).
  async fetch(range, { http }) {
    const from = range.kind === "range" ? range.from : addDays(todayIn(TIME_ZONE), -1);
    const to = range.kind === "range" ? range.to : todayIn(TIME_ZONE);
    const init = {
      accept: "text/xml",
      headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: SOAP_ACTION },
    };
    const docs: FeedDocument[] = [];
    let year = Number(from.slice(0, 4));
    let month = Number(from.slice(5, 7));
    const last = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7));
    while (year * 12 + month <= last) {
      docs.push(await http.post(ENDPOINT, envelope(year, month), init));
      month += 1;
      if (month > 12) [year, month] = [year + 1, 1];
    }
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const soapBody = child(child(doc, "Envelope"), "Body");
    if (soapBody === undefined) throw new FeedError(ID, "not a SOAP answer: no Envelope/Body");
    const fault = child(soapBody, "Fault");
    if (fault !== undefined)
      throw new FeedError(ID, `SOAP fault: ${textOf(child(fault, "faultstring") ?? "no faultstring")}`);
    const result = child(child(soapBody, "RecuperaTC_MesResponse"), "RecuperaTC_MesResult");
    if (result === undefined) throw new FeedError(ID, "not a RecuperaTC_Mes answer: no RecuperaTC_MesResult");
    const rows = new AnswerRows(ID);
    // One Detalle_TC per answer so far; each is read should the service ever send several.
    asArray(child(result, "Detalle_TC")).forEach((detail, d) => {
      if (detail === "") return; // a month without rates yet
      asArray(child(detail, "Tc")).forEach((tc, i) => {
        const fecha = textOf(child(tc, "Fecha"));
        const valor = child(tc, "Valor");
        rows.read(
          `<Detalle_TC> ${d + 1} <Tc> ${i + 1}`,
          () => {
            const day = fecha.slice(0, 10);
            const effectiveDate = requireDate(ID, isIsoDate(day) ? day : undefined, fecha);
            return { effectiveDate, currency: "USD", rate: requireDecimal(ID, valor, "Valor") };
          },
          { effectiveDate: fecha, currency: "USD", rate: textOf(valor) },
        );
      });
    });
    return rows.result();
  },
});

export default bcn;

// Magyar Nemzeti Bank: official exchange rates of the forint from the MNB SOAP web service.
// Endpoint: POST http://www.mnb.hu/arfolyamok.asmx (plain HTTP), SOAPAction GetExchangeRates, with
// startDate, endDate and a comma-separated list of the currencies asked for.
// Format: a SOAP envelope whose GetExchangeRatesResult holds an escaped inner XML document:
// <MNBExchangeRates><Day date="2025-03-26"><Rate unit="1" curr="EUR">400,28</Rate>...</Day>...,
// decimals with a comma; an empty Rate is a currency without a figure that day.
// Quote: HUF per `unit` units (Direct): a unit of 100 is kept as unitMultiplier 2 with the published
// figure. The rates are fixed at 11:00 Budapest time on Hungarian working days and published right after.
// A Rate whose day, code, unit or figure cannot be read is held; a SOAP fault, an answer that is not a
// GetExchangeRates result or a truncated inner document is refused.
import {
  AnswerRows,
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseXml,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "MNB";
const TIME_ZONE = "Europe/Budapest";
// The service is served over plain HTTP.
const SERVICE = "http://www.mnb.hu/arfolyamok.asmx";
const SOAP_ACTION = "http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetExchangeRates";

/** The currencies asked for. */
export const MNB_CURRENCIES = [
  "AUD",
  "BRL",
  "CAD",
  "CHF",
  "CNY",
  "CZK",
  "DKK",
  "EUR",
  "GBP",
  "HKD",
  "IDR",
  "ILS",
  "INR",
  "ISK",
  "JPY",
  "KRW",
  "MXN",
  "MYR",
  "NOK",
  "NZD",
  "PHP",
  "PLN",
  "RON",
  "RSD",
  "RUB",
  "SEK",
  "SGD",
  "THB",
  "TRY",
  "UAH",
  "USD",
  "ZAR",
] as const;

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

/** The SOAP envelope of one GetExchangeRates call. */
export function mnbRequest(from: string, to: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"
               xmlns:web="http://www.mnb.hu/webservices/">
  <soap:Body>
    <web:GetExchangeRates>
      <web:startDate>${from}</web:startDate>
<web:endDate>${to}</web:endDate>
<web:currencyNames>${MNB_CURRENCIES.join(",")}</web:currencyNames>
    </web:GetExchangeRates>
  </soap:Body>
</soap:Envelope>
`;
}

/** The element of a node whose name, without its namespace prefix, is `local`. */
function child(node: unknown, local: string): unknown {
  if (!isNode(node)) return undefined;
  const key = Object.keys(node).find((k) => k === local || k.endsWith(`:${local}`));
  return key === undefined ? undefined : node[key];
}

const mnb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Magyar Nemzeti Bank (Central Bank of Hungary)", abbreviatedName: "MNB" },
      { languageCode: "hu", name: "Magyar Nemzeti Bank", abbreviatedName: "MNB" },
    ],
    // The official rates are fixed at 11:00 on Hungarian working days and published right after.
    dailyUpdateTime: "11:00:00",
    bankCurrency: "HUF",
    countryCode: ["HU"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.mnb.hu",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The service's history starts in 1949 (not verified: no answer that old was seen).
    coverageStart: "1949-01-03",
    maxRangeDays: 365,
    sourceUrl: SERVICE,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    return [
      await http.post(SERVICE, mnbRequest(from, to), {
        accept: "text/xml",
        headers: { "content-type": "text/xml; charset=utf-8", SOAPAction: `"${SOAP_ACTION}"` },
      }),
    ];
  },

  parse(body) {
    const soap = parseXml(ID, decodeText(ID, body));
    const soapBody = child(child(soap, "Envelope"), "Body");
    if (soapBody === undefined) throw new FeedError(ID, "not a SOAP answer: no Envelope/Body");
    const fault = child(soapBody, "Fault");
    if (fault !== undefined) {
      const reason = child(fault, "faultstring");
      throw new FeedError(ID, `SOAP fault: ${(typeof reason === "string" ? reason : "no faultstring").slice(0, 200)}`);
    }
    const result = child(child(soapBody, "GetExchangeRatesResponse"), "GetExchangeRatesResult");
    if (typeof result !== "string")
      throw new FeedError(ID, "not a GetExchangeRates answer: no GetExchangeRatesResult text");
    const inner = child(parseXml(ID, result), "MNBExchangeRates");
    if (inner === undefined) throw new FeedError(ID, "the result is not an MNBExchangeRates document");
    const rows = new AnswerRows(ID);
    for (const day of asArray(child(inner, "Day") as Node | Node[] | undefined)) {
      const date = typeof day["@date"] === "string" ? day["@date"] : "";
      for (const rate of asArray(day.Rate as Node | Node[] | undefined)) {
        const currency = typeof rate["@curr"] === "string" ? rate["@curr"] : "";
        const raw = rate["#text"];
        if (raw === undefined || raw === "") continue; // no rate that day
        const unit = rate["@unit"];
        rows.read(
          `<Day date="${date}"><Rate curr="${currency}">`,
          (): RateRecord => {
            const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
            const code = requireCurrencyCode(ID, currency);
            const value = requireDecimal(ID, raw, `${currency} on ${date}`, { decimalComma: true });
            return { effectiveDate, currency: code, ...perUnits(value, requireUnits(ID, unit, `${currency} unit`)) };
          },
          { effectiveDate: date, currency, rate: typeof raw === "string" ? raw : JSON.stringify(raw) },
        );
      }
    }
    return rows.result();
  },
});

export default mnb;

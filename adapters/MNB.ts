// Magyar Nemzeti Bank: official exchange rates from the MNB SOAP web service (arfolyamok.asmx,
// GetExchangeRates). The SOAP result element holds an escaped inner XML document
// (MNBExchangeRates/Day[@date]/Rate[@unit, @curr]) with decimal commas. HUF per `unit` units
// (Direct): a unit of 100 is kept as unitMultiplier 2 with the published figure.
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  parseXml,
  perUnits,
  recentDays,
  requireDecimal,
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
    // The service's history starts in 1949 (not verified from the recordings).
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
    if (fault !== undefined)
      throw new FeedError(ID, `SOAP fault: ${String(child(fault, "faultstring") ?? "no faultstring").slice(0, 200)}`);
    const result = child(child(soapBody, "GetExchangeRatesResponse"), "GetExchangeRatesResult");
    if (typeof result !== "string")
      throw new FeedError(ID, "not a GetExchangeRates answer: no GetExchangeRatesResult text");
    const inner = child(parseXml(ID, result), "MNBExchangeRates");
    if (inner === undefined) throw new FeedError(ID, "the result is not an MNBExchangeRates document");
    const records: RateRecord[] = [];
    for (const day of asArray(child(inner, "Day") as Node | Node[] | undefined)) {
      const date = typeof day["@date"] === "string" ? day["@date"] : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `Day date "${String(day["@date"])}" is not YYYY-MM-DD`);
      for (const rate of asArray(day.Rate as Node | Node[] | undefined)) {
        const currency = typeof rate["@curr"] === "string" ? rate["@curr"] : "";
        if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `${date}: curr "${currency}" is not a currency code`);
        const raw = rate["#text"];
        if (raw === undefined || raw === "") continue; // no rate that day
        const value = requireDecimal(ID, raw, `${currency} on ${date}`, { decimalComma: true });
        const unit = rate["@unit"];
        if (typeof unit !== "string" || !/^[1-9]\d*$/.test(unit))
          throw new FeedError(ID, `${currency} on ${date}: unit "${String(unit)}" is not a whole number`);
        records.push({ effectiveDate: date, currency, ...perUnits(value, unit) });
      }
    }
    return records;
  },
});

export default mnb;

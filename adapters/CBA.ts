// Central Bank of the Republic of Armenia: official dram rates from the SOAP service
// api.cba.am/exchangerates.asmx. ExchangeRatesLatest gives the newest day (and the ISO list);
// ExchangeRatesByDateRangeByISO gives a range as a .NET DataSet diffgram. AMD per `Amount` units
// (Direct; 10, 100 kept as unitMultiplier). XAU and XAG are priced per gram and converted exactly to
// the troy ounce (× 31.1034768, flagged), not with the rounded 31.1035 some consumers use.
import {
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  asArray,
  chunkRange,
  decodeText,
  defineAdapter,
  isIsoDate,
  multiply,
  parseXml,
  perUnits,
  readDecimal,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBA";
const ENDPOINT = "https://api.cba.am/exchangerates.asmx";
const NS = "http://www.cba.am/";
const TIME_ZONE = "Asia/Yerevan";
const PER_GRAM = new Set(["XAU", "XAG"]);

type Node = Record<string, unknown>;

const envelope = (inner: string) => `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
               xmlns:xsd="http://www.w3.org/2001/XMLSchema"
               xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    ${inner}
  </soap:Body>
</soap:Envelope>
`;

export const latestRequest = () => envelope(`<ExchangeRatesLatest xmlns="${NS}" />`);

export const rangeRequest = (codes: string[], from: IsoDate, to: IsoDate) =>
  envelope(`<ExchangeRatesByDateRangeByISO xmlns="${NS}">
  <ISOCodes>${codes.join(",")}</ISOCodes>
  <DateFrom>${from}</DateFrom>
  <DateTo>${to}</DateTo>
</ExchangeRatesByDateRangeByISO>`);

const soap = (action: string) => ({
  headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${NS}${action}"` },
  accept: "text/xml",
});

/** The child of a node whose name, without namespace prefix, is `name`. */
function child(node: unknown, name: string): Node | undefined {
  if (typeof node !== "object" || node === null) return undefined;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key.replace(/^[^:]+:/, "") === name) return (Array.isArray(value) ? value[0] : value) as Node;
  }
  return undefined;
}

function path(node: unknown, ...names: string[]): Node | undefined {
  let at: unknown = node;
  for (const name of names) at = child(at, name);
  return at as Node | undefined;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim());

function record(date: IsoDate, node: Node): RateRecord {
  const currency = text(node.ISO);
  if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `ISO "${currency}" is not a currency code`);
  const raw = text(node.Rate);
  const value = readDecimal(raw);
  if (value === undefined || !/[1-9]/.test(value))
    throw new FeedError(ID, `${currency} on ${date}: Rate "${raw}" is not a positive decimal`);
  const amount = text(node.Amount);
  if (!/^[1-9]\d*$/.test(amount))
    throw new FeedError(ID, `${currency} on ${date}: Amount "${amount}" is not a whole number`);
  if (PER_GRAM.has(currency)) {
    if (amount !== "1") throw new FeedError(ID, `${currency} on ${date}: a metal price for ${amount} grams`);
    return { effectiveDate: date, currency, rate: multiply(value, GRAMS_PER_TROY_OUNCE), derivation: "per-troy-ounce" };
  }
  return { effectiveDate: date, currency, ...perUnits(value, amount) };
}

function dateOf(raw: unknown, where: string): IsoDate {
  const date = text(raw).slice(0, 10);
  if (!isIsoDate(date)) throw new FeedError(ID, `${where}: date "${text(raw)}" is not a date`);
  return date;
}

function parseCba(body: Uint8Array): RateRecord[] {
  const doc = parseXml(ID, decodeText(ID, body));
  const soapBody = path(doc, "Envelope", "Body");
  if (!soapBody) throw new FeedError(ID, "not a CBA SOAP answer: no soap:Envelope/soap:Body");
  const fault = child(soapBody, "Fault");
  if (fault) throw new FeedError(ID, `SOAP fault: ${text(child(fault, "faultstring") ?? "")}`.slice(0, 200));
  const latest = path(soapBody, "ExchangeRatesLatestResponse", "ExchangeRatesLatestResult");
  if (latest) {
    const date = dateOf(child(latest, "CurrentDate"), "ExchangeRatesLatest CurrentDate");
    const rates = child(latest, "Rates");
    const list = rates && typeof rates === "object" ? asArray((rates as Node).ExchangeRate as Node | Node[]) : [];
    return list.map((node) => record(date, node));
  }
  const ranged = path(soapBody, "ExchangeRatesByDateRangeByISOResponse", "ExchangeRatesByDateRangeByISOResult");
  if (ranged) {
    const table = path(ranged, "diffgram", "DocumentElement");
    // A range without rates comes back as an empty diffgram.
    const rows = table && typeof table === "object" ? asArray(table.ExchangeRatesByRange as Node | Node[]) : [];
    return rows.map((node) => record(dateOf(node.RateDate, `${text(node.ISO)} RateDate`), node));
  }
  throw new FeedError(
    ID,
    "not a CBA exchange-rates answer: no ExchangeRatesLatestResult or ExchangeRatesByDateRangeByISOResult",
  );
}

const cba = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Republic of Armenia", abbreviatedName: "CBA" },
      { languageCode: "hy", name: "Հայաստանի Հանրապետության կենտրոնական բանկ", abbreviatedName: "ՀՀ ԿԲ" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "AMD",
    countryCode: ["AM"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.cba.am",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-01",
    maxRangeDays: 365,
    sourceUrl: ENDPOINT,
  },

  async fetch(range, { http }) {
    const latest = await http.post(ENDPOINT, latestRequest(), soap("ExchangeRatesLatest"));
    if (range.kind === "latest") return [latest];
    const codes = parseCba(latest.body).map((r) => r.currency);
    if (codes.length === 0) throw new FeedError(ID, "ExchangeRatesLatest listed no currencies");
    const docs: FeedDocument[] = [latest];
    for (const chunk of chunkRange(range.from, range.to, 365)) {
      docs.push(
        await http.post(ENDPOINT, rangeRequest(codes, chunk.from, chunk.to), soap("ExchangeRatesByDateRangeByISO")),
      );
    }
    return docs;
  },

  // Dispatches on the SOAP response element, so a saved file parses without its request.
  parse: parseCba,
});

export default cba;

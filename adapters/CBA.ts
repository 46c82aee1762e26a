// Central Bank of the Republic of Armenia: the official dram rates from its SOAP service
// https://api.cba.am/exchangerates.asmx (POST, SOAPAction "http://www.cba.am/<operation>").
// - ExchangeRatesLatest: the newest day, `<CurrentDate>2026-03-18T00:00:00</CurrentDate><Rates>
//   <ExchangeRate><ISO>USD</ISO><Amount>1</Amount><Rate>377.39</Rate>...` (also the list of the codes the
//   bank quotes, which the range request needs).
// - ExchangeRatesByDateRangeByISO (ISOCodes comma-separated, DateFrom, DateTo as YYYY-MM-DD): a .NET
//   DataSet diffgram, one `<ExchangeRatesByRange>` row per date and currency with its own RateDate. A range
//   without rates is an empty diffgram. A year per request is accepted.
// - Quotes: AMD per `Amount` units (Direct); Amount 10 or 100 kept as unitMultiplier 1 or 2. Gold and
//   silver (XAU, XAG) are AMD per gram: stored per troy ounce, the gram price times 31.1034768 exactly
//   (not the rounded 31.1035 some consumers use).
// - Published Monday to Friday in the afternoon, Yerevan time; polled from 16:00.
// Each ExchangeRate or ExchangeRatesByRange element is one row: a bad figure, Amount or date holds it;
// a SOAP fault or an answer without either result element is refused whole.
import {
  AnswerRows,
  noPublication,
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
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
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

/** An XML value (kept as text by the parser), trimmed; "" for an absent or nested one. */
const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** One ExchangeRate / ExchangeRatesByRange element, dated `date`. */
function record(date: IsoDate, node: Node): RateRecord {
  const currency = text(node.ISO);
  const value = requireDecimal(ID, text(node.Rate), "Rate");
  const amount = requireUnits(ID, text(node.Amount), "Amount");
  if (PER_GRAM.has(currency)) {
    if (amount !== "1") rowProblem(ID, "unknown-unit", `a ${currency} price for ${amount} grams`);
    return {
      effectiveDate: date,
      currency,
      rate: multiply(value, GRAMS_PER_TROY_OUNCE),
      derivation: "per-troy-ounce",
    };
  }
  return { effectiveDate: date, currency, ...perUnits(value, amount) };
}

/** A `2026-03-18T00:00:00` value as ISO, or a RowProblem (`bad-date`). */
function dateOf(raw: unknown): IsoDate {
  const date = text(raw).slice(0, 10);
  return requireDate(ID, isIsoDate(date) ? date : undefined, text(raw));
}

function parseCba(body: Uint8Array): ParsedAnswer {
  const doc = parseXml(ID, decodeText(ID, body));
  const soapBody = path(doc, "Envelope", "Body");
  if (!soapBody) throw new FeedError(ID, "not a CBA SOAP answer: no soap:Envelope/soap:Body");
  const fault = child(soapBody, "Fault");
  if (fault) throw new FeedError(ID, `SOAP fault: ${text(child(fault, "faultstring") ?? "")}`.slice(0, 200));
  const rows = new AnswerRows(ID);
  const fields = (node: Node, date: unknown) => ({
    effectiveDate: text(date),
    currency: text(node.ISO),
    rate: text(node.Rate),
  });
  const latest = path(soapBody, "ExchangeRatesLatestResponse", "ExchangeRatesLatestResult");
  if (latest) {
    const current = child(latest, "CurrentDate");
    const rates = child(latest, "Rates");
    const list = rates && typeof rates === "object" ? asArray(rates.ExchangeRate as Node | Node[]) : [];
    list.forEach((node, i) =>
      rows.read(
        `<ExchangeRate> ${i + 1} (${text(node.ISO)})`,
        () => record(dateOf(current), node),
        fields(node, current),
      ),
    );
    return rows.result();
  }
  const ranged = path(soapBody, "ExchangeRatesByDateRangeByISOResponse", "ExchangeRatesByDateRangeByISOResult");
  if (ranged) {
    const table = path(ranged, "diffgram", "DocumentElement");
    // A range without rates comes back as an empty diffgram.
    const list = table && typeof table === "object" ? asArray(table.ExchangeRatesByRange as Node | Node[]) : [];
    if (list.length === 0) return noPublication("an empty diffgram: no rates in the range asked");
    list.forEach((node, i) =>
      rows.read(
        `<ExchangeRatesByRange diffgr:id="${text(node["@diffgr:id"]) || i + 1}">`,
        () => record(dateOf(node.RateDate), node),
        fields(node, node.RateDate),
      ),
    );
    return rows.result();
  }
  throw new FeedError(
    ID,
    "not a CBA exchange-rates answer: no ExchangeRatesLatestResult or ExchangeRatesByDateRangeByISOResult",
  );
}

/** The codes ExchangeRatesLatest lists (held rows' too: a bad figure today is no reason to skip the history). */
function listedCodes(body: Uint8Array): string[] {
  const { records, held } = parseCba(body);
  const codes = [...records.map((r) => r.currency), ...held.map((h) => h.currency ?? "")];
  return [...new Set(codes.filter((c) => /^[A-Z]{3}$/.test(c)))];
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
    const codes = listedCodes(latest.body);
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

// Bank of Russia: the official rates of the rouble, from the bank's XML scripts (windows-1251 text,
// decimal commas: `78,2010`).
// - XML_daily.asp: one day's list of every currency, `<ValCurs Date="25.04.2026"><Valute ID="R01235">
//   <CharCode>USD</CharCode><Nominal>1</Nominal><Value>78,2010</Value>...`; the Date is the day the rates
//   are valid from (the next calendar day after publication).
// - XML_dynamic.asp?VAL_NM_RQ=<id>&date_req1=DD/MM/YYYY&date_req2=DD/MM/YYYY: one currency's history,
//   `<ValCurs ID="R01239" DateRange1=...><Record Date="03.03.2026" Id="R01239"><Nominal>1</Nominal>
//   <Value>90,7307</Value>`. The currency is named only by the bank's internal id (table below, read off
//   XML_daily's Valute/@ID and CharCode).
// - xml_metall.asp?date_req1=...&date_req2=...: gold, silver, platinum and palladium (Code 1 to 4) in RUB
//   per gram, `<Record Date="03.03.2026" Code="1"><Buy>12957,47</Buy><Sell>...`; Buy and Sell are the
//   same figure. Stored per troy ounce: the gram price times 31.1034768, exactly.
// - Quotes: RUB per Nominal units (Direct); Nominal 10, 100, 10000 or 1000000 (IRR) kept as unitMultiplier.
// - Published Monday to Friday at about 15:30 Moscow time, dated the next day (Friday's list is dated
//   Saturday and stands until Monday's).
// Each Valute or Record element is one row: a bad date, figure, Nominal or an unknown currency id or metal
// code holds that element; an answer with neither a ValCurs nor a Metall root is refused whole.
import {
  AnswerRows,
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  multiply,
  parseXml,
  perUnits,
  readXmlRoot,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
  type RateRecord,
  type RowFields,
  type UnitRate,
} from "../src/feed/kit.js";

const ID = "CBR";
const SCRIPTS = "https://www.cbr.ru/scripts";

/** The bank's internal currency ids (XML_daily's Valute/@ID) to ISO codes. */
export const CBR_CURRENCY_IDS: Readonly<Record<string, string>> = {
  R01010: "AUD",
  R01020A: "AZN",
  R01030: "DZD",
  R01035: "GBP",
  R01060: "AMD",
  R01080: "BHD",
  R01090B: "BYN",
  R01100: "BGN",
  R01105: "BOB",
  R01115: "BRL",
  R01135: "HUF",
  R01150: "VND",
  R01200: "HKD",
  R01210: "GEL",
  R01215: "DKK",
  R01230: "AED",
  R01235: "USD",
  R01239: "EUR",
  R01240: "EGP",
  R01270: "INR",
  R01280: "IDR",
  R01300: "IRR",
  R01335: "KZT",
  R01350: "CAD",
  R01355: "QAR",
  R01370: "KGS",
  R01375: "CNY",
  R01395: "CUP",
  R01500: "MDL",
  R01503: "MNT",
  R01520: "NGN",
  R01530: "NZD",
  R01535: "NOK",
  R01540: "OMR",
  R01565: "PLN",
  R01580: "SAR",
  R01585F: "RON",
  R01589: "XDR",
  R01625: "SGD",
  R01670: "TJS",
  R01675: "THB",
  R01685: "BDT",
  R01700J: "TRY",
  R01710A: "TMT",
  R01717: "UZS",
  R01720: "UAH",
  R01760: "CZK",
  R01770: "SEK",
  R01775: "CHF",
  R01800: "ETB",
  R01805F: "RSD",
  R01810: "ZAR",
  R01815: "KRW",
  R01820: "JPY",
  R02005: "MMK",
};

/** xml_metall.asp's Code attribute. */
const METALS: Readonly<Record<string, string>> = { "1": "XAU", "2": "XAG", "3": "XPT", "4": "XPD" };

type Node = Record<string, unknown>;

const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** An XML value (every value is text: the parser keeps them so); "" for an absent or nested one. */
const text = (raw: unknown): string => (typeof raw === "string" ? raw : "");

/** A `DD.MM.YYYY` attribute as ISO, or a RowProblem (`bad-date`). */
const dateOf = (raw: unknown): IsoDate => requireDate(ID, fromDayMonthYear(text(raw)), text(raw));

/** Value per Nominal units: `90,7307` per `100` is 90.7307 with unitMultiplier 2. */
function rateOf(node: Node): UnitRate {
  const value = requireDecimal(ID, node.Value, "Value", { decimalComma: true });
  return perUnits(value, requireUnits(ID, node.Nominal, "Nominal"));
}

/** XML_daily.asp: one date for every Valute. */
function parseDaily(root: Node, valutes: Iterable<unknown>): ParsedAnswer {
  const rows = new AnswerRows(ID);
  for (const v of valutes as Iterable<Node>) {
    const fields: RowFields = { effectiveDate: text(root["@Date"]), currency: text(v.CharCode), rate: text(v.Value) };
    rows.read(
      `<Valute ID="${text(v["@ID"])}">`,
      (): RateRecord => ({ effectiveDate: dateOf(root["@Date"]), currency: text(v.CharCode), ...rateOf(v) }),
      fields,
    );
  }
  return rows.result();
}

/** XML_dynamic.asp: one currency, named by the bank's id, on every Record. */
function parseDynamic(root: Node, records: Iterable<unknown>): ParsedAnswer {
  const rows = new AnswerRows(ID);
  for (const r of records as Iterable<Node>) {
    const id = text(r["@Id"] ?? root["@ID"]);
    const fields: RowFields = { effectiveDate: text(r["@Date"]), currency: id, rate: text(r.Value) };
    rows.read(
      `<Record Date="${text(r["@Date"])}" Id="${id}">`,
      (): RateRecord => {
        const currency = CBR_CURRENCY_IDS[id] ?? rowProblem(ID, "unknown-currency", `unknown currency id "${id}"`);
        return { effectiveDate: dateOf(r["@Date"]), currency, ...rateOf(r) };
      },
      fields,
    );
  }
  return rows.result();
}

/** xml_metall.asp: RUB per gram (Buy), to the troy ounce. */
function parseMetals(records: Iterable<unknown>): ParsedAnswer {
  const rows = new AnswerRows(ID);
  for (const r of records as Iterable<Node>) {
    const code = text(r["@Code"]);
    const fields: RowFields = { effectiveDate: text(r["@Date"]), currency: code, rate: text(r.Buy) };
    rows.read(
      `<Record Date="${text(r["@Date"])}" Code="${code}">`,
      (): RateRecord => {
        const currency = METALS[code] ?? rowProblem(ID, "unknown-currency", `unknown metal code "${code}"`);
        const perGram = requireDecimal(ID, r.Buy, "Buy", { decimalComma: true });
        return {
          effectiveDate: dateOf(r["@Date"]),
          currency,
          rate: multiply(perGram, GRAMS_PER_TROY_OUNCE),
          derivation: "per-troy-ounce",
        };
      },
      fields,
    );
  }
  return rows.result();
}

const cbr = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of the Russian Federation", abbreviatedName: "Bank of Russia" },
      { languageCode: "ru", name: "Центральный банк Российской Федерации", abbreviatedName: "Банк России" },
    ],
    dailyUpdateTime: "15:30:00",
    bankCurrency: "RUB",
    countryCode: ["RU"],
    region: ["Europe"],
    timeZone: "Europe/Moscow",
    website: "https://www.cbr.ru",
    quoteType: "Direct",
    // The bank publishes Monday to Friday; each day's rates are dated the next day (Friday's are dated
    // Saturday and valid to Monday), so stored effective dates run Tuesday to Saturday.
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1992-07-01",
    maxRangeDays: 365,
    sourceUrl: `${SCRIPTS}/XML_daily.asp`,
  },

  async fetch(range, { http }) {
    const accept = "application/xml, text/xml";
    const daily = await http.get(`${SCRIPTS}/XML_daily.asp`, { accept });
    if (range.kind === "latest") return [daily];
    const from = ddmmyyyy(range.from);
    const to = ddmmyyyy(range.to);
    const ids = asArray((parseXml(ID, decodeText(ID, daily.body, "windows-1251")).ValCurs as Node)?.Valute as Node[])
      .map((v) => String(v["@ID"]))
      .filter((id) => id in CBR_CURRENCY_IDS);
    const docs: FeedDocument[] = [];
    for (const id of ids) {
      docs.push(
        await http.get(`${SCRIPTS}/XML_dynamic.asp?VAL_NM_RQ=${id}&date_req1=${from}&date_req2=${to}`, { accept }),
      );
    }
    docs.push(await http.get(`${SCRIPTS}/xml_metall.asp?date_req1=${from}&date_req2=${to}`, { accept }));
    return docs;
  },

  // Dispatches on the document's root, so a saved file parses without its URL. A history runs to tens
  // of megabytes: it is read one element at a time, never as one tree.
  parse(body) {
    const doc = readXmlRoot(ID, decodeText(ID, body, "windows-1251"));
    const root = doc.attributes;
    if (doc.name === "ValCurs" && root["@Date"] !== undefined) return parseDaily(root, doc.elements("Valute"));
    if (doc.name === "ValCurs" && (root["@DateRange1"] !== undefined || root["@ID"] !== undefined))
      return parseDynamic(root, doc.elements("Record"));
    if (doc.name === "Metall") return parseMetals(doc.elements("Record"));
    throw new FeedError(ID, "not a Bank of Russia answer: no ValCurs or Metall root");
  },
});

export default cbr;

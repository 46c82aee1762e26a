// Bank of Russia: official rates of the rouble, as windows-1251 XML with decimal commas.
// XML_daily.asp: one day, every currency (with CharCode and Nominal). XML_dynamic.asp: one
// currency's history, identified only by the bank's internal id (mapped below). xml_metall.asp:
// precious metals in RUB per gram, converted exactly to the troy ounce.
// RUB per Nominal units (Direct): Nominal 100 is kept as unitMultiplier 2.
import {
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  multiply,
  parseXml,
  perUnits,
  requireDecimal,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
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

function dateOf(raw: unknown, where: string): IsoDate {
  const date = typeof raw === "string" ? fromDayMonthYear(raw) : undefined;
  if (!date) throw new FeedError(ID, `${where}: date "${String(raw)}" is not DD.MM.YYYY`);
  return date;
}

function rateOf(node: Node, where: string): UnitRate {
  const value = requireDecimal(ID, node.Value, `${where} Value`, { decimalComma: true });
  const nominal = requireDecimal(ID, node.Nominal, `${where} Nominal`);
  try {
    return perUnits(value, nominal);
  } catch {
    throw new FeedError(ID, `${where}: Nominal "${nominal}" is not a whole number`);
  }
}

function parseDaily(root: Node): RateRecord[] {
  const date = dateOf(root["@Date"], "ValCurs");
  return asArray(root.Valute as Node[]).map((v) => {
    const code = typeof v.CharCode === "string" ? v.CharCode : "";
    return { effectiveDate: date, currency: code, ...rateOf(v, `${code} of ${date}`) };
  });
}

function parseDynamic(root: Node): RateRecord[] {
  return asArray(root.Record as Node[]).map((r) => {
    const id = String(r["@Id"] ?? root["@ID"] ?? "");
    const currency = CBR_CURRENCY_IDS[id];
    if (!currency) throw new FeedError(ID, `unknown currency id "${id}" in XML_dynamic`);
    const date = dateOf(r["@Date"], `${currency} record`);
    return { effectiveDate: date, currency, ...rateOf(r, `${currency} of ${date}`) };
  });
}

function parseMetals(root: Node): RateRecord[] {
  return asArray(root.Record as Node[]).map((r) => {
    const currency = METALS[String(r["@Code"])];
    if (!currency) throw new FeedError(ID, `unknown metal code "${String(r["@Code"])}"`);
    const date = dateOf(r["@Date"], `${currency} record`);
    const perGram = requireDecimal(ID, r.Buy, `${currency} of ${date} Buy`, { decimalComma: true });
    return {
      effectiveDate: date,
      currency,
      rate: multiply(perGram, GRAMS_PER_TROY_OUNCE),
      derivation: "per-troy-ounce" as const,
    };
  });
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

  // Dispatches on the document's root, so a saved file parses without its URL.
  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body, "windows-1251"));
    const valCurs = doc.ValCurs as Node | undefined;
    if (valCurs && valCurs["@Date"] !== undefined) return parseDaily(valCurs);
    if (valCurs && (valCurs["@DateRange1"] !== undefined || valCurs["@ID"] !== undefined)) return parseDynamic(valCurs);
    if (doc.Metall) return parseMetals(doc.Metall as Node);
    throw new FeedError(ID, "not a Bank of Russia answer: no ValCurs or Metall root");
  },
});

export default cbr;

// National Bank of Moldova: official leu rates as XML, one call per weekday for currencies
// (ValCurs) and one for precious metals (MetalPrice). MDL per `Nominal` units (Direct; 10, 100
// kept as unitMultiplier). Metals are priced in MDL per gram and converted exactly to the troy
// ounce (× 31.1034768, flagged). Metal prices are also dated on weekends; like any weekend row they
// are dropped, the bank's rates being set for working days.
import {
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  GRAMS_PER_TROY_OUNCE,
  multiply,
  parseXml,
  pause,
  perUnits,
  readDecimal,
  todayIn,
  weekday,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBM";
const SITE = "https://www.bnm.md/en";
const TIME_ZONE = "Europe/Chisinau";
const METALS = new Set(["XAU", "XAG", "XPT", "XPD"]);

type Node = Record<string, unknown>;

const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
const ratesUrl = (date: IsoDate) => `${SITE}/official_exchange_rates?get_xml=1&date=${ddmmyyyy(date)}`;
const metalsUrl = (date: IsoDate) => `${SITE}/official_metal_rates?get_xml=1&date=${ddmmyyyy(date)}`;
const text = (v: unknown) => (typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim());

function rows(root: Node, element: string, metals: boolean): RateRecord[] {
  const date = fromDayMonthYear(text(root["@Date"]));
  if (!date) throw new FeedError(ID, `Date "${text(root["@Date"])}" is not DD.MM.YYYY`);
  if (weekday(date) > 5) return []; // weekend-dated prices
  return asArray(root[element] as Node | Node[]).map((node): RateRecord => {
    const currency = text(node.CharCode);
    if (!/^[A-Z]{3}$/.test(currency))
      throw new FeedError(ID, `${element} CharCode "${currency}" is not a currency code`);
    if (metals !== METALS.has(currency))
      throw new FeedError(ID, `${currency} is not expected in a ${metals ? "metal" : "currency"} list`);
    const raw = text(node.Value);
    const value = readDecimal(raw);
    if (value === undefined || !/[1-9]/.test(value))
      throw new FeedError(ID, `${currency} on ${date}: Value "${raw}" is not a positive decimal`);
    const nominal = text(node.Nominal);
    if (!/^[1-9]\d*$/.test(nominal))
      throw new FeedError(ID, `${currency} on ${date}: Nominal "${nominal}" is not a whole number`);
    if (!metals) return { effectiveDate: date, currency, ...perUnits(value, nominal) };
    if (nominal !== "1") throw new FeedError(ID, `${currency} on ${date}: a metal price for ${nominal} grams`);
    return { effectiveDate: date, currency, rate: multiply(value, GRAMS_PER_TROY_OUNCE), derivation: "per-troy-ounce" };
  });
}

const nbm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Moldova", abbreviatedName: "NBM" },
      { languageCode: "ro", name: "Banca Națională a Moldovei", abbreviatedName: "BNM" },
    ],
    dailyUpdateTime: "16:00:00",
    bankCurrency: "MDL",
    countryCode: ["MD"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bnm.md",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-04",
    maxRangeDays: 31,
    sourceUrl: `${SITE}/official_exchange_rates?get_xml=1`,
  },

  async fetch(range, { http }) {
    const today = todayIn(TIME_ZONE);
    const days =
      range.kind === "range"
        ? weekdaysBetween(range.from, range.to)
        : weekdaysBetween(addDays(today, -4), today).slice(-2);
    const accept = "application/xml, text/xml";
    const docs: FeedDocument[] = [];
    for (const day of days) {
      if (docs.length) await pause(500);
      docs.push(await http.get(ratesUrl(day), { accept }));
      await pause(500);
      docs.push(await http.get(metalsUrl(day), { accept }));
    }
    return docs;
  },

  // Dispatches on the document's root, so a saved file parses without its URL.
  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    if (doc.ValCurs && typeof doc.ValCurs === "object") return rows(doc.ValCurs as Node, "Valute", false);
    if (doc.MetalPrice && typeof doc.MetalPrice === "object") return rows(doc.MetalPrice as Node, "Metal", true);
    throw new FeedError(ID, "not a National Bank of Moldova answer: no ValCurs or MetalPrice root");
  },
});

export default nbm;

// National Bank of Moldova: official leu rates, one call per weekday for currencies and one for metals.
// Endpoints: GET https://www.bnm.md/en/official_exchange_rates?get_xml=1&date=DD.MM.YYYY and
// /en/official_metal_rates?get_xml=1&date=DD.MM.YYYY (the server asks for a short pause between calls).
// Format: XML <ValCurs Date="06.04.2026" name="Official exchange rate"><Valute ID="47"><NumCode/>
// <CharCode>EUR</CharCode><Nominal>1</Nominal><Name/><Value>20.2754</Value></Valute>...; the metals
// as <MetalPrice Date=".."><Metal><CharCode>XAU</CharCode><Nominal>1</Nominal><Value>.., decimal points.
// Quote: MDL per `Nominal` units (Direct; 10, 100 kept as unitMultiplier). Metals are priced in MDL per
// gram and converted exactly to the troy ounce (x 31.1034768, flagged). Rates are set on working days
// at about 16:00 Chisinau time. Metal prices are also dated on weekends; like any weekend carry-over
// they are skipped, the bank's rates being set for working days.
// An element whose code, nominal, figure or date cannot be read, or a metal in the currency list (or
// the reverse: its unit is not that list's), is held; an answer without a ValCurs or MetalPrice root,
// or whose figures are all written with decimal commas (another bank's list), is refused.
import {
  AnswerRows,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  FeedError,
  fromDayMonthYear,
  GRAMS_PER_TROY_OUNCE,
  multiply,
  noPublication,
  parseXml,
  pause,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  todayIn,
  weekday,
  weekdaysBetween,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
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
const text = (v: unknown) =>
  typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : JSON.stringify(v);

function readList(root: Node, element: string, metals: boolean): ParsedAnswer {
  const day = text(root["@Date"]);
  const date = fromDayMonthYear(day);
  const answer = new AnswerRows(ID);
  const nodes = asArray(root[element] as Node | Node[]);
  const values = nodes.map((node) => text(node.Value)).filter((v) => v !== "");
  if (values.length > 0 && values.every((v) => /^\d+,\d+$/.test(v)))
    throw new FeedError(ID, "every figure is written with a decimal comma: not the NBM's list (another bank's?)");
  if (date && weekday(date) > 5) return noPublication(`prices dated ${date}, a weekend: no publication that day`);
  nodes.forEach((node, i) => {
    const code = text(node.CharCode);
    const raw = text(node.Value);
    answer.read(
      `<${element}> ${i + 1}`,
      (): RateRecord => {
        const effectiveDate = requireDate(ID, date, day);
        const currency = requireCurrencyCode(ID, code);
        if (metals !== METALS.has(currency))
          rowProblem(ID, "unknown-unit", `${currency} is not expected in a ${metals ? "metal" : "currency"} list`);
        const value = requireDecimal(ID, raw, `${currency} Value`);
        if (!/[1-9]/.test(value)) rowProblem(ID, "bad-rate", `${currency}: a zero is no rate`);
        const nominal = requireUnits(ID, text(node.Nominal), `${currency} Nominal`);
        if (!metals) return { effectiveDate, currency, ...perUnits(value, nominal) };
        if (nominal !== "1") rowProblem(ID, "unknown-unit", `${currency}: a metal price for ${nominal} grams`);
        return { effectiveDate, currency, rate: multiply(value, GRAMS_PER_TROY_OUNCE), derivation: "per-troy-ounce" };
      },
      { effectiveDate: day, currency: code, rate: raw },
    );
  });
  return answer.result();
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
    if (doc.ValCurs && typeof doc.ValCurs === "object") return readList(doc.ValCurs as Node, "Valute", false);
    if (doc.MetalPrice && typeof doc.MetalPrice === "object") return readList(doc.MetalPrice as Node, "Metal", true);
    throw new FeedError(ID, "not a National Bank of Moldova answer: no ValCurs or MetalPrice root");
  },
});

export default nbm;

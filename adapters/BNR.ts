// Banca Națională a României: reference rates from the yearly XML files on curs.bnr.ro
// (DataSet/Body/Cube[@date]/Rate[@currency, @multiplier]). RON per `multiplier` units (Direct):
// a multiplier of 100 is kept as unitMultiplier 2 with the published figure. Gold (XAU) is
// quoted in RON per gram and converted exactly to the troy ounce (derivation "per-troy-ounce").
// The files moved from www.bnr.ro to curs.bnr.ro; the old paths redirect to the home page.
import {
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  multiply,
  parseXml,
  perUnits,
  requireDecimal,
  todayIn,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BNR";
const TIME_ZONE = "Europe/Bucharest";
const FILES = "https://curs.bnr.ro/files/xml/years";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

const yearFile = (year: number) => `${FILES}/nbrfxrates${year}.xml`;

const bnr = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Romania", abbreviatedName: "NBR" },
      { languageCode: "ro", name: "Banca Națională a României", abbreviatedName: "BNR" },
    ],
    // The reference rates are published shortly after 13:00 Bucharest time.
    dailyUpdateTime: "13:00:00",
    bankCurrency: "RON",
    countryCode: ["RO"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.bnr.ro",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The yearly files start with 2005 (not verified against curs.bnr.ro).
    coverageStart: "2005-01-03",
    // One file per calendar year: a chunk of at most a year touches at most two files.
    maxRangeDays: 366,
    sourceUrl: yearFile(2026).replace("2026", "{YYYY}"),
  },

  async fetch(range, { http }) {
    const accept = "application/xml, text/xml";
    let first: number;
    let last: number;
    if (range.kind === "range") {
      first = Number(range.from.slice(0, 4));
      last = Number(range.to.slice(0, 4));
    } else {
      // The current year's file; in the first days of January it may hold no fixing yet.
      const today = todayIn(TIME_ZONE);
      last = Number(today.slice(0, 4));
      first = today.slice(5) <= "01-07" ? last - 1 : last;
    }
    const docs: FeedDocument[] = [];
    for (let year = first; year <= last; year++) docs.push(await http.get(yearFile(year), { accept }));
    return docs;
  },

  parse(body) {
    const doc = parseXml(ID, decodeText(ID, body));
    const dataSet = doc.DataSet;
    const content = isNode(dataSet) ? dataSet.Body : undefined;
    if (!isNode(content)) throw new FeedError(ID, "not a BNR reference rate file: no DataSet/Body");
    if (content.OrigCurrency !== "RON")
      throw new FeedError(ID, `OrigCurrency "${String(content.OrigCurrency)}" is not RON`);
    const records: RateRecord[] = [];
    for (const cube of asArray(content.Cube as Node | Node[])) {
      const date = typeof cube["@date"] === "string" ? cube["@date"] : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `Cube date "${String(cube["@date"])}" is not YYYY-MM-DD`);
      for (const rate of asArray(cube.Rate as Node | Node[])) {
        const currency = typeof rate["@currency"] === "string" ? rate["@currency"] : "";
        if (!/^[A-Z]{3}$/.test(currency))
          throw new FeedError(ID, `${date}: currency "${currency}" is not a currency code`);
        const value = requireDecimal(ID, rate["#text"], `${currency} on ${date}`);
        const multiplier = rate["@multiplier"] ?? "1";
        if (typeof multiplier !== "string" || !/^[1-9]\d*$/.test(multiplier))
          throw new FeedError(ID, `${currency} on ${date}: multiplier "${String(multiplier)}" is not a whole number`);
        if (currency === "XAU") {
          if (multiplier !== "1") throw new FeedError(ID, `XAU on ${date}: unexpected multiplier ${multiplier}`);
          records.push({
            effectiveDate: date,
            currency,
            rate: multiply(value, GRAMS_PER_TROY_OUNCE),
            derivation: "per-troy-ounce",
          });
        } else {
          records.push({ effectiveDate: date, currency, ...perUnits(value, multiplier) });
        }
      }
    }
    return records;
  },
});

export default bnr;

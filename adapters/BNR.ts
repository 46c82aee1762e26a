// Banca Națională a României: reference rates from the yearly XML files on curs.bnr.ro
// (https://curs.bnr.ro/files/xml/years/nbrfxrates{YYYY}.xml; the old www.bnr.ro paths redirect to the
// home page). The latest is the current year's file (and last year's in the first week of January).
// - Answer: DataSet/Body with OrigCurrency RON, then Cube[@date] (YYYY-MM-DD) holding
//   Rate[@currency, @multiplier]. RON per `multiplier` units (Direct): a multiplier of 100 is kept as
//   unitMultiplier 2 with the published figure. Every Cube of the file is read.
// - Gold (XAU) is quoted in RON per gram and converted exactly to the troy ounce (x 31.1034768,
//   derivation "per-troy-ounce"); a gold figure with a multiplier cannot be placed and is held.
// - Published on business days shortly after 13:00 Bucharest time.
import {
  AnswerRows,
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  asArray,
  decodeText,
  defineAdapter,
  isIsoDate,
  multiply,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  todayIn,
  type FeedDocument,
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
    const rows = new AnswerRows(ID);
    for (const cube of asArray(content.Cube as Node | Node[])) {
      const day = typeof cube["@date"] === "string" ? cube["@date"] : String(cube["@date"]);
      for (const rate of asArray(cube.Rate as Node | Node[])) {
        const code = typeof rate["@currency"] === "string" ? rate["@currency"] : "";
        const raw = rate["#text"];
        const multiplier = rate["@multiplier"] ?? "1";
        rows.read(
          `<Cube date="${day}"> <Rate currency="${code}">`,
          () => {
            const date = requireDate(ID, isIsoDate(day) ? day : undefined, day);
            const currency = requireCurrencyCode(ID, code);
            const value = requireDecimal(ID, raw, `${currency} on ${date}`);
            const units = requireUnits(ID, multiplier, `${currency} multiplier`);
            if (currency !== "XAU") return { effectiveDate: date, currency, ...perUnits(value, units) };
            if (units !== "1") rowProblem(ID, "unknown-unit", `XAU on ${date}: unexpected multiplier ${units}`);
            const perOunce = multiply(value, GRAMS_PER_TROY_OUNCE);
            return { effectiveDate: date, currency, rate: perOunce, derivation: "per-troy-ounce" as const };
          },
          { effectiveDate: day, currency: code, rate: typeof raw === "string" ? raw : String(raw) },
        );
      }
    }
    return rows.result();
  },
});

export default bnr;

// Narodowy Bank Polski: average (mid) exchange rates from the NBP Web API, as JSON.
// PLN per 1 foreign unit (Direct): Table A (daily, ~32 currencies) and Table B (weekly, on
// Wednesdays, ~115 other currencies), and the NBP price of gold in PLN per gram, converted
// exactly to the troy ounce (XAU, derivation "per-troy-ounce"). Numbers keep their digits.
// The API answers 404 for a window without a working day: that is an empty answer, not an error.
import {
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  multiply,
  parseJsonExact,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "NBP";
const TIME_ZONE = "Europe/Warsaw";
const API = "https://api.nbp.pl/api";

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === "object" && x !== null && !Array.isArray(x);

function parseTables(tables: unknown[]): RateRecord[] {
  const records: RateRecord[] = [];
  for (const [t, table] of tables.entries()) {
    if (!isNode(table) || !Array.isArray(table.rates)) throw new FeedError(ID, `tables[${t}] has no rates`);
    if (table.table !== "A" && table.table !== "B")
      throw new FeedError(ID, `table "${String(table.table)}" is not the mid-rate table A or B`);
    const date = typeof table.effectiveDate === "string" ? table.effectiveDate : "";
    if (!isIsoDate(date))
      throw new FeedError(
        ID,
        `table ${String(table.no)}: effectiveDate "${String(table.effectiveDate)}" is not a date`,
      );
    for (const r of table.rates as unknown[]) {
      const code = isNode(r) && typeof r.code === "string" ? r.code : "";
      if (!/^[A-Z]{3}$/.test(code))
        throw new FeedError(ID, `table ${String(table.no)}: code "${code}" is not a currency code`);
      const raw = jsonNumberText((r as Node).mid);
      const rate = raw === undefined ? undefined : readDecimal(raw);
      if (rate === undefined)
        throw new FeedError(ID, `${code} in table ${String(table.no)}: mid "${String(raw)}" is not a decimal`);
      records.push({ effectiveDate: date, currency: code, rate });
    }
  }
  return records;
}

function parseGold(prices: unknown[]): RateRecord[] {
  return prices.map((p, i) => {
    const date = isNode(p) && typeof p.data === "string" ? p.data : "";
    if (!isIsoDate(date)) throw new FeedError(ID, `gold price ${i}: date "${String((p as Node)?.data)}" is not a date`);
    const raw = jsonNumberText((p as Node).cena);
    const perGram = raw === undefined ? undefined : readDecimal(raw);
    if (perGram === undefined) throw new FeedError(ID, `gold price of ${date}: "${String(raw)}" is not a decimal`);
    return {
      effectiveDate: date,
      currency: "XAU",
      rate: multiply(perGram, GRAMS_PER_TROY_OUNCE),
      derivation: "per-troy-ounce" as const,
    };
  });
}

const isNotFound = (error: unknown) =>
  error instanceof Error && error.name === "HttpError" && (error as { status?: number }).status === 404;

const nbp = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "National Bank of Poland", abbreviatedName: "NBP" },
      { languageCode: "pl", name: "Narodowy Bank Polski", abbreviatedName: "NBP" },
    ],
    // Table A is published on working days between 11:45 and 12:15.
    dailyUpdateTime: "12:15:00",
    bankCurrency: "PLN",
    countryCode: ["PL"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://nbp.pl",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The API serves tables A and B from 2002-01-02 (gold prices from 2013-01-02).
    coverageStart: "2002-01-02",
    // The API refuses windows of more than 93 days.
    maxRangeDays: 93,
    sourceUrl: `${API}/exchangerates/tables/A/?format=json`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const urls = [
      `${API}/exchangerates/tables/A/${from}/${to}/?format=json`,
      `${API}/exchangerates/tables/B/${from}/${to}/?format=json`,
      `${API}/cenyzlota/${from}/${to}/?format=json`,
    ];
    const docs: FeedDocument[] = [];
    for (const url of urls) {
      try {
        const doc = await http.get(url, { accept: "application/json" });
        if (doc.status !== 404) docs.push(doc);
      } catch (error) {
        if (!isNotFound(error)) throw error; // 404: no working day in the window
      }
    }
    return docs;
  },

  // Dispatches on the shape: an array of tables ({table, no, effectiveDate, rates}) or of gold prices ({data, cena}).
  parse(body) {
    const json = parseJsonExact(ID, decodeText(ID, body));
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBP API answer: not a JSON array");
    if (json.length === 0) return [];
    if (isNode(json[0]) && "rates" in json[0]) return parseTables(json);
    if (isNode(json[0]) && "cena" in json[0]) return parseGold(json);
    throw new FeedError(ID, "not an NBP API answer: neither exchange rate tables nor gold prices");
  },
});

export default nbp;

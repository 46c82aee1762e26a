// Narodowy Bank Polski: average (mid) exchange rates from the NBP Web API, as JSON.
// Endpoints: /api/exchangerates/tables/{A|B}/{from}/{to}/?format=json (at most 93 days per call) and
// /api/cenyzlota/{from}/{to}/?format=json for gold. PLN per 1 foreign unit (Direct), the `mid` figure of
// table A (working days, ~32 currencies, published 11:45-12:15 Warsaw time). Table B (weekly, on
// Wednesdays, ~115 other currencies) is another frequency, not daily rates: an answer with a Table B
// table is refused whole, never stored as daily figures. Gold (`cena`) is PLN per gram, converted exactly to the troy
// ounce (XAU, derivation "per-troy-ounce"). Numbers are read with their digits (0.0000030 for IRR).
// The API answers 404 for a window without a working day: that is an empty answer, not an error.
// An answer is an array of tables ({table, no, effectiveDate, rates:[{currency, code, mid}]}) or of
// gold prices ({data, cena}); table B or C (buying/selling) or any other shape is refused.
import {
  AnswerRows,
  FeedError,
  GRAMS_PER_TROY_OUNCE,
  defineAdapter,
  isHttpNotFound,
  isJsonObject,
  isIsoDate,
  jsonFieldText,
  jsonNumberText,
  multiply,
  noPublication,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  type FeedDocument,
  type ParsedAnswer,
} from "../src/feed/kit.js";

const ID = "NBP";
const TIME_ZONE = "Europe/Warsaw";
const API = "https://api.nbp.pl/api";

type Node = Record<string, unknown>;
const isNode = isJsonObject;
const raw = jsonFieldText;
const iso = (date: string | undefined) => (date !== undefined && isIsoDate(date) ? date : undefined);

/** Every rate of every table in the answer; a bad rate, or every rate of a table with a bad date, is held. */
function parseTables(tables: unknown[]): ParsedAnswer {
  const rows = new AnswerRows(ID);
  for (const [t, table] of tables.entries()) {
    if (!isNode(table) || !Array.isArray(table.rates)) throw new FeedError(ID, `tables[${t}] has no rates`);
    if (table.table === "B")
      throw new FeedError(ID, `table ${String(table.no)} is Table B, NBP's weekly table, not the daily table A`);
    if (table.table !== "A") throw new FeedError(ID, `table "${String(table.table)}" is not the mid-rate table A`);
    const date = raw(table.effectiveDate);
    for (const [i, r] of (table.rates as unknown[]).entries()) {
      const fields = { effectiveDate: date, currency: raw((r as Node)?.code), rate: raw((r as Node)?.mid) };
      rows.read(
        `table ${String(table.no)} rate ${i + 1}`,
        () => {
          if (!isNode(r)) throw new FeedError(ID, `table ${String(table.no)}: rate ${i + 1} is not an object`);
          const effectiveDate = requireDate(ID, iso(date), String(date));
          const currency = requireCurrencyCode(ID, typeof r.code === "string" ? r.code : "");
          const rate = requireDecimal(ID, jsonNumberText(r.mid), `${currency} mid`);
          return { effectiveDate, currency, rate };
        },
        fields,
      );
    }
  }
  return rows.result();
}

function parseGold(prices: unknown[]): ParsedAnswer {
  const rows = new AnswerRows(ID);
  for (const [i, p] of prices.entries()) {
    const fields = { effectiveDate: raw((p as Node)?.data), currency: "XAU", rate: raw((p as Node)?.cena) };
    rows.read(
      `gold price ${i + 1}`,
      () => {
        if (!isNode(p)) throw new FeedError(ID, `gold price ${i + 1} is not an object`);
        const effectiveDate = requireDate(ID, iso(fields.effectiveDate), String(fields.effectiveDate));
        const perGram = requireDecimal(ID, jsonNumberText(p.cena), "gold price per gram");
        return {
          effectiveDate,
          currency: "XAU",
          rate: multiply(perGram, GRAMS_PER_TROY_OUNCE),
          derivation: "per-troy-ounce" as const,
        };
      },
      fields,
    );
  }
  return rows.result();
}

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
    // The API serves table A from 2002-01-02 (gold prices from 2013-01-02).
    coverageStart: "2002-01-02",
    // The API refuses windows of more than 93 days.
    maxRangeDays: 93,
    sourceUrl: `${API}/exchangerates/tables/A/?format=json`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const urls = [
      `${API}/exchangerates/tables/A/${from}/${to}/?format=json`,
      `${API}/cenyzlota/${from}/${to}/?format=json`,
    ];
    const docs: FeedDocument[] = [];
    for (const url of urls) {
      try {
        const doc = await http.get(url, { accept: "application/json" });
        if (doc.status !== 404) docs.push(doc);
      } catch (error) {
        if (!isHttpNotFound(error)) throw error; // 404: no working day in the window
      }
    }
    return docs;
  },

  // Dispatches on the shape: an array of tables ({table, no, effectiveDate, rates}) or of gold prices ({data, cena}).
  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBP API answer: not a JSON array");
    if (json.length === 0) return noPublication("an empty list: no table in the window asked");
    if (isNode(json[0]) && "rates" in json[0]) return parseTables(json);
    if (isNode(json[0]) && "cena" in json[0]) return parseGold(json);
    throw new FeedError(ID, "not an NBP API answer: neither exchange rate tables nor gold prices");
  },
});

export default nbp;

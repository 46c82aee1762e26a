// Narodowy Bank Polski's Table B: the weekly mid rates of about 115 less-traded currencies (AFN ... ZWG),
// NBP's `Weekly` frequency beside its daily Table A (adapters/NBP.ts); `NBPB` is the source's internal id
// (store, scheduler), never shown: the rates are served as /v1/Banks/NBP/WeeklyRates (src/feed/sources.ts). A period source: each table's
// figures are valid from its effective date until the next table's.
// - Endpoint: GET https://api.nbp.pl/api/exchangerates/tables/B/{from}/{to}/?format=json (at most 93 days
//   per call; from 2002-01-02). A window without a table answers 404: no document, not an error.
// - Shape: `[{"table":"B","no":"009/B/NBP/2026","effectiveDate":"2026-03-04","rates":[{"currency":
//   "afgani (Afganistan)","code":"AFN","mid":0.056626}, ...]}]`; `mid` is PLN per 1 unit (Direct), read
//   with its digits (0.0000028 for IRR).
// - Published on Wednesdays: a snapshot of that day's market, not a week's average. A table's figures end
//   the day before the next table of the answer; the newest ends six days on (the next Wednesday's eve),
//   and a table that comes earlier than that (a holiday moving it) ends it in the store.
// A rate that cannot be read is held; an answer holding a Table A (the daily rates) or C, or any other
// shape, is refused whole: the daily adapter refuses Table B the same way.
import {
  AnswerRows,
  FeedError,
  addDays,
  defineAdapter,
  isHttpNotFound,
  isJsonObject,
  isIsoDate,
  jsonFieldText,
  jsonNumberText,
  noPublication,
  parseJsonExact,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  type FeedDocument,
  type IsoDate,
} from "../src/feed/kit.js";

const ID = "NBPB";
const TIME_ZONE = "Europe/Warsaw";
const API = "https://api.nbp.pl/api/exchangerates/tables/B";

type Node = Record<string, unknown>;
const isNode = isJsonObject;
const raw = jsonFieldText;

/** Checks every table is a Table B with rates; their effective dates, in the answer's order. */
function tableDates(tables: unknown[]): Array<string | undefined> {
  return tables.map((table, t) => {
    if (!isNode(table) || !Array.isArray(table.rates)) throw new FeedError(ID, `tables[${t}] has no rates`);
    if (table.table === "A")
      throw new FeedError(ID, `table ${String(table.no)} is Table A, NBP's daily table, not the weekly Table B`);
    if (table.table !== "B") throw new FeedError(ID, `table "${String(table.table)}" is not the weekly Table B`);
    return raw(table.effectiveDate);
  });
}

/** The last day of a table's validity: the eve of the next table in the answer, else six days on. */
function validToOf(date: IsoDate, dates: Array<string | undefined>): IsoDate {
  const next = dates.filter((d): d is string => d !== undefined && isIsoDate(d) && d > date).sort()[0];
  return next !== undefined ? addDays(next, -1) : addDays(date, 6);
}

function parseTables(tables: unknown[]) {
  const dates = tableDates(tables);
  const rows = new AnswerRows(ID);
  for (const [t, table] of (tables as Node[]).entries()) {
    const date = dates[t];
    for (const [i, r] of (table.rates as unknown[]).entries()) {
      const fields = { effectiveDate: date, currency: raw((r as Node)?.code), rate: raw((r as Node)?.mid) };
      rows.read(
        `table ${String(table.no)} rate ${i + 1}`,
        () => {
          if (!isNode(r)) throw new FeedError(ID, `table ${String(table.no)}: rate ${i + 1} is not an object`);
          const effectiveDate = requireDate(ID, date !== undefined && isIsoDate(date) ? date : undefined, String(date));
          const currency = requireCurrencyCode(ID, typeof r.code === "string" ? r.code : "");
          const rate = requireDecimal(ID, jsonNumberText(r.mid), `${currency} mid`);
          return { effectiveDate, validTo: validToOf(effectiveDate, dates), currency, rate };
        },
        fields,
      );
    }
  }
  return rows.result();
}

const nbpb = defineAdapter({
  bank: {
    // An internal source id: the rates are NBP's `Weekly` ones, under /v1/Banks/NBP/WeeklyRates.
    id: ID,
    bankId: "NBP",
    names: [
      { languageCode: "en", name: "National Bank of Poland (Table B, weekly)", abbreviatedName: "NBP" },
      { languageCode: "pl", name: "Narodowy Bank Polski (tabela B)", abbreviatedName: "NBP" },
    ],
    // Table B comes out on Wednesdays, at the time of that day's Table A (by 12:15).
    dailyUpdateTime: "12:15:00",
    bankCurrency: "PLN",
    countryCode: ["PL"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://nbp.pl",
    quoteType: "Direct",
    publicationDays: [3],
    cadence: { days: { kind: "weekly" }, covers: "runDay" },
    supportedFrequencies: ["Weekly"],
    coverageStart: "2002-01-02",
    maxRangeDays: 93,
    sourceUrl: `${API}/?format=json`,
  },

  async fetch(range, { http }) {
    // The latest: the last two weeks, so that the previous table's validity ends at the newest's eve.
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 14);
    const docs: FeedDocument[] = [];
    try {
      docs.push(await http.get(`${API}/${from}/${to}/?format=json`, { accept: "application/json" }));
    } catch (error) {
      if (!isHttpNotFound(error)) throw error; // 404: no table in the window
    }
    return docs;
  },

  parse(body) {
    const json = parseJsonExact(ID, body);
    if (!Array.isArray(json)) throw new FeedError(ID, "not an NBP API answer: not a JSON array");
    if (json.length === 0) return noPublication("an empty list: no table in the window asked");
    if (!isNode(json[0]) || !("rates" in json[0]))
      throw new FeedError(ID, "not an NBP API answer: no exchange rate tables");
    return parseTables(json);
  },
});

export default nbpb;

// European Commission (DG BUDG): the InforEuro monthly accounting rates, the rates the Commission uses
// for its accounts and for converting amounts in EU grants and contracts. A period source: one figure
// per currency for one calendar month, in force from the 1st.
// - Endpoint: one month per call,
//   GET https://ec.europa.eu/budg/inforeuro/api/public/monthly-rates?lang=en&year=YYYY&month=M
//   answering a JSON array of `{"country","currency","isoA3Code","isoA2Code","value","comment"}`. The
//   answer names no month: the month is the one asked for (the URL's year and month).
// - Quotes: foreign units per 1 EUR (Indirect); `value` is a JSON number read as its exact text (the
//   hyperinflation figures exceed a float's digits). Before 1999 the figures are per 1 ECU, which the
//   euro replaced one for one (Regulation 1103/97, art. 2): they are stored as per 1 EUR.
// - Codes are the Commission's: legacy ISO codes stand as published (BGL, ROL, the euro area's former
//   currencies at their fixed rates); a code ISO 4217 does not have (FRC, the Congolese franc in
//   1998-99; ZIG) is resolved by the row's currency name with the kit's name rules, else held.
// - `comment` is a trilingual note (a revaluation, "official rate of the Central Bank"): never read as
//   a figure, never stored.
// - A month not fixed yet answers an empty array: no document, not an error. The Commission fixes a
//   month's rates in the last days of the month before.
import {
  AnswerRows,
  FeedError,
  defineAdapter,
  isIsoCurrency,
  isoFromParts,
  jsonNumberText,
  parseJsonExact,
  requireDecimal,
  resolveCurrency,
  rowProblem,
  todayIn,
  type FeedDocument,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { lastDayOfMonth, monthsBetween, nextMonth } from "../src/feed/months.js";

const ID = "INFOREURO";
const API = "https://ec.europa.eu/budg/inforeuro/api/public/monthly-rates";
const TIME_ZONE = "Europe/Brussels";

const monthUrl = (year: number, month: number) => `${API}?lang=en&year=${year}&month=${month}`;

interface InforEuroRate {
  country?: unknown;
  currency?: unknown;
  isoA3Code?: unknown;
  value?: unknown;
}

/** The month an answer is for, from its URL's `year` and `month`: the body does not say. */
function monthOf(url: string): { from: IsoDate; to: IsoDate } {
  const query = URL.canParse(url) ? new URL(url).searchParams : new URLSearchParams();
  const year = Number(query.get("year"));
  const month = Number(query.get("month"));
  const from = Number.isInteger(year) && year > 1900 ? isoFromParts(year, month, 1) : undefined;
  if (!from) throw new FeedError(ID, `an InforEuro answer needs its month: no year and month in "${url}"`);
  return { from, to: lastDayOfMonth(year, month) };
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** A row's currency: its ISO code as published (legacy codes included), else its name by the kit's rules. */
function rowCurrency(code: string, name: string, date: IsoDate): string {
  if (/^[A-Z]{3}$/.test(code) && isIsoCurrency(code)) return code;
  if (name === "") rowProblem(ID, "unknown-currency", `code "${code}" is not ISO 4217 and the row names no currency`);
  return resolveCurrency(ID, name, { date });
}

function parseMonth(body: Uint8Array, url: string): ParsedAnswer {
  const { from, to } = monthOf(url);
  const data = parseJsonExact(ID, body);
  if (!Array.isArray(data)) throw new FeedError(ID, "not an InforEuro answer: not an array of rates");
  if (data.length === 0) throw new FeedError(ID, `an InforEuro answer without rates for ${from.slice(0, 7)}`);
  const rows = new AnswerRows(ID);
  data.forEach((entry: unknown, i) => {
    if (typeof entry !== "object" || entry === null || !("isoA3Code" in entry) || !("value" in entry)) {
      throw new FeedError(ID, `not an InforEuro answer: entry ${i} has no isoA3Code and value`);
    }
    const r = entry as InforEuroRate;
    const code = text(r.isoA3Code);
    const value = jsonNumberText(r.value);
    rows.read(
      `[${i}] (${text(r.country)})`,
      () => ({
        effectiveDate: from,
        validTo: to,
        currency: rowCurrency(code, text(r.currency), from),
        rate: requireDecimal(ID, value, "value"),
      }),
      { effectiveDate: from, currency: code, rate: value ?? "" },
    );
  });
  return rows.result();
}

/** An empty array is a month the Commission has not fixed yet. */
const isUnpublished = (doc: FeedDocument) => /^\s*\[\s*\]\s*$/.test(Buffer.from(doc.body).toString("utf8"));

const inforeuro = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "European Commission, InforEuro", abbreviatedName: "InforEuro" },
      { languageCode: "fr", name: "Commission européenne, InforEuro", abbreviatedName: "InforEuro" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "EUR",
    countryCode: ["BE"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website:
      "https://commission.europa.eu/funding-tenders/procedures-guidelines-tenders/information-contractors-and-beneficiaries/exchange-rate-inforeuro_en",
    quoteType: "Indirect",
    // The next month's rates are fixed on the penultimate working day of the month: the daemon looks on
    // the last two and expects the next month's 1st stored.
    publicationDays: [1, 2, 3, 4, 5],
    cadence: { days: { kind: "lastInMonth", count: 2 }, covers: "nextMonthStart" },
    coverageStart: "1994-03-01",
    maxRangeDays: 92,
    sourceUrl: API,
    supportedFrequencies: ["Monthly"],
  },

  async fetch(range, { http }) {
    // The latest: this month's rates and the next month's once fixed.
    const today = todayIn(TIME_ZONE);
    const [y, m] = nextMonth(Number(today.slice(0, 4)), Number(today.slice(5, 7)));
    const { from, to } = range.kind === "range" ? range : { from: today, to: isoFromParts(y, m, 1)! };
    const docs: FeedDocument[] = [];
    for (const [year, month] of monthsBetween(from, to)) {
      const doc = await http.get(monthUrl(year, month), { accept: "application/json" });
      if (!isUnpublished(doc)) docs.push(doc);
    }
    return docs;
  },

  parse(body, { url }) {
    return parseMonth(body, url);
  },
});

export default inforeuro;

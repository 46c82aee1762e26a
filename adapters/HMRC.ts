// HM Revenue & Customs (UK): the monthly exchange rates for customs and import VAT, from the Trade
// Tariff service. A period source: one figure per currency valid for one calendar month.
// - Endpoints: one file per month. XML first,
//   GET https://www.trade-tariff.service.gov.uk/api/v2/exchange_rates/files/monthly_xml_YYYY-MM.xml
//   (`<exchangeRateMonthList Period="01/Aug/2026 to 31/Aug/2026">` of `<exchangeRate>` with countryName,
//   countryCode, currencyName, currencyCode, rateNew); the CSV as the fallback,
//   GET https://www.trade-tariff.service.gov.uk/uk/api/exchange_rates/files/monthly_csv_YYYY-M.csv
//   (`Country/Territories,Currency,Currency Code,Currency Units per £1,Start date,End date`, dates
//   DD/MM/YYYY). Files exist from 2021-01.
// - Quotes: foreign units per 1 GBP (Indirect), 4 decimals, one figure (no buy/sell).
// - Validity: the month (the XML's Period, the CSV's Start/End date per row: a row corrected mid-month
//   carries its own start, and ends the month's figure from then on).
// - The next month's file appears on the penultimate Thursday of the month before; until then its URL
//   answers 404 with `{"errors":[{"detail":"not found"}]}`: "not published yet", not an error.
// - One row per country, so a currency repeats (AED for Abu Dhabi, Dubai and the UAE; XCD, XOF, XAF,
//   XPF): the ingest gate folds equal figures into one and holds a currency given two different ones.
//   Codes are HMRC's labels: ZIG is its label for the Zimbabwe Gold (ISO ZWG); a code that is not
//   ISO 4217 (ECS for Ecuador in 2021) is held by the gate.
import { readCsv, csvColumns } from "../src/feed/csv.js";
import { lastDayOfMonth as lastDay, monthsBetween } from "../src/feed/months.js";
import { monthNumber } from "../src/feed/month-names.js";
import {
  AnswerRows,
  FeedError,
  HttpError,
  addDays,
  asArray,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  isoFromParts,
  parseXml,
  requireDate,
  requireDecimal,
  rowProblem,
  todayIn,
  type FeedDocument,
  type FetchContext,
  type IsoDate,
  type ParsedAnswer,
} from "../src/feed/kit.js";

const ID = "HMRC";
const HOST = "https://www.trade-tariff.service.gov.uk";
const TIME_ZONE = "Europe/London";
/** HMRC's labels that are not the ISO code of the same currency. */
const LABELS: Record<string, string> = { ZIG: "ZWG" };
/** Withdrawn codes HMRC kept as labels for a figure of another currency: held, never stored as theirs. */
const NOT_THEIR_FIGURE: Record<string, string> = {
  ECS: "HMRC's ECS row (Ecuador) carries the US dollar's figure: the sucre was withdrawn in 2000",
};

const xmlUrl = (year: number, month: number) =>
  `${HOST}/api/v2/exchange_rates/files/monthly_xml_${year}-${String(month).padStart(2, "0")}.xml`;
const csvUrl = (year: number, month: number) => `${HOST}/uk/api/exchange_rates/files/monthly_csv_${year}-${month}.csv`;

const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;

/**
 * One month's file: the XML, else the CSV; undefined when neither is published (404 on both: a month
 * not published yet). Another failure of the XML falls back to the CSV; the CSV's failure is thrown.
 */
async function fetchMonth(http: FetchContext["http"], year: number, month: number): Promise<FeedDocument | undefined> {
  let xmlError: unknown;
  try {
    return await http.get(xmlUrl(year, month), { accept: "application/xml, text/xml" });
  } catch (error) {
    xmlError = error;
  }
  try {
    return await http.get(csvUrl(year, month), { accept: "text/csv" });
  } catch (error) {
    if (isNotFound(xmlError) && isNotFound(error)) return undefined;
    throw error;
  }
}

/** The XML's `Period="01/Aug/2026 to 31/Aug/2026"` as its first and last day. */
function periodOf(text: unknown): { from: IsoDate; to: IsoDate } {
  const m =
    typeof text === "string" ? /^(\d{2})\/(\w{3})\/(\d{4}) to (\d{2})\/(\w{3})\/(\d{4})$/.exec(text.trim()) : null;
  const day = (d: string, mon: string, y: string) => {
    const month = monthNumber(mon);
    return month === undefined ? undefined : isoFromParts(y, month, d);
  };
  const from = m ? day(m[1]!, m[2]!, m[3]!) : undefined;
  const to = m ? day(m[4]!, m[5]!, m[6]!) : undefined;
  if (!from || !to || to < from) throw new FeedError(ID, `not an HMRC monthly file: Period "${String(text)}"`);
  return { from, to };
}

function codeOf(label: string): string {
  const withdrawn = NOT_THEIR_FIGURE[label];
  if (withdrawn) rowProblem(ID, "unknown-currency", withdrawn, { currency: label });
  return LABELS[label] ?? label;
}

function parseXmlFile(text: string): ParsedAnswer {
  const doc = parseXml(ID, text);
  const list = doc["exchangeRateMonthList"] as Record<string, unknown> | undefined;
  if (!list || typeof list !== "object") throw new FeedError(ID, "not an HMRC monthly file: no exchangeRateMonthList");
  const { from, to } = periodOf(list["@Period"]);
  const rows = new AnswerRows(ID);
  const field = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  asArray(list["exchangeRate"]).forEach((entry, i) => {
    const r = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const label = field(r["currencyCode"]);
    const rate = typeof r["rateNew"] === "string" ? r["rateNew"] : undefined;
    rows.read(
      `exchangeRate[${i}] (${field(r["countryName"])})`,
      () => ({
        effectiveDate: from,
        validTo: to,
        currency: codeOf(label),
        rate: requireDecimal(ID, rate, "rateNew"),
      }),
      { effectiveDate: from, currency: label, rate: rate ?? "" },
    );
  });
  if (rows.records.length + rows.held.length === 0) throw new FeedError(ID, "an HMRC monthly file without rates");
  return rows.result();
}

const CSV_COLUMNS = [
  "Country/Territories",
  "Currency Code",
  "Currency Units per £1",
  "Start date",
  "End date",
] as const;

function parseCsvFile(text: string): ParsedAnswer {
  const [header, ...lines] = readCsv(ID, text.replace(/^\uFEFF/, ""));
  const at = csvColumns(ID, header ?? [], CSV_COLUMNS, "an HMRC monthly CSV");
  const rows = new AnswerRows(ID);
  lines.forEach((line, i) => {
    const start = line[at["Start date"]]!;
    const end = line[at["End date"]]!;
    const label = line[at["Currency Code"]]!;
    const rate = line[at["Currency Units per £1"]]!;
    rows.read(
      `row ${i + 2} (${line[at["Country/Territories"]]})`,
      () => ({
        effectiveDate: requireDate(ID, fromDayMonthYear(start), start),
        validTo: requireDate(ID, fromDayMonthYear(end), end),
        currency: codeOf(label),
        rate: requireDecimal(ID, rate, "Currency Units per £1"),
      }),
      { effectiveDate: start, currency: label, rate },
    );
  });
  if (lines.length === 0) throw new FeedError(ID, "an HMRC monthly CSV without rates");
  return rows.result();
}

const hmrc = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "HM Revenue & Customs", abbreviatedName: "HMRC" }],
    dailyUpdateTime: "12:00:00",
    bankCurrency: "GBP",
    countryCode: ["GB", "IM", "JE", "GG"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.gov.uk/government/collections/exchange-rates-for-customs-and-vat",
    quoteType: "Indirect",
    // The next month's file comes on the penultimate Thursday of the month: the daemon runs then, and
    // expects the next month's figures (effective on its 1st) from that run on.
    publicationDays: [4],
    cadence: { days: { kind: "nthLastInMonth", n: 2 }, covers: "nextMonthStart" },
    coverageStart: "2021-01-01",
    maxRangeDays: 92,
    sourceUrl: `${HOST}/api/v2/exchange_rates/files`,
    supportedFrequencies: ["Monthly"],
  },

  async fetch(range, { http }) {
    // The latest: next month's file once it is out, and this month's (which also fills a gap).
    const today = todayIn(TIME_ZONE);
    const { from, to } =
      range.kind === "range"
        ? range
        : { from: today, to: addDays(lastDay(Number(today.slice(0, 4)), Number(today.slice(5, 7))), 1) };
    const docs: FeedDocument[] = [];
    for (const [year, month] of monthsBetween(from, to)) {
      const doc = await fetchMonth(http, year, month);
      if (doc) docs.push(doc);
    }
    return docs;
  },

  parse(body, { url }) {
    const text = decodeText(ID, body);
    // By the URL, or for a saved file by its first character (the XML's declaration or root element).
    if (/\.csv(\?|$)/.test(url) || !text.trimStart().startsWith("<")) return parseCsvFile(text);
    return parseXmlFile(text);
  },
});

export default hmrc;

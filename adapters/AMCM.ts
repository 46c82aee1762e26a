// Monetary Authority of Macao (AMCM): the daily interbank middle rates of the pataca.
// - Endpoint: GET https://www.amcm.gov.mo/api/v1.0/cms/financial_info?Begin=YYYYMMDD&End=YYYYMMDD&QueryType=1.
//   It answers JSON `{ message, data: [...], code, type }`; an error answer has `data: null` and a message
//   ("Query period too long"): one answer covers at most about four months, so backfill asks 90 days.
// - Each data item is one currency on one day: `date` ("2026-05-20 00:00:00"), `currency` (ISO code),
//   `unit` (1.0 or 100.0), and the middle rate twice despite the names: `usdMean` (text, four decimals as
//   published) and `usdMeanValue` (the same number padded to eight decimals). The text is the figure; the
//   number stands in when the text is missing, and a row whose two figures differ is held.
// - MOP per `unit` foreign units (Direct): JPY and KRW per 100, kept as unitMultiplier 2.
// - `LIQ` (unit 0, figure 0.0000) is a liquidity indicator, not a currency: skipped. Old history labels the
//   pre-euro ECU `ECU`: relabelled XEU. A zero figure is a placeholder for a day without a rate: skipped.
// - Published on weekdays around 11:00 Macau time.
import {
  FeedError,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireUnits,
  rowProblem,
  AnswerRows,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "AMCM";
const ENDPOINT = "https://www.amcm.gov.mo/api/v1.0/cms/financial_info";
const TIME_ZONE = "Asia/Macau";
const RELABEL: Readonly<Record<string, string>> = { ECU: "XEU" };
const NOT_CURRENCIES = new Set(["LIQ"]);

interface AmcmRow {
  date?: unknown;
  currency?: unknown;
  unit?: unknown;
  usdMean?: unknown;
  usdMeanValue?: unknown;
}

/** Two decimal texts equal in value ("9.3610" and "9.36100000"). */
function sameValue(a: string, b: string): boolean {
  const norm = (x: string) => (x.includes(".") ? x.replace(/0+$/, "").replace(/\.$/, "") : x);
  return norm(a) === norm(b);
}

/** One item of `data`: a record, nothing (LIQ, a zero placeholder), or a RowProblem. */
function readRow(item: unknown, row: AmcmRow): RateRecord | undefined {
  if (typeof item !== "object" || item === null) rowProblem(ID, "bad-row", "not an object");
  const code = typeof row.currency === "string" ? row.currency.trim() : "";
  if (NOT_CURRENCIES.has(code)) return undefined;
  const currency = requireCurrencyCode(ID, RELABEL[code] ?? code);
  const rawDate = typeof row.date === "string" ? row.date : String(row.date);
  const day = rawDate.slice(0, 10);
  const effectiveDate = requireDate(ID, isIsoDate(day) ? day : undefined, rawDate);
  const unitText = jsonNumberText(row.unit) ?? String(row.unit);
  const unit = requireUnits(ID, /^\d+\.0+$/.test(unitText) ? unitText.replace(/\.0+$/, "") : unitText);
  const text = readDecimal(jsonNumberText(row.usdMean) ?? "");
  const value = readDecimal(jsonNumberText(row.usdMeanValue) ?? "");
  const rate = text ?? value;
  if (!rate) {
    rowProblem(
      ID,
      "bad-rate",
      `no mean rate: usdMean "${String(jsonNumberText(row.usdMean))}", usdMeanValue "${String(jsonNumberText(row.usdMeanValue))}"`,
    );
  }
  if (text && value && !sameValue(text, value))
    rowProblem(ID, "conflict", `usdMean "${text}" and usdMeanValue "${value}" differ`);
  if (!/[1-9]/.test(rate)) return undefined; // a zero placeholder
  return { effectiveDate, currency, ...perUnits(rate, unit) };
}

const yyyymmdd = (date: string) => date.replaceAll("-", "");

const amcm = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Monetary Authority of Macao", abbreviatedName: "AMCM" },
      { languageCode: "pt", name: "Autoridade Monetária de Macau", abbreviatedName: "AMCM" },
      { languageCode: "zh", name: "澳門金融管理局", abbreviatedName: "金管局" },
    ],
    dailyUpdateTime: "11:00:00",
    bankCurrency: "MOP",
    countryCode: ["MO"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.amcm.gov.mo",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-03",
    maxRangeDays: 90,
    sourceUrl: `${ENDPOINT}?QueryType=1`,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    return [
      await http.get(`${ENDPOINT}?Begin=${yyyymmdd(from)}&End=${yyyymmdd(to)}&QueryType=1`, {
        accept: "application/json",
      }),
    ];
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as { data?: unknown; message?: unknown; code?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      const said =
        typeof json === "object" && json !== null && "message" in json ? ` (message: ${String(json.message)})` : "";
      throw new FeedError(ID, `not an AMCM financial_info answer: no data array${said}`);
    }
    const first = json.data.find((item) => typeof item === "object" && item !== null) as AmcmRow | undefined;
    if (first && !("currency" in first && "date" in first && ("usdMean" in first || "usdMeanValue" in first))) {
      throw new FeedError(ID, `the layout changed: data items have ${Object.keys(first).join(", ")}`);
    }
    const rows = new AnswerRows(ID);
    (json.data as unknown[]).forEach((item, i) => {
      const row = (typeof item === "object" && item !== null ? item : {}) as AmcmRow;
      const fields = {
        effectiveDate: typeof row.date === "string" ? row.date : undefined,
        currency: typeof row.currency === "string" ? row.currency : undefined,
        rate: jsonNumberText(row.usdMean) ?? jsonNumberText(row.usdMeanValue),
      };
      rows.read(`data[${i}]`, () => readRow(item, row), fields);
    });
    return rows.result();
  },
});

export default amcm;

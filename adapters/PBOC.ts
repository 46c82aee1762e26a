// People's Bank of China: the RMB central parity rates, published by CFETS (China Foreign Exchange
// Trade System) on chinamoney.com.cn at 9:15 Beijing time on interbank business days, from its
// history endpoint CcprHisNew?startDate=&endDate=&pageNum=1&pageSize=50 (without `currency`, every
// pair; pages above 50 rows are refused) as JSON {data:{head, searchlist}, records:[{date, values}]}.
// `data.head` (or `data.searchlist` when only some pairs were asked, e.g. currency=USD/CNY) names the
// pairs; each record's `values` are aligned with those names. A pair "X/CNY" or "100X/CNY" is CNY per
// 1 or 100 X (Direct, the declared quote type); a pair "CNY/X" (MYR, KRW, THB...) is X per 1 CNY and
// is inverted exactly to 10 significant digits (derivation "inverted"). "---" or an empty value is a
// pair without a parity that day. A pair of another shape is held, as is a record whose values do
// not line up with the pairs, or whose date is no real day.
import {
  AnswerRows,
  FeedError,
  RowProblem,
  asArray,
  defineAdapter,
  invert,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  recentDays,
  requireDate,
  requireDecimal,
  rowProblem,
} from "../src/feed/kit.js";

const ID = "PBOC";
const ENDPOINT = "https://www.chinamoney.com.cn/ags/ms/cm-u-bk-ccpr/CcprHisNew";
const TIME_ZONE = "Asia/Shanghai";
/** The endpoint refuses pages above 50 rows (one row per date): 50 calendar days hold fewer. */
const PAGE_SIZE = 50;

const DIRECT = /^(1|10|100|1000|10000)?([A-Z]{3})\/CNY$/;
const REVERSE = /^CNY\/([A-Z]{3})$/;
const MISSING = new Set(["", "---", "--", "-"]);

interface Pair {
  currency: string;
  units?: string;
  reverse: boolean;
}

export function pairOf(label: string): Pair {
  const text = label.trim();
  const direct = DIRECT.exec(text);
  if (direct) return { currency: direct[2]!, units: direct[1] ?? "1", reverse: false };
  const reverse = REVERSE.exec(text);
  if (reverse) return { currency: reverse[1]!, reverse: true };
  throw new RowProblem(ID, "unknown-currency", `unknown currency pair "${label}"`, { currency: label });
}

const pboc = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "People's Bank of China", abbreviatedName: "PBOC" },
      { languageCode: "zh", name: "中国人民银行", abbreviatedName: "人民银行" },
    ],
    // CFETS publishes the central parity at 9:15 Beijing time on interbank business days.
    dailyUpdateTime: "09:15:00",
    bankCurrency: "CNY",
    countryCode: ["CN"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.pbc.gov.cn",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2006-01-04",
    maxRangeDays: PAGE_SIZE,
    sourceUrl: ENDPOINT,
  },

  // Without a `currency` parameter the endpoint answers every pair.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 10);
    const url = `${ENDPOINT}?startDate=${from}&endDate=${to}&pageNum=1&pageSize=${PAGE_SIZE}`;
    return [await http.get(url, { accept: "application/json" })];
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as {
      data?: { head?: unknown; searchlist?: unknown };
      records?: unknown;
    } | null;
    if (
      typeof json !== "object" ||
      json === null ||
      typeof json.data !== "object" ||
      json.data === null ||
      !Array.isArray(json.records)
    ) {
      throw new FeedError(ID, "not a CFETS central parity answer: no data and records");
    }
    const head = asArray(json.data.head as unknown[]).map(String);
    const searchlist = asArray(json.data.searchlist as unknown[]).map(String);
    if (head.length === 0) throw new FeedError(ID, "no currency pairs in data.head");
    const rows = new AnswerRows(ID);
    for (const [i, rec] of (json.records as Array<{ date?: unknown; values?: unknown }>).entries()) {
      const rawDate = typeof rec?.date === "string" ? rec.date : String(rec?.date);
      const values = Array.isArray(rec?.values) ? (rec.values as unknown[]) : undefined;
      // Values follow data.head; when some pairs were asked, they follow data.searchlist instead.
      const labels =
        values?.length === head.length ? head : values?.length === searchlist.length ? searchlist : undefined;
      if (!values || !labels) {
        rows.read(
          `records[${i}]`,
          () =>
            rowProblem(
              ID,
              "bad-row",
              `${values?.length ?? "no"} values for ${head.length} pairs (${searchlist.length} asked)`,
            ),
          { effectiveDate: rawDate },
        );
        continue;
      }
      for (const [k, value] of values.entries()) {
        const text = (jsonNumberText(value) ?? "").trim();
        rows.read(
          `records[${i}] (${rawDate}) ${labels[k]}`,
          () => {
            if (MISSING.has(text)) return undefined;
            const date = requireDate(ID, isIsoDate(rawDate) ? rawDate : undefined, rawDate);
            const pair = pairOf(labels[k]!);
            const rate = requireDecimal(ID, text, labels[k]!, { thousands: "," });
            if (pair.reverse && !/[1-9]/.test(rate))
              rowProblem(ID, "bad-rate", `${labels[k]} "${text}" cannot be inverted`);
            return pair.reverse
              ? { effectiveDate: date, currency: pair.currency, rate: invert(rate), derivation: "inverted" as const }
              : { effectiveDate: date, currency: pair.currency, ...perUnits(rate, pair.units!) };
          },
          { effectiveDate: rawDate, currency: labels[k], rate: text },
        );
      }
    }
    return rows.result();
  },
});

export default pboc;

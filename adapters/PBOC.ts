// People's Bank of China: the RMB central parity rates, published by CFETS (China Foreign Exchange
// Trade System) on chinamoney.com.cn, from its history endpoint CcprHisNew as JSON.
// `data.head` (or `data.searchlist` when only some pairs were asked) names the pairs; each record
// has a `date` and `values` aligned with those names. A pair "X/CNY" or "100X/CNY" is CNY per 1 or
// 100 X (Direct, the declared quote type); a pair "CNY/X" is X per 1 CNY and is inverted exactly to
// 10 significant digits (derivation "inverted"). "---" or an empty value is a pair without a parity.
import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  invert,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type RateRecord,
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
  throw new FeedError(ID, `unknown currency pair "${label}"`);
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
    const json = parseJsonExact(ID, decodeText(ID, body)) as {
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
    const records: RateRecord[] = [];
    for (const [i, rec] of (json.records as Array<{ date?: unknown; values?: unknown }>).entries()) {
      const date = typeof rec.date === "string" ? rec.date : "";
      if (!isIsoDate(date)) throw new FeedError(ID, `records[${i}]: date "${String(rec.date)}" is not a date`);
      if (!Array.isArray(rec.values)) throw new FeedError(ID, `records[${i}] (${date}): no values`);
      const values = rec.values as unknown[];
      // Values follow data.head; when some pairs were asked, they follow data.searchlist instead.
      const labels =
        values.length === head.length ? head : values.length === searchlist.length ? searchlist : undefined;
      if (!labels) throw new FeedError(ID, `records[${i}] (${date}): ${values.length} values for ${head.length} pairs`);
      values.forEach((value, k) => {
        const raw = (jsonNumberText(value) ?? "").trim();
        if (MISSING.has(raw)) return;
        const pair = pairOf(labels[k]!);
        const rate = readDecimal(raw, { thousands: "," });
        if (rate === undefined) throw new FeedError(ID, `${labels[k]} on ${date}: "${raw}" is not a decimal`);
        records.push(
          pair.reverse
            ? { effectiveDate: date, currency: pair.currency, rate: invert(rate), derivation: "inverted" }
            : { effectiveDate: date, currency: pair.currency, ...perUnits(rate, pair.units!) },
        );
      });
    }
    return records;
  },
});

export default pboc;

// Monetary Authority of Macao (AMCM): the daily interbank middle rates of the pataca, as JSON. MOP per `unit`
// foreign units (Direct): JPY and KRW per 100, kept as unitMultiplier 2. The figure is the mean field: `usdMean`
// (text, the published four decimals) which must equal `usdMeanValue` (the same number padded to eight
// decimals), despite the names. `LIQ` (unit 0) is a liquidity indicator, not a currency, and is skipped; the
// pre-euro ECU is relabelled XEU. The API caps an answer at about four months: 90-day chunks.
import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  jsonNumberText,
  parseJsonExact,
  perUnits,
  readDecimal,
  recentDays,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "AMCM";
const ENDPOINT = "https://www.amcm.gov.mo/api/v1.0/cms/financial_info";
const TIME_ZONE = "Asia/Macau";
const CODE = /^[A-Z]{3}$/;
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
    const json = parseJsonExact(ID, decodeText(ID, body)) as { data?: unknown; message?: unknown; code?: unknown };
    if (typeof json !== "object" || json === null || Array.isArray(json) || !Array.isArray(json.data)) {
      const said =
        typeof json === "object" && json !== null && "message" in json ? ` (message: ${String(json.message)})` : "";
      throw new FeedError(ID, `not an AMCM financial_info answer: no data array${said}`);
    }
    const records: RateRecord[] = [];
    (json.data as AmcmRow[]).forEach((row, i) => {
      if (typeof row !== "object" || row === null) throw new FeedError(ID, `data[${i}] is not an object`);
      const code = typeof row.currency === "string" ? row.currency.trim() : "";
      if (NOT_CURRENCIES.has(code)) return;
      const currency = RELABEL[code] ?? code;
      if (!CODE.test(currency))
        throw new FeedError(ID, `data[${i}]: currency "${String(row.currency)}" is not a currency code`);
      const date = typeof row.date === "string" ? row.date.slice(0, 10) : "";
      if (!isIsoDate(date))
        throw new FeedError(ID, `data[${i}] (${currency}): date "${String(row.date)}" is not a date`);
      const unit = readDecimal(jsonNumberText(row.unit) ?? "");
      if (!unit || !/^[1-9]\d*(\.0+)?$/.test(unit))
        throw new FeedError(
          ID,
          `data[${i}] (${currency} on ${date}): unit "${String(jsonNumberText(row.unit))}" is not a whole number`,
        );
      const text = readDecimal(jsonNumberText(row.usdMean) ?? "");
      const value = readDecimal(jsonNumberText(row.usdMeanValue) ?? "");
      const rate = text ?? value;
      if (!rate) throw new FeedError(ID, `data[${i}] (${currency} on ${date}): no mean rate`);
      if (text && value && !sameValue(text, value))
        throw new FeedError(
          ID,
          `data[${i}] (${currency} on ${date}): usdMean "${text}" and usdMeanValue "${value}" differ`,
        );
      if (!/[1-9]/.test(rate)) return; // a zero placeholder
      records.push({ effectiveDate: date, currency, ...perUnits(rate, unit.replace(/\.0+$/, "")) });
    });
    return records;
  },
});

export default amcm;

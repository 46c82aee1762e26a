// Swiss National Bank: the daily exchange rates (11:00) from its RSS feed, whose items carry the
// central-bank `cb:` elements: cb:value in cb:unit CHF for one unit(s) of cb:targetCurrency (Direct).
// cb:unit_mult gives the unit: "-2" means the value is for 100 units (recorded: JPY 0.5727 CHF on
// 2024-11-12, i.e. 0.005727 per yen), while "1" (as written for EUR, 0.9378) and "0" mean per 1 unit.
// History: the data portal's CSV (`;`, quoted, a metadata preamble) with series ids such as EUR1 or
// JPY100 carrying the unit. Only daily observations (dated YYYY-MM-DD, cube devkua) are rates of a
// day; the monthly cube devkum (YYYY-MM, M0 average / M1 month-end) is not, and reads as no records.
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  expectFeedText,
  isIsoDate,
  parseXml,
  perUnits,
  readDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "SNB";
const RSS = "https://www.snb.ch/public/en/rss/exchangeRates";
const CUBE = "https://data.snb.ch/api/cube";
const TIME_ZONE = "Europe/Zurich";
const CODE = /^[A-Z]{3}$/;
const SERIES = /^([A-Z]{3})(1|10|100|1000)$/;

type Node = Record<string, unknown>;

function parseRss(doc: Node): RateRecord[] {
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel) throw new FeedError(ID, "not an SNB RSS feed: no rss/channel");
  const records: RateRecord[] = [];
  for (const item of asArray(channel.item as Node[])) {
    const rate = (item["cb:statistics"] as Node | undefined)?.["cb:exchangeRate"] as Node | undefined;
    if (!rate) continue; // an item that is not an exchange rate observation
    const obs = (rate["cb:observation"] ?? {}) as Node;
    const currency = String(rate["cb:targetCurrency"] ?? "");
    if (!CODE.test(currency)) throw new FeedError(ID, `cb:targetCurrency "${currency}" is not a currency code`);
    if (rate["cb:baseCurrency"] !== "CHF" || obs["cb:unit"] !== "CHF") {
      throw new FeedError(
        ID,
        `${currency}: not a CHF price (base "${String(rate["cb:baseCurrency"])}", unit "${String(obs["cb:unit"])}")`,
      );
    }
    const date = String((rate["cb:observationPeriod"] as Node | undefined)?.["cb:period"] ?? "");
    if (!isIsoDate(date)) throw new FeedError(ID, `${currency}: cb:period "${date}" is not a day`);
    const value = readDecimal(String(obs["cb:value"] ?? ""));
    if (value === undefined)
      throw new FeedError(ID, `${currency} on ${date}: cb:value "${String(obs["cb:value"])}" is not a decimal`);
    const mult = String(obs["cb:unit_mult"] ?? "0");
    if (!/^(0|1|-[1-4])$/.test(mult)) throw new FeedError(ID, `${currency}: unknown cb:unit_mult "${mult}"`);
    const units = mult.startsWith("-") ? `1${"0".repeat(Number(mult.slice(1)))}` : "1";
    records.push({ effectiveDate: date, currency, ...perUnits(value, units) });
  }
  return records;
}

function parsePortalCsv(text: string): RateRecord[] {
  let rows: string[][];
  try {
    rows = parseCsv(text, {
      delimiter: ";",
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (error) {
    throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
  }
  if (rows[0]?.[0] !== "CubeId") throw new FeedError(ID, "not an SNB data portal CSV: no CubeId line");
  const at = rows.findIndex((r) => r[0] === "Date");
  if (at < 0) throw new FeedError(ID, "no Date/Value header line in the data portal CSV");
  const header = rows[at]!;
  const value = header.indexOf("Value");
  if (value < 0) throw new FeedError(ID, "no Value column in the data portal CSV");
  const records: RateRecord[] = [];
  for (const row of rows.slice(at + 1)) {
    const period = row[0] ?? "";
    if (/^\d{4}-\d{2}$/.test(period)) continue; // a monthly observation, not the rate of a day
    if (!isIsoDate(period)) throw new FeedError(ID, `Date "${period}" is neither a day nor a month`);
    const series = row
      .slice(1, value)
      .map((c) => SERIES.exec(c))
      .find((m) => m);
    if (!series) continue; // a series that is not a currency price (e.g. forward points)
    const raw = row[value] ?? "";
    if (raw === "") continue;
    const rate = readDecimal(raw);
    if (rate === undefined) throw new FeedError(ID, `${series[0]} on ${period}: "${raw}" is not a decimal`);
    records.push({ effectiveDate: period, currency: series[1]!, ...perUnits(rate, series[2]!) });
  }
  return records;
}

const snb = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Swiss National Bank", abbreviatedName: "SNB" },
      { languageCode: "de", name: "Schweizerische Nationalbank", abbreviatedName: "SNB" },
      { languageCode: "fr", name: "Banque nationale suisse", abbreviatedName: "BNS" },
      { languageCode: "it", name: "Banca nazionale svizzera", abbreviatedName: "BNS" },
      { languageCode: "rm", name: "Banca naziunala svizra", abbreviatedName: "BNS" },
    ],
    // The RSS carries the exchange rates of 11:00.
    dailyUpdateTime: "11:00:00",
    bankCurrency: "CHF",
    countryCode: ["CH", "LI"],
    region: ["Europe"],
    timeZone: TIME_ZONE,
    website: "https://www.snb.ch",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1999-01-04",
    maxRangeDays: 366,
    sourceUrl: RSS,
  },

  async fetch(range, { http }) {
    if (range.kind === "latest") return [await http.get(RSS, { accept: "application/rss+xml, application/xml" })];
    return [
      await http.get(`${CUBE}/devkua/data/csv/en?fromDate=${range.from}&toDate=${range.to}`, { accept: "text/csv" }),
    ];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "RSS or CSV");
    if (text.trimStart().startsWith("<")) return parseRss(parseXml(ID, text));
    return parsePortalCsv(text);
  },
});

export default snb;

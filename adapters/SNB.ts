// Swiss National Bank: the daily exchange rates (11:00 Zurich time, working days) from its RSS feed
// (public/en/rss/exchangeRates), whose items carry the central-bank `cb:` elements: cb:value in
// cb:unit CHF for one unit(s) of cb:targetCurrency (Direct), dated by cb:period. cb:unit_mult gives the
// unit: "-2" means the value is for 100 units (recorded: JPY 0.5727 CHF on 2024-11-12, i.e. 0.005727
// per yen), while "1" (as written for EUR, 0.9378) and "0" mean per 1 unit. An item priced in another
// unit than CHF, or with another unit_mult, is held. History: the data portal's CSV
// (api/cube/devkua/data/csv/en?fromDate=&toDate=; `;`, quoted, a metadata preamble of CubeId and
// PublishingDate, then "Date";"D0";"Value") with series ids such as EUR1 or JPY100 carrying the unit.
// Only daily observations (dated YYYY-MM-DD, cube devkua) are rates of a day; the monthly cube devkum
// (YYYY-MM, M0 average / M1 month-end) is not, and reads as no records; series that are not a
// currency price (USD3M forward points) are skipped, as are empty values.
import {
  AnswerRows,
  FeedError,
  asArray,
  decodeText,
  defineAdapter,
  expectFeedText,
  isIsoDate,
  parseXml,
  perUnits,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type ParsedAnswer,
} from "../src/feed/kit.js";
import { readCsv } from "../src/feed/csv.js";

const ID = "SNB";
const RSS = "https://www.snb.ch/public/en/rss/exchangeRates";
const CUBE = "https://data.snb.ch/api/cube";
const TIME_ZONE = "Europe/Zurich";
const SERIES = /^([A-Z]{3})(1|10|100|1000)$/;

type Node = Record<string, unknown>;

const text = (v: unknown) => (typeof v === "string" ? v : "");

function parseRss(doc: Node): ParsedAnswer {
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel) throw new FeedError(ID, "not an SNB RSS feed: no rss/channel");
  const rows = new AnswerRows(ID);
  for (const [i, item] of asArray(channel.item as Node[]).entries()) {
    const rate = (item["cb:statistics"] as Node | undefined)?.["cb:exchangeRate"] as Node | undefined;
    if (!rate) continue; // an item that is not an exchange rate observation
    const obs = (rate["cb:observation"] ?? {}) as Node;
    const target = text(rate["cb:targetCurrency"]);
    const period = text((rate["cb:observationPeriod"] as Node | undefined)?.["cb:period"]);
    rows.read(
      `item ${i + 1} (${target})`,
      () => {
        const currency = requireCurrencyCode(ID, target);
        if (rate["cb:baseCurrency"] !== "CHF" || obs["cb:unit"] !== "CHF") {
          rowProblem(
            ID,
            "unknown-unit",
            `not a CHF price (base "${text(rate["cb:baseCurrency"])}", unit "${text(obs["cb:unit"])}")`,
          );
        }
        const date = requireDate(ID, isIsoDate(period) ? period : undefined, period);
        const value = requireDecimal(ID, obs["cb:value"], `${currency} cb:value`);
        const mult = text(obs["cb:unit_mult"]) || "0";
        if (!/^(0|1|-[1-4])$/.test(mult)) rowProblem(ID, "unknown-unit", `unknown cb:unit_mult "${mult}"`);
        const units = mult.startsWith("-") ? `1${"0".repeat(Number(mult.slice(1)))}` : "1";
        return { effectiveDate: date, currency, ...perUnits(value, units) };
      },
      { effectiveDate: period, currency: target, rate: text(obs["cb:value"]) },
    );
  }
  return rows.result();
}

function parsePortalCsv(body: string): ParsedAnswer {
  const rows = readCsv(ID, body, { delimiter: ";", relaxColumnCount: true, what: "an SNB data portal CSV" });
  if (rows[0]?.[0] !== "CubeId") throw new FeedError(ID, "not an SNB data portal CSV: no CubeId line");
  const at = rows.findIndex((r) => r[0] === "Date");
  if (at < 0) throw new FeedError(ID, "no Date/Value header line in the data portal CSV");
  const header = rows[at]!;
  const value = header.indexOf("Value");
  if (value < 0) throw new FeedError(ID, "no Value column in the data portal CSV");
  const answer = new AnswerRows(ID);
  for (let i = at + 1; i < rows.length; i++) {
    const row = rows[i]!;
    const period = row[0] ?? "";
    const raw = row[value] ?? "";
    const label = row.slice(1, value).join(" ");
    answer.read(
      `row ${i + 1} (${period} ${label})`,
      () => {
        if (/^\d{4}-\d{2}$/.test(period)) return undefined; // a monthly observation, not the rate of a day
        const series = row
          .slice(1, value)
          .map((c) => SERIES.exec(c))
          .find((m) => m);
        if (!series) return undefined; // a series that is not a currency price (e.g. forward points)
        if (raw === "") return undefined;
        const date = requireDate(ID, isIsoDate(period) ? period : undefined, period);
        const rate = requireDecimal(ID, raw, `${series[0]} on ${period}`);
        return { effectiveDate: date, currency: requireCurrencyCode(ID, series[1]!), ...perUnits(rate, series[2]!) };
      },
      { effectiveDate: period, currency: label, rate: raw },
    );
  }
  return answer.result();
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
    const answer = expectFeedText(ID, decodeText(ID, body), "RSS or CSV");
    if (answer.trimStart().startsWith("<")) return parseRss(parseXml(ID, answer));
    return parsePortalCsv(answer);
  },
});

export default snb;

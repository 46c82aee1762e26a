// Da Afghanistan Bank: the daily exchange rates of the afghani (AFN), an HTML page per day
// (exchange-rates?field_date_value=YYYY-MM-DD). Four figures per currency: cash sell/buy and
// transfer sell/buy, AFN per 1 unit (Direct). The bank names no middle rate: the figure kept is the
// exact mean of Transfer (Sell) and Transfer (Buy) (derivation "mean"), columns found by their
// labels. Row labels carry symbols (`USD$`, `EURO€`) and are mapped below. `IRAN Toman` is quoted per
// toman = 10 rials: kept as AFN per 10 IRR (unitMultiplier 1), no division. The second table
// (monthly "Average Rates") is ignored. The effective date is the page's "Last updated" date.
// Holidays answer "There were no results"; the bank is closed on Fridays.
import * as cheerio from "cheerio";

import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  isoFromParts,
  mean,
  perUnits,
  requireDecimal,
  weekday,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "DAB";
const ENDPOINT = "https://www.dab.gov.af/exchange-rates";
const TIME_ZONE = "Asia/Kabul";

/** Row labels (symbols removed, upper case, single spaces) to ISO codes and the units quoted. */
export const DAB_LABELS: Readonly<Record<string, { currency: string; units: number }>> = {
  USD: { currency: "USD", units: 1 },
  EURO: { currency: "EUR", units: 1 },
  POUND: { currency: "GBP", units: 1 },
  SWISS: { currency: "CHF", units: 1 },
  "INDIAN RS.": { currency: "INR", units: 1 },
  "PAKISTAN RS.": { currency: "PKR", units: 1 },
  // One toman is ten rials.
  "IRAN TOMAN": { currency: "IRR", units: 10 },
  CNY: { currency: "CNY", units: 1 },
  "UAE DIRHAM": { currency: "AED", units: 1 },
  "SAUDI RIYAL": { currency: "SAR", units: 1 },
};

export function dabLabelKey(label: string): string {
  return label
    .replace(/[$€£₣¥\uFEFF]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

function dateOf(raw: string): IsoDate {
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(raw.trim());
  const month = m ? MONTHS.indexOf(m[2]!.toLowerCase()) + 1 : 0;
  const date = m && month > 0 ? isoFromParts(m[3]!, month, m[1]!) : undefined;
  if (!date) throw new FeedError(ID, `"Last updated" date "${raw.trim()}" is not "DD Month YYYY"`);
  return date;
}

const dab = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Da Afghanistan Bank", abbreviatedName: "DAB" },
      { languageCode: "ps", name: "د افغانستان بانک", abbreviatedName: "DAB" },
      { languageCode: "fa", name: "د افغانستان بانک", abbreviatedName: "DAB" },
    ],
    // Polled from 05:00 UTC (09:30 in Kabul); the bank states no time of its own (not verified).
    dailyUpdateTime: "09:30:00",
    bankCurrency: "AFN",
    countryCode: ["AF"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.dab.gov.af",
    quoteType: "Direct",
    // Saturday to Thursday: closed on Fridays.
    publicationDays: [1, 2, 3, 4, 6, 7],
    coverageStart: "2019-03-31",
    maxRangeDays: 31,
    sourceUrl: ENDPOINT,
  },

  // "latest" is the page without a date; a range is one page per day, Fridays excepted.
  async fetch(range, { http }) {
    if (range.kind === "latest") return [await http.get(ENDPOINT, { accept: "text/html" })];
    const docs: FeedDocument[] = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      if (weekday(day) === 5) continue;
      docs.push(await http.get(`${ENDPOINT}?field_date_value=${day}`, { accept: "text/html" }));
    }
    return docs;
  },

  parse(body) {
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where the exchange-rates page was expected");
    if (/There were no results/i.test(text)) return [];
    const $ = cheerio.load(text);
    const heading = $("h2")
      .filter((_, h) => $(h).text().trim() === "Exchange Rates")
      .first();
    if (heading.length === 0)
      throw new FeedError(ID, 'not the DAB exchange-rates page: no "Exchange Rates" heading (an error or WAF page?)');
    const updated = /Last updated:\s*(.+)$/.exec(heading.next("p").text().trim());
    if (!updated) throw new FeedError(ID, 'no "Last updated" date under the heading');
    const date = dateOf(updated[1]!);
    const table = $("div.table-responsive table").first();
    if (table.length === 0 || !/<\/table>/.test(text)) throw new FeedError(ID, `no complete rates table for ${date}`);
    const labels = table
      .find("thead th")
      .toArray()
      .map((th) => dabLabelKey($(th).text()));
    const col = (label: string) => {
      const i = labels.indexOf(label.toUpperCase());
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [nameCol, sellCol, buyCol] = [col("Currency"), col("Transfer (Sell)"), col("Transfer (Buy)")];
    const records: RateRecord[] = [];
    for (const row of table.find("tbody tr").toArray()) {
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns on ${date}`);
      const known = DAB_LABELS[dabLabelKey(cells[nameCol]!)];
      if (!known) throw new FeedError(ID, `unknown currency label "${cells[nameCol]}" on ${date}`);
      const sell = requireDecimal(ID, cells[sellCol], `${known.currency} Transfer (Sell) on ${date}`);
      const buy = requireDecimal(ID, cells[buyCol], `${known.currency} Transfer (Buy) on ${date}`);
      records.push({
        effectiveDate: date,
        currency: known.currency,
        ...perUnits(mean(sell, buy), known.units),
        derivation: "mean",
      });
    }
    return records;
  },
});

export default dab;

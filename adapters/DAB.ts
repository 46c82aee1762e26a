// Da Afghanistan Bank: the daily exchange rates of the afghani (AFN).
// - Endpoint: GET https://www.dab.gov.af/exchange-rates?field_date_value=YYYY-MM-DD (the undated page is
//   the newest day): an HTML page with an "Exchange Rates" heading, "Last updated: 18 May 2026" under it,
//   and the day's table `Currency | Cash (Sell) | Cash (Buy) | Transfer (Sell) | Transfer (Buy)`, columns
//   found by their labels. A second table, "Average Rates", holds the previous month's averages: another
//   series, not read. A day without rates (holidays) answers "There were no results".
// - Quotes: AFN per 1 unit (Direct). The bank names no middle rate: the figure kept is the exact mean of
//   Transfer (Sell) and Transfer (Buy) (derivation "mean").
// - Row labels carry symbols (`USD$`, `EURO€`, `SWISS₣`) and the bank's abbreviations (`POUND`,
//   `INDIAN Rs.`): read through ISO codes and ICU's English names first, then the table below. `IRAN Toman`
//   is quoted per toman, that is per 10 rials: kept as AFN per 10 IRR (unitMultiplier 1), no division.
// - Published Saturday to Thursday (closed on Fridays); the bank states no time: polled from 09:30 Kabul time.
// Each table row is one row: a row of the wrong width, an unknown label or a figure that is not a number
// holds it; a "Last updated" date that does not exist holds every row. A page without the heading, the
// date line or a complete table, or without the Transfer columns, is refused whole.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  currencyOf,
  decodeText,
  defineAdapter,
  foldName,
  mean,
  noPublication,
  perUnits,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  weekday,
  type CurrencyResolution,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "DAB";
const ENDPOINT = "https://www.dab.gov.af/exchange-rates";
const TIME_ZONE = "Asia/Kabul";

/**
 * The bank's labels no rule resolves (keys folded, symbols removed), each with why. The kit's resolver
 * reads the others: `SWISS₣` (an adjective alone), `UAE DIRHAM` (ISO 4217's name).
 */
const ALIASES: Readonly<Record<string, string>> = {
  // "Pound" alone fits nine currencies; the bank's (with £) is sterling.
  pound: "GBP",
  // "Rs." abbreviates rupees: no unit by rule.
  "indian rs": "INR",
  "pakistan rs": "PKR",
};

/** Labels quoted per more than one unit: the toman is ten rials. */
const PER_UNITS: Readonly<Record<string, { currency: string; units: string }>> = {
  "iran toman": { currency: "IRR", units: "10" },
};

/** A row label without its currency symbols (`EURO€` is `EURO`). */
export function dabLabelKey(label: string): string {
  return label
    .replace(/[$€£₣¥\uFEFF]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The currency of a row label (and how it was resolved, when by rule) and the units its figures are
 * for; an unknown label holds the row.
 */
export function dabCurrency(label: string, date?: string): CurrencyResolution & { units: string } {
  const key = dabLabelKey(label);
  return PER_UNITS[foldName(key)] ?? { ...resolveCurrencyName(ID, key, { aliases: ALIASES, date }), units: "1" };
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
    if (/There were no results/i.test(text)) return noPublication("There were no results: no rates for the day asked");
    const $ = cheerio.load(text);
    const heading = $("h2")
      .filter((_, h) => $(h).text().trim() === "Exchange Rates")
      .first();
    if (heading.length === 0)
      throw new FeedError(ID, 'not the DAB exchange-rates page: no "Exchange Rates" heading (an error or WAF page?)');
    const updated = /Last updated:\s*(.+)$/.exec(heading.next("p").text().trim());
    if (!updated) throw new FeedError(ID, 'no "Last updated" date under the heading');
    const written = updated[1]!.trim();
    const table = $("div.table-responsive table").first();
    if (table.length === 0 || !/<\/table>/.test(text))
      throw new FeedError(ID, `no complete rates table for ${written}`);
    const labels = table
      .find("thead th")
      .toArray()
      .map((th) => dabLabelKey($(th).text()).toUpperCase());
    const col = (label: string) => {
      const i = labels.indexOf(label.toUpperCase());
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [nameCol, sellCol, buyCol] = [col("Currency"), col("Transfer (Sell)"), col("Transfer (Buy)")];
    const rows = new AnswerRows(ID);
    table
      .find("tbody tr")
      .toArray()
      .forEach((row, r) => {
        const cells = $(row)
          .children("td")
          .toArray()
          .map((td) => $(td).text().trim());
        const label = cells[nameCol] ?? "";
        rows.read(
          `row ${r + 1}`,
          (): RateRecord => {
            if (cells.length !== labels.length)
              rowProblem(ID, "bad-row", `a row of ${cells.length} cells under ${labels.length} columns`);
            const effectiveDate = requireDate(ID, fromDayMonthName(written), written);
            const named = dabCurrency(label, effectiveDate);
            const [currency, units] = [currencyOf(named), named.units];
            const sell = requireDecimal(ID, cells[sellCol], "Transfer (Sell)");
            const buy = requireDecimal(ID, cells[buyCol], "Transfer (Buy)");
            return { effectiveDate, currency, ...perUnits(mean(sell, buy), units), derivation: "mean" };
          },
          { effectiveDate: written, currency: label, rate: `${cells[sellCol]} / ${cells[buyCol]}` },
        );
      });
    return rows.result();
  },
});

export default dab;

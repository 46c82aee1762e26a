// Reserve Bank of Malawi: exchange rates of the kwacha (MWK) for a date range, as an HTML fragment
// answered to a form POST to Statistics/ExchangeRatesFilter/ (RateTypes=, StartDate and EndDate as
// MM/DD/YYYY, at most 30 days). The fragment's table#exchange-rates has the columns Currency, Buying,
// Middle, Selling, Date (found by their labels; a missing one means the layout changed) and one row
// per currency and day. The official figure is `Middle`, MWK per 1 unit (Direct). The date cell is
// split by non-breaking spaces (`Jan 02  2024`). The bank states no publication time; it is polled
// from 16:00 Malawi time on working days. Two rows are not rates to publish: CMD (the COMESA dollar,
// a unit of account that is not ISO 4217, quoted at the USD figure) is skipped; IEP (the Irish pound,
// withdrawn in 2002) carries a figure that no longer follows the euro's fixed rate, and is held.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type IsoDate,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "RBM";
const ENDPOINT = "https://www.rbm.mw/Statistics/ExchangeRatesFilter/";
const TIME_ZONE = "Africa/Blantyre";
/** The COMESA dollar: a unit of account, not a currency. */
const UNIT_OF_ACCOUNT = "CMD";
/** The Irish pound: its figure is stale (the euro's fixed rate gives about twice it). */
const STALE = "IEP";

const mmddyyyy = (date: IsoDate) => `${date.slice(5, 7)}%2F${date.slice(8, 10)}%2F${date.slice(0, 4)}`;

/** `Jan 02  2024` (non-breaking spaces) to ISO; undefined when it is no real date. */
function dateOf(raw: string): IsoDate | undefined {
  const m = /^(\p{L}{3,})\s+(\d{1,2})\s+(\d{4})$/u.exec(raw.replace(/[\s\u00a0]+/g, " ").trim());
  const month = m ? monthNumber(m[1]!) : undefined;
  return m && month ? isoFromParts(m[3]!, month, m[2]!) : undefined;
}

const rbm = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Reserve Bank of Malawi", abbreviatedName: "RBM" }],
    // Polled from 14:00 UTC (16:00 in Malawi); the bank states no time of its own (not verified).
    dailyUpdateTime: "16:00:00",
    bankCurrency: "MWK",
    countryCode: ["MW"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.rbm.mw",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2011-06-20",
    maxRangeDays: 30,
    sourceUrl: "https://www.rbm.mw/Statistics/MajorRates",
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(TIME_ZONE, 7) : range;
    if (addDays(from, 29) < to) throw new FeedError(ID, `a range of more than 30 days (${from} to ${to}) in one fetch`);
    return [
      await http.post(ENDPOINT, `RateTypes=&StartDate=${mmddyyyy(from)}&EndDate=${mmddyyyy(to)}`, {
        accept: "text/html",
      }),
    ];
  },

  parse(body) {
    const text = expectFeedText(ID, decodeText(ID, body), "the RBM exchange-rates fragment");
    const $ = cheerio.load(text);
    const tables = $("table#exchange-rates");
    if (tables.length === 0) throw new FeedError(ID, "not an RBM exchange-rates answer: no table#exchange-rates");
    if (!/<\/table>/.test(text)) throw new FeedError(ID, "truncated answer: the rates table is not closed");
    const rows = new AnswerRows(ID);
    for (const table of tables.toArray()) {
      const labels = $(table)
        .find("thead th")
        .toArray()
        .map((th) => $(th).text().trim());
      const col = (label: string) => {
        const i = labels.indexOf(label);
        if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
        return i;
      };
      const [currencyCol, middleCol, dateCol] = [col("Currency"), col("Middle"), col("Date")];
      for (const [r, row] of $(table).find("tbody tr").toArray().entries()) {
        const cells = $(row)
          .find("td")
          .toArray()
          .map((td) => $(td).text().trim());
        const code = cells[currencyCol] ?? "";
        const rawDate = (cells[dateCol] ?? "").replace(/[\s\u00a0]+/g, " ");
        rows.read(
          `row ${r + 1} (${code})`,
          () => {
            if (cells.length !== labels.length)
              rowProblem(ID, "bad-row", `${cells.length} cells under ${labels.length} columns`);
            if (code === UNIT_OF_ACCOUNT) return undefined;
            if (code === STALE)
              rowProblem(
                ID,
                "bad-row",
                "the Irish pound, withdrawn in 2002: its figure does not follow the euro's fixed rate",
              );
            const currency = requireCurrencyCode(ID, code);
            const date = requireDate(ID, dateOf(rawDate), rawDate);
            const rate = requireDecimal(ID, cells[middleCol], `${currency} Middle on ${date}`);
            return { effectiveDate: date, currency, rate };
          },
          { effectiveDate: rawDate, currency: code, rate: cells[middleCol] },
        );
      }
    }
    return rows.result();
  },
});

export default rbm;

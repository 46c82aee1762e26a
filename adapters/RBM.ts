// Reserve Bank of Malawi: exchange rates of the kwacha (MWK) for a date range, as an HTML fragment
// answered to a form POST (RateTypes=, StartDate and EndDate as MM/DD/YYYY). The official figure is
// the `Middle` column, MWK per 1 unit (Direct); columns are found by their labels. The date cell is
// split by non-breaking spaces (`Jan 02  2024`). Two rows are not currencies to publish: CMD (the
// COMESA dollar, not an ISO 4217 code; quoted at the USD figure) and IEP (the Irish pound, withdrawn
// in 2002, whose figure no longer follows the euro's fixed rate): both are left out.
import * as cheerio from "cheerio";

import {
  FeedError,
  addDays,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  recentDays,
  requireDecimal,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "RBM";
const ENDPOINT = "https://www.rbm.mw/Statistics/ExchangeRatesFilter/";
const TIME_ZONE = "Africa/Blantyre";
const LEFT_OUT = new Set(["CMD", "IEP"]);
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

const mmddyyyy = (date: IsoDate) => `${date.slice(5, 7)}%2F${date.slice(8, 10)}%2F${date.slice(0, 4)}`;

function dateOf(raw: string): IsoDate {
  const m = /^([A-Za-z]{3})\s+(\d{1,2})\s+(\d{4})$/.exec(raw.replace(/[\s\u00a0]+/g, " ").trim());
  const month = m ? MONTHS.indexOf(m[1]!.toUpperCase()) + 1 : 0;
  const date = m && month > 0 ? isoFromParts(m[3]!, month, m[2]!) : undefined;
  if (!date) throw new FeedError(ID, `date cell "${raw}" is not "Mon DD YYYY"`);
  return date;
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
    const table = $("table#exchange-rates");
    if (table.length !== 1) throw new FeedError(ID, "not an RBM exchange-rates answer: no table#exchange-rates");
    if (!/<\/table>/.test(text)) throw new FeedError(ID, "truncated answer: the rates table is not closed");
    const labels = table
      .find("thead th")
      .toArray()
      .map((th) => $(th).text().trim());
    const col = (label: string) => {
      const i = labels.indexOf(label);
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [currencyCol, middleCol, dateCol] = [col("Currency"), col("Middle"), col("Date")];
    const records: RateRecord[] = [];
    for (const row of table.find("tbody tr").toArray()) {
      const cells = $(row)
        .find("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns`);
      const currency = cells[currencyCol]!;
      if (!/^[A-Z]{3}$/.test(currency)) throw new FeedError(ID, `currency "${currency}" is not a three-letter code`);
      if (LEFT_OUT.has(currency)) continue;
      const date = dateOf(cells[dateCol]!);
      const rate = requireDecimal(ID, cells[middleCol], `${currency} Middle on ${date}`);
      records.push({ effectiveDate: date, currency, rate });
    }
    return records;
  },
});

export default rbm;

// Central Bank of Liberia: the daily buying and selling rates of the Liberian dollar against the US
// dollar, a paginated Drupal table (newest first). The figures are written inside text
// (`L$182.4016/US$1.00`): LRD per 1 USD (Direct). The bank publishes no middle rate, so the
// official figure kept is the exact mean of Buying and Selling (derivation "mean"). Dates come from
// the `<time datetime>` attribute. Columns are found by their labels.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  mean,
  readDecimal,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBLLR";
const ENDPOINT = "https://www.cbl.org.lr/research/buying-selling-rates";
/** Pages walked at most for one range (20 rows a page: about a year and a half). */
const MAX_PAGES = 25;

function figure(raw: string, what: string): string {
  const m = /^L\$\s*(\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?)\s*\/\s*US\$\s*1(?:\.0+)?$/.exec(
    raw.replace(/\s+/g, " ").trim(),
  );
  const value = m ? readDecimal(m[1]!, { thousands: "," }) : undefined;
  if (!value) throw new FeedError(ID, `${what}: "${raw.trim()}" is not "L$<rate>/US$1.00"`);
  return value;
}

function parsePage(body: Uint8Array): RateRecord[] {
  const text = decodeText(ID, body);
  if (text.trim() === "") throw new FeedError(ID, "empty body where the buying/selling rates page was expected");
  const $ = cheerio.load(text);
  const table = $("table")
    .filter((_, t) =>
      $(t)
        .find("th")
        .toArray()
        .some((th) => $(th).text().trim() === "Buying"),
    )
    .first();
  if (table.length === 0)
    throw new FeedError(
      ID,
      'not the CBL buying/selling rates page: no table with a "Buying" column (an error or WAF page?)',
    );
  if (!/<\/table>/.test(text.slice(text.indexOf("views-field-field-buying-us"))))
    throw new FeedError(ID, "truncated page: the rates table is not closed");
  const labels = table
    .find("thead th")
    .toArray()
    .map((th) => $(th).text().trim());
  const col = (label: string) => {
    const i = labels.indexOf(label);
    if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
    return i;
  };
  const [dateCol, buyCol, sellCol] = [col("Date"), col("Buying"), col("Selling")];
  return table
    .find("tbody tr")
    .toArray()
    .map((row): RateRecord => {
      const cells = $(row).children("td").toArray();
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns`);
      const stamp = $(cells[dateCol]).find("time").attr("datetime") ?? "";
      const date: IsoDate = stamp.slice(0, 10);
      if (!isIsoDate(date)) throw new FeedError(ID, `date attribute "${stamp}" is not an ISO date`);
      const buying = figure($(cells[buyCol]).text(), `Buying on ${date}`);
      const selling = figure($(cells[sellCol]).text(), `Selling on ${date}`);
      return { effectiveDate: date, currency: "USD", rate: mean(buying, selling), derivation: "mean" };
    });
}

const cbllr = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Central Bank of Liberia", abbreviatedName: "CBL" }],
    // Polled from 13:00 UTC (= Monrovia time); the bank states no time of its own (not verified).
    dailyUpdateTime: "13:00:00",
    bankCurrency: "LRD",
    countryCode: ["LR"],
    region: ["Africa"],
    timeZone: "Africa/Monrovia",
    website: "https://www.cbl.org.lr",
    quoteType: "Direct",
    // The table has Saturday rows (2026-05-02, 2026-04-11 in the recording).
    publicationDays: [1, 2, 3, 4, 5, 6],
    coverageStart: "2012-07-05",
    maxRangeDays: 90,
    sourceUrl: ENDPOINT,
  },

  // Newest first: "latest" is the first page; a range walks pages until their rows are older than `from`.
  async fetch(range, { http }) {
    const docs: FeedDocument[] = [];
    for (let page = 0; page < (range.kind === "latest" ? 1 : MAX_PAGES); page++) {
      const doc = await http.get(page === 0 ? ENDPOINT : `${ENDPOINT}?page=${page}`, { accept: "text/html" });
      docs.push(doc);
      const rows = parsePage(doc.body);
      if (rows.length === 0 || (range.kind === "range" && rows.some((r) => r.effectiveDate < range.from))) break;
    }
    return docs;
  },

  parse(body) {
    return parsePage(body);
  },
});

export default cbllr;

// Central Bank of Liberia: the daily buying and selling rates of the Liberian dollar against the US dollar.
// - Endpoint: GET https://www.cbl.org.lr/research/buying-selling-rates (then ?page=1, ?page=2 ...): a
//   paginated Drupal view, newest first, 20 rows a page, back to 2012-07-05. An HTML table with the
//   columns `Date | Buying | Selling`, found by their labels; the date is the `<time datetime=
//   "2026-05-07T12:00:00Z">` attribute, the figures are written inside text: `L$182.4016/US$1.00`.
// - Quotes: LRD per 1 USD (Direct). The bank publishes no middle rate: the figure kept is the exact mean of
//   Buying and Selling (derivation "mean").
// - Rows appear on working days and some Saturdays; the bank states no publication time.
// Each table row is one row: a row of the wrong width, a date attribute that is not a date, or a figure
// not written as `L$<rate>/US$1.00` holds it. Every table with a Buying column is read; a page without
// one, or with the table cut off, is refused whole.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  noPublication,
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  mean,
  readDecimal,
  requireDate,
  rowProblem,
  type FeedDocument,
  type ParsedAnswer,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBLLR";
const ENDPOINT = "https://www.cbl.org.lr/research/buying-selling-rates";
/** Pages walked at most for one range (20 rows a page: about a year and a half). */
const MAX_PAGES = 25;

/** `L$182.4016/US$1.00` to 182.4016; anything else is a RowProblem. */
function figure(raw: string, what: string): string {
  const text = raw.replace(/\s+/g, " ").trim();
  const m = /^L\$\s*(\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?)\s*\/\s*US\$\s*1(?:\.0+)?$/.exec(text);
  const value = m ? readDecimal(m[1]!, { thousands: "," }) : undefined;
  if (value !== undefined) return value;
  if (/US\$\s*(?!1(?:\.0+)?$)\d/.test(text))
    rowProblem(ID, "unknown-unit", `${what}: "${text}" is not per US$1.00`, { rate: text });
  return rowProblem(ID, "bad-rate", `${what}: "${text}" is not "L$<rate>/US$1.00"`, { rate: text });
}

function parsePage(body: Uint8Array): ParsedAnswer {
  const text = decodeText(ID, body);
  if (text.trim() === "") throw new FeedError(ID, "empty body where the buying/selling rates page was expected");
  const $ = cheerio.load(text);
  const tables = $("table")
    .filter((_, t) =>
      $(t)
        .find("th")
        .toArray()
        .some((th) => $(th).text().trim() === "Buying"),
    )
    .toArray();
  if (tables.length === 0)
    throw new FeedError(
      ID,
      'not the CBL buying/selling rates page: no table with a "Buying" column (an error or WAF page?)',
    );
  if (!/<\/table>/.test(text.slice(text.lastIndexOf("views-field-field-buying-us"))))
    throw new FeedError(ID, "truncated page: the rates table is not closed");
  const rows = new AnswerRows(ID);
  tables.forEach((table, t) => {
    const labels = $(table)
      .find("thead th")
      .toArray()
      .map((th) => $(th).text().trim());
    const col = (label: string) => {
      const i = labels.indexOf(label);
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [dateCol, buyCol, sellCol] = [col("Date"), col("Buying"), col("Selling")];
    $(table)
      .find("tbody tr")
      .toArray()
      .forEach((row, r) => {
        const cells = $(row).children("td").toArray();
        const stamp = $(cells[dateCol]).find("time").attr("datetime") ?? $(cells[dateCol]).text().trim();
        const buyText = $(cells[buyCol]).text().trim();
        const sellText = $(cells[sellCol]).text().trim();
        if (cells.length === labels.length && buyText === "" && sellText === "") return; // no figures that day
        rows.read(
          `${tables.length > 1 ? `table ${t + 1} ` : ""}row ${r + 1}`,
          (): RateRecord => {
            if (cells.length !== labels.length)
              rowProblem(ID, "bad-row", `a row of ${cells.length} cells under ${labels.length} columns`);
            const date = stamp.slice(0, 10);
            const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, stamp);
            const buying = figure(buyText, "Buying");
            const selling = figure(sellText, "Selling");
            return { effectiveDate, currency: "USD", rate: mean(buying, selling), derivation: "mean" };
          },
          { effectiveDate: stamp, currency: "USD", rate: `${buyText} / ${sellText}` },
        );
      });
  });
  const answer = rows.result();
  // A page past the last one, or days without figures: the table says so by holding no figure.
  return answer.records.length + answer.held.length > 0 ? answer : noPublication("the rates table holds no figure");
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
    // The table has Saturday rows (2026-05-02, 2026-04-11).
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
      const { records, held } = parsePage(doc.body);
      if (records.length + held.length === 0) break;
      if (range.kind === "range" && records.some((r) => r.effectiveDate < range.from)) break;
    }
    return docs;
  },

  parse(body) {
    return parsePage(body);
  },
});

export default cbllr;

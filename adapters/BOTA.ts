// Bank of Tanzania: the daily indicative rates of the shilling (TZS) for a date range
// (https://www.bot.go.tz/ExchangeRate/previous_rates).
// - Fetch: a GET of the page gives the ASP.NET anti-forgery token (__RequestVerificationToken) and its
//   cookie; then, in the same session, a form POST to the same URL with the token, dateFrom and dateTo
//   (MM/DD/YYYY). Without the token the server answers 500. The GET is read only for the token
//   (navigation, marked in `fetch`: it shares its URL with the answer, so no URL pattern can tell them).
// - Answer: an HTML page with table#myTable (S/N | Currency | Buy | Sell | Mean | Date), found by its
//   labels; a bare form without that table is not the answer and is refused. The landing page's table
//   is empty (no records).
// - The official figure is the `Mean` column, TZS per 1 unit (Direct). Figures are written with commas
//   in odd places (`2,602.0,545` for 2602.0545): every comma is a grouping mark and is removed, the
//   digits and the one point kept. Dates are `19-May-26`.
// - GOLD and withdrawn codes (ATS, NLG, MZM, ZWD, CUC, RUR) are left out; SDR is written XDR.
// - Published seven days a week; polled from 11:00 Dar es Salaam time (the bank states no time).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  noPublication,
  readDecimal,
  recentDays,
  requireDate,
  resolveCurrency,
  rowProblem,
  type IsoDate,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "BOTA";
const ENDPOINT = "https://www.bot.go.tz/ExchangeRate/previous_rates";
const TIME_ZONE = "Africa/Dar_es_Salaam";
const TOKEN = "__RequestVerificationToken";
const LEFT_OUT = new Set(["GOLD", "ATS", "NLG", "MZM", "ZWD", "CUC", "RUR"]);

const mmddyyyy = (date: IsoDate) => `${date.slice(5, 7)}%2F${date.slice(8, 10)}%2F${date.slice(0, 4)}`;

/** `2,602.0,545` → `2602.0545`: commas are grouping marks wherever they stand. */
export function botaFigure(raw: string): string | undefined {
  const text = raw.trim();
  if (!/^[\d,]+(\.[\d,]+)?$/.test(text) || /^,|,$|,,|,\.|\.,/.test(text)) return undefined;
  return readDecimal(text.replace(/,/g, ""));
}

/** `19-May-26` to 2026-05-19; undefined when it is no real date. */
function dateOf(raw: string): IsoDate | undefined {
  const m = /^(\d{1,2})-([A-Za-z]{3,4})-(\d{2})$/.exec(raw.trim());
  const month = m ? monthNumber(m[2]!) : undefined;
  return m && month ? isoFromParts(`20${m[3]}`, month, m[1]!) : undefined;
}

const bota = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank of Tanzania", abbreviatedName: "BOT" },
      { languageCode: "sw", name: "Benki Kuu ya Tanzania", abbreviatedName: "BOT" },
    ],
    // Polled from 08:00 UTC (11:00 in Dar es Salaam); the bank states no time of its own (not verified).
    dailyUpdateTime: "11:00:00",
    bankCurrency: "TZS",
    countryCode: ["TZ"],
    region: ["Africa"],
    timeZone: TIME_ZONE,
    website: "https://www.bot.go.tz",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5, 6, 7],
    coverageStart: "1999-07-01",
    maxRangeDays: 30,
    sourceUrl: ENDPOINT,
  },

  // One session: the page (token and cookie), then the POST of the range.
  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(TIME_ZONE, 7) : range;
    const session = http.session();
    const landing = await session.get(ENDPOINT, { accept: "text/html" });
    const token = cheerio.load(decodeText(ID, landing.body))(`input[name="${TOKEN}"]`).attr("value");
    if (!token) throw new FeedError(ID, "no anti-forgery token on the previous_rates page");
    const form = `${TOKEN}=${encodeURIComponent(token)}&dateFrom=${mmddyyyy(from)}&dateTo=${mmddyyyy(to)}`;
    const answer = await session.post(ENDPOINT, form, { accept: "text/html", headers: { Referer: ENDPOINT } });
    return [{ ...landing, role: "navigation" }, answer];
  },

  parse(body) {
    const text = decodeText(ID, body);
    if (text.trim() === "") throw new FeedError(ID, "empty body where the previous_rates page was expected");
    const $ = cheerio.load(text);
    const table = $("table#myTable");
    if (table.length !== 1)
      throw new FeedError(ID, "not the Bank of Tanzania previous_rates page: no table#myTable (an error or WAF page?)");
    if (!/<\/table>/.test(text)) throw new FeedError(ID, "truncated page: the rates table is not closed");
    const labels = table
      .find("thead th")
      .toArray()
      .map((th) => $(th).text().trim());
    const col = (label: string) => {
      const i = labels.indexOf(label);
      if (i < 0) throw new FeedError(ID, `no "${label}" column (columns: ${labels.join(", ")})`);
      return i;
    };
    const [currencyCol, meanCol, dateCol] = [col("Currency"), col("Mean"), col("Date")];
    const rows = new AnswerRows(ID);
    if (
      table
        .find("tbody tr")
        .toArray()
        .every((tr) => $(tr).children("td").length <= 1)
    )
      return noPublication("the rates table is empty (the page before a search, or days without rates)");
    table
      .find("tbody tr")
      .toArray()
      .forEach((row, i) => {
        const cells = $(row)
          .children("td")
          .toArray()
          .map((td) => $(td).text().trim());
        const source = `row ${i + 1}`;
        if (cells.length <= 1) return; // an empty-table notice, not a rate
        const [code, mean, day] = [cells[currencyCol] ?? "", cells[meanCol] ?? "", cells[dateCol] ?? ""];
        if (LEFT_OUT.has(code.toUpperCase())) return;
        rows.read(
          source,
          () => {
            if (cells.length !== labels.length)
              rowProblem(ID, "bad-row", `a row of ${cells.length} cells under ${labels.length} columns`);
            const currency = resolveCurrency(ID, code, { date: dateOf(day) }); // SDR: the standard's abbreviation of XDR
            const date = requireDate(ID, dateOf(day), day);
            const rate = botaFigure(mean);
            if (!rate) rowProblem(ID, "bad-rate", `${currency} Mean on ${date}: "${mean}" is not a decimal number`);
            return /[1-9]/.test(rate) ? { effectiveDate: date, currency, rate } : undefined;
          },
          { effectiveDate: day, currency: code, rate: mean },
        );
      });
    return rows.result();
  },
});

export default bota;

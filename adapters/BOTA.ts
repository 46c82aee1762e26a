// Bank of Tanzania: the daily indicative rates of the shilling (TZS) for a date range, an HTML table
// answered to a form POST (dateFrom, dateTo as MM/DD/YYYY) that must carry the ASP.NET anti-forgery
// token of a GET of the same page, in the same session (cookie); without it the server answers 500.
// The official figure is the `Mean` column, TZS per 1 unit (Direct); columns found by their labels.
// Figures are written with commas in odd places (`2,602.0,545` for 2602.0545): every comma is a
// grouping mark and is removed, the digits and the one point kept. GOLD and withdrawn codes (ATS, NLG,
// MZM, ZWD, CUC, RUR) are left out; SDR is written XDR. Dates are `19-May-26`. Seven days a week.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  readDecimal,
  recentDays,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "BOTA";
const ENDPOINT = "https://www.bot.go.tz/ExchangeRate/previous_rates";
const TIME_ZONE = "Africa/Dar_es_Salaam";
const TOKEN = "__RequestVerificationToken";
const LEFT_OUT = new Set(["GOLD", "ATS", "NLG", "MZM", "ZWD", "CUC", "RUR"]);
const RENAMED: Readonly<Record<string, string>> = { SDR: "XDR" };
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

const mmddyyyy = (date: IsoDate) => `${date.slice(5, 7)}%2F${date.slice(8, 10)}%2F${date.slice(0, 4)}`;

/** `2,602.0,545` → `2602.0545`: commas are grouping marks wherever they stand. */
export function botaFigure(raw: string): string | undefined {
  const text = raw.trim();
  if (!/^[\d,]+(\.[\d,]+)?$/.test(text) || /^,|,$|,,|,\.|\.,/.test(text)) return undefined;
  return readDecimal(text.replace(/,/g, ""));
}

function dateOf(raw: string): IsoDate {
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(raw.trim());
  const month = m ? MONTHS.indexOf(m[2]!.toUpperCase()) + 1 : 0;
  const date = m && month > 0 ? isoFromParts(`20${m[3]}`, month, m[1]!) : undefined;
  if (!date) throw new FeedError(ID, `date "${raw.trim()}" is not DD-Mon-YY`);
  return date;
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
    return [landing, await session.post(ENDPOINT, form, { accept: "text/html", headers: { Referer: ENDPOINT } })];
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
    const records: RateRecord[] = [];
    for (const row of table.find("tbody tr").toArray()) {
      const cells = $(row)
        .children("td")
        .toArray()
        .map((td) => $(td).text().trim());
      if (cells.length !== labels.length)
        throw new FeedError(ID, `a row of ${cells.length} cells under ${labels.length} columns`);
      const code = cells[currencyCol]!.toUpperCase();
      if (LEFT_OUT.has(code)) continue;
      if (!/^[A-Z]{3}$/.test(code)) throw new FeedError(ID, `currency "${code}" is not a three-letter code`);
      const currency = RENAMED[code] ?? code;
      const date = dateOf(cells[dateCol]!);
      const rate = botaFigure(cells[meanCol]!);
      if (!rate) throw new FeedError(ID, `${currency} Mean on ${date}: "${cells[meanCol]}" is not a decimal number`);
      if (!/[1-9]/.test(rate)) continue;
      records.push({ effectiveDate: date, currency, rate });
    }
    return records;
  },
});

export default bota;

// Central Bank of Egypt: the official exchange rates, downloaded as a workbook from the historical-data
// form of the bank's site.
// - The form page https://www.cbe.org.eg/en/economic-research/statistics/cbe-exchange-rates/historical-data
//   carries an anti-forgery token (with its cookie), hidden fields and the list of currency names. It is
//   fetched only to build the POST (navigation: never parsed).
// - POST https://www.cbe.org.eg/api/statistics/GetHistoricalData with the token, DataSourceId, FallbackUrl,
//   LanguageName, FromDateRaw/ToDateRaw as DD/MM/YYYY, every SelectedSelectOptions currency name and
//   SubmitAction=2 (Excel) answers an XLSX served as application/octet-stream: sheet "Official Exchange
//   Rates", a blank first row, then `Date | Currency | Buy | Sell` and one row per date and currency, newest
//   first, the dates real date cells, the figures numbers with four decimals.
// - Quotes: EGP per unit (Direct). The official figure is the exact mean of Buy and Sell (flagged "mean").
//   Currencies are named in English ("US Dollar", "Pound Sterling"); a trailing count is the units the row
//   is quoted for ("Japanese Yen 100": per 100 yen, kept as unitMultiplier 2).
// - Published Sunday to Thursday between about 10:00 and 12:30 UTC; polled from 13:00 Cairo time.
// - The bank's F5 firewall answers a request without browser-like headers with a 200 "Request Rejected"
//   HTML page: the fetch sends such headers, and an HTML page where the workbook should be is refused.
// Each data row is one row: a date that is no date, an unknown currency name, an unknown unit count or a
// Buy/Sell that is not a number holds it; rows without Buy and Sell are days without figures (skipped).
// Every sheet, and every `Date | Currency | Buy | Sell` table in a sheet, is read; a workbook without
// such a header is not this bank's and is refused whole.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  currencyOf,
  decodeText,
  defineAdapter,
  mean,
  perUnits,
  recentDays,
  requireDate,
  requireUnits,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type RateRecord,
} from "../src/feed/kit.js";
import { cellDate, cellDecimal, cellText, readXlsx, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "CBE";
const SITE = "https://www.cbe.org.eg";
const PAGE = `${SITE}/en/economic-research/statistics/cbe-exchange-rates/historical-data`;
const API = `${SITE}/api/statistics/GetHistoricalData`;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/**
 * A currency label of the workbook (also the form's option): its currency (and how it was resolved, by
 * the kit's resolver: the bank's "Pound Sterling", "UAE Dirham" are ISO 4217's names, its "Omani Riyal"
 * a misspelling of ICU's), and the units its figure is for when the label ends in a count ("Japanese
 * Yen 100"). An unknown name or count holds the row.
 */
export function cbeCurrency(label: string, date?: string): CurrencyResolution & { units: string } {
  const m = /^(.*\D)\s+(\d+)$/.exec(label.trim());
  const units = m ? requireUnits(ID, m[2], `units of "${label}"`) : "1";
  return { ...resolveCurrencyName(ID, m ? m[1]! : label, { date }), units };
}

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The POST body for a range, from the historical-data page's form (field order as the browser sends it). */
export function historicalForm(html: string, from: string, to: string): string {
  const $ = cheerio.load(html);
  const form = $("form#historicalDataForm");
  if (form.length === 0) throw new FeedError(ID, "no historicalDataForm on the historical-data page (a WAF page?)");
  const value = (name: string) => {
    const v = form.find(`input[name="${name}"]`).attr("value");
    if (v === undefined) throw new FeedError(ID, `the historical-data form has no ${name}`);
    return v;
  };
  const body = new URLSearchParams();
  body.append("__RequestVerificationToken", value("__RequestVerificationToken"));
  body.append("DataSourceId", value("DataSourceId"));
  body.append("FallbackUrl", value("FallbackUrl"));
  body.append("LanguageName", value("LanguageName"));
  body.append("FromDateRaw", ddmmyyyy(from));
  body.append("ToDateRaw", ddmmyyyy(to));
  const options = form
    .find('select[name="SelectedSelectOptions"] option')
    .map((_i, o) => $(o).attr("value") ?? "")
    .get()
    .filter((v) => v !== "");
  if (options.length === 0) throw new FeedError(ID, "the historical-data form lists no currencies");
  for (const o of options) body.append("SelectedSelectOptions", o);
  body.append("SubmitAction", "2");
  return body.toString();
}

/** The columns of a `Date | Currency | Buy | Sell` header row, or undefined for any other row. */
function headerOf(ws: Worksheet, r: number): Record<"date" | "currency" | "buy" | "sell", number> | undefined {
  const labels: Record<string, number> = {};
  for (const cell of ws.getRow(r).cells()) labels[cellText(cell).toLowerCase()] ??= cell.col;
  if (!labels.date || !labels.currency) return undefined;
  if (!labels.buy || !labels.sell)
    throw new FeedError(ID, `sheet "${ws.name}" row ${r}: the "Buy" or "Sell" column label is missing`);
  return { date: labels.date, currency: labels.currency, buy: labels.buy, sell: labels.sell };
}

/** Reads every table of a sheet into `rows`; true when the sheet has at least one. */
function readSheet(ws: Worksheet, rows: AnswerRows): boolean {
  let cols: ReturnType<typeof headerOf>;
  let found = false;
  for (const { number: r } of ws.rows()) {
    const header = headerOf(ws, r);
    if (header) {
      cols = header;
      found = true;
      continue;
    }
    if (!cols) continue;
    const row = ws.getRow(r);
    const name = cellText(row.getCell(cols.currency));
    const dateCell = row.getCell(cols.date);
    const buyCell = row.getCell(cols.buy);
    const sellCell = row.getCell(cols.sell);
    if (cellText(buyCell) === "" && cellText(sellCell) === "") continue; // a blank row, or a day without figures
    rows.read(
      `sheet "${ws.name}" row ${r}`,
      (): RateRecord => {
        const date = requireDate(ID, cellDate(dateCell), cellText(dateCell));
        const named = cbeCurrency(name, date);
        const [currency, units] = [currencyOf(named), named.units];
        const buy = cellDecimal(buyCell);
        const sell = cellDecimal(sellCell);
        if (buy === undefined || sell === undefined)
          rowProblem(ID, "bad-rate", `Buy "${cellText(buyCell)}" or Sell "${cellText(sellCell)}" is not a decimal`);
        return { effectiveDate: date, currency, ...perUnits(mean(buy, sell), units), derivation: "mean" };
      },
      { effectiveDate: cellText(dateCell), currency: name, rate: `${cellText(buyCell)} / ${cellText(sellCell)}` },
    );
  }
  return found;
}

const cbe = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Egypt", abbreviatedName: "CBE" },
      { languageCode: "ar", name: "البنك المركزي المصري", abbreviatedName: "البنك المركزي المصري" },
    ],
    // Published within 10:00-12:30 UTC, Sunday to Thursday: polled from 13:00 in Cairo (UTC+3 in summer, +2 in winter).
    dailyUpdateTime: "13:00:00",
    bankCurrency: "EGP",
    countryCode: ["EG"],
    region: ["Africa"],
    timeZone: "Africa/Cairo",
    website: "https://www.cbe.org.eg",
    quoteType: "Direct",
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2003-01-01",
    maxRangeDays: 30,
    sourceUrl: PAGE,
  },

  // The form page: fetched only to build the POST.
  navigation: /\/cbe-exchange-rates\/historical-data(?:[?#]|$)/,

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(cbe.bank.timeZone, 10) : range;
    const session = http.session();
    const headers = { "User-Agent": BROWSER, "Accept-Language": "en-US,en;q=0.9" };
    const page = await session.get(PAGE, {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      headers,
    });
    const workbook = await session.post(API, historicalForm(decodeText(ID, page.body), from, to), {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", Referer: PAGE, Origin: SITE },
    });
    return [{ ...page, role: "navigation" }, workbook];
  },

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let found = false;
    for (const ws of wb.worksheets) if (readSheet(ws, rows)) found = true;
    if (!found)
      throw new FeedError(ID, 'no "Date | Currency | Buy | Sell" header: not the CBE historical data workbook');
    return rows.result();
  },
});

export default cbe;

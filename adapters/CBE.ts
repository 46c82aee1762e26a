// Central Bank of Egypt: official exchange rates from the historical-data page. The page carries an
// anti-forgery token (and its cookie) and the form's hidden fields; a POST of that form to
// /api/statistics/GetHistoricalData (dates DD/MM/YYYY, every currency name, SubmitAction=2 for
// Excel) answers an XLSX served as application/octet-stream: sheet "Official Exchange Rates" with
// Date | Currency | Buy | Sell rows. The official figure is the exact mean of buy and sell, EGP per
// 1 unit (Direct); `Japanese Yen 100` is per 100 yen, kept as unitMultiplier 2. The bank's F5 WAF
// answers a request without browser-like headers with a 200 "Request Rejected" page: the fetch sends
// them, and the parser refuses any HTML where the workbook should be.
import * as cheerio from "cheerio";
import type { Worksheet } from "exceljs";

import {
  FeedError,
  decodeText,
  defineAdapter,
  mean,
  perUnits,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { cellDate, cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

const ID = "CBE";
const SITE = "https://www.cbe.org.eg";
const PAGE = `${SITE}/en/economic-research/statistics/cbe-exchange-rates/historical-data`;
const API = `${SITE}/api/statistics/GetHistoricalData`;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/** The form's currency names to ISO 4217 codes and units; an unknown name is an error. */
export const CBE_NAMES: Readonly<Record<string, { currency: string; units?: number }>> = {
  "US Dollar": { currency: "USD" },
  Euro: { currency: "EUR" },
  "Pound Sterling": { currency: "GBP" },
  "Canadian Dollar": { currency: "CAD" },
  "Danish Krone": { currency: "DKK" },
  "Norwegian Krone": { currency: "NOK" },
  "Swedish Krona": { currency: "SEK" },
  "Swiss Franc": { currency: "CHF" },
  "Japanese Yen 100": { currency: "JPY", units: 100 },
  "Saudi Riyal": { currency: "SAR" },
  "Kuwaiti Dinar": { currency: "KWD" },
  "UAE Dirham": { currency: "AED" },
  "Australian Dollar": { currency: "AUD" },
  "Bahraini Dinar": { currency: "BHD" },
  "Omani Riyal": { currency: "OMR" },
  "Qatari Riyal": { currency: "QAR" },
  "Jordanian Dinar": { currency: "JOD" },
  "Chinese Yuan": { currency: "CNY" },
};

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

function parseSheet(ws: Worksheet, records: RateRecord[]): boolean {
  let cols: Record<string, number> | undefined;
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    if (!cols) {
      const labels: Record<string, number> = {};
      for (let c = 1; c <= ws.columnCount; c++) labels[cellText(row.getCell(c)).toLowerCase()] = c;
      if (labels.date && labels.currency) {
        if (!labels.buy || !labels.sell)
          throw new FeedError(ID, `sheet "${ws.name}": the "Buy" or "Sell" column label is missing`);
        cols = labels;
      }
      continue;
    }
    const name = cellText(row.getCell(cols.currency!));
    const dateCell = row.getCell(cols.date!);
    if (name === "" && cellText(dateCell) === "") continue;
    const date = cellDate(dateCell);
    if (!date) throw new FeedError(ID, `sheet "${ws.name}" row ${r}: "${cellText(dateCell)}" is not a date`);
    const known = CBE_NAMES[name];
    if (!known) throw new FeedError(ID, `${date}: unknown currency name "${name}"`);
    const buy = cellDecimal(row.getCell(cols.buy!));
    const sell = cellDecimal(row.getCell(cols.sell!));
    if (buy === undefined || sell === undefined) {
      if (cellText(row.getCell(cols.buy!)) === "" && cellText(row.getCell(cols.sell!)) === "") continue;
      throw new FeedError(
        ID,
        `${date} ${known.currency}: buy "${cellText(row.getCell(cols.buy!))}" or sell "${cellText(row.getCell(cols.sell!))}" is not a decimal`,
      );
    }
    const unit = perUnits(mean(buy, sell), known.units ?? 1);
    records.push({ effectiveDate: date, currency: known.currency, ...unit, derivation: "mean" });
  }
  return cols !== undefined;
}

const cbe = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Egypt", abbreviatedName: "CBE" },
      { languageCode: "ar", name: "البنك المركزي المصري", abbreviatedName: "البنك المركزي المصري" },
    ],
    // BANKS.md: published within 10:00-12:30 UTC (Sunday to Thursday), i.e. from 13:00 in Cairo (UTC+3 in summer, +2 in winter).
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

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(cbe.bank.timeZone, 10) : range;
    const session = http.session();
    const headers = { "User-Agent": BROWSER, "Accept-Language": "en-US,en;q=0.9" };
    const page = await session.get(PAGE, {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      headers,
    });
    const docs: FeedDocument[] = [page];
    docs.push(
      await session.post(API, historicalForm(decodeText(ID, page.body), from, to), {
        accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", Referer: PAGE, Origin: SITE },
      }),
    );
    return docs;
  },

  async parse(body, { url }) {
    if (!url.startsWith(API)) {
      const html = decodeText(ID, body);
      if (html.trim() === "") throw new FeedError(ID, "empty body where the historical-data page was expected");
      historicalForm(html, "2000-01-01", "2000-01-01"); // throws unless the form and its token are there
      return [];
    }
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let found = false;
    for (const ws of wb.worksheets) if (parseSheet(ws, records)) found = true;
    if (!found)
      throw new FeedError(ID, 'no "Date | Currency | Buy | Sell" header: not the CBE historical data workbook');
    return records;
  },
});

export default cbe;

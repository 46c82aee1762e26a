// Monetary Authority of Singapore: daily exchange rates (noon values) from the MAS statistics
// database. The ExchangeRates.aspx page is an ASP.NET form: its view state, validation and cookies
// are carried into a POST of the Download button with start/end month and year, frequency D and
// every currency checkbox, which answers CSV: a few metadata lines, the header `End of Period,,,
// S$ Per Unit of Euro, ..., S$ Per 100 Units of Japanese Yen, ...`, then rows whose year and month
// are filled only on the first row of each group, then notes. SGD per 1 or per 100 units (Direct);
// the per-100 quotes are kept with unitMultiplier 2. Currency names map through the table below.
import * as cheerio from "cheerio";
import { parse as parseCsv } from "csv-parse/sync";

import {
  FeedError,
  decodeText,
  defineAdapter,
  expectFeedText,
  isoFromParts,
  perUnits,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "MAS";
const PAGE = "https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx";
const P = "ctl00$ContentPlaceHolder1$";

/** The CSV's currency names to ISO 4217 codes; an unknown name is an error. */
export const MAS_NAMES: Readonly<Record<string, string>> = {
  Euro: "EUR",
  "Pound Sterling": "GBP",
  "US Dollar": "USD",
  "Australian Dollar": "AUD",
  "Canadian Dollar": "CAD",
  "Chinese Renminbi": "CNY",
  "Hong Kong Dollar": "HKD",
  "Indian Rupee": "INR",
  "Indonesian Rupiah": "IDR",
  "Japanese Yen": "JPY",
  "Korean Won": "KRW",
  "Malaysian Ringgit": "MYR",
  "New Taiwan Dollar": "TWD",
  "New Zealand Dollar": "NZD",
  "Philippine Peso": "PHP",
  "Qatar Riyal": "QAR",
  "Saudi Arabia Riyal": "SAR",
  "Swiss Franc": "CHF",
  "Thai Baht": "THB",
  "UAE Dirham": "AED",
  "Vietnamese Dong": "VND",
};

/** The Download form for one span of months, from the page's hidden fields and checkboxes. */
export function downloadForm(html: string, from: string, to: string): string {
  const $ = cheerio.load(html);
  const form = new URLSearchParams();
  for (const name of ["__VIEWSTATE", "__VIEWSTATEGENERATOR", "__EVENTVALIDATION"]) {
    const value = $(`input[name="${name}"]`).attr("value");
    if (value === undefined) throw new FeedError(ID, `the ExchangeRates.aspx page has no ${name} (has it changed?)`);
    form.append(name, value);
  }
  form.append(`${P}StartYearDropDownList`, from.slice(0, 4));
  form.append(`${P}EndYearDropDownList`, to.slice(0, 4));
  form.append(`${P}StartMonthDropDownList`, String(Number(from.slice(5, 7))));
  form.append(`${P}EndMonthDropDownList`, String(Number(to.slice(5, 7))));
  form.append(`${P}FrequencyDropDownList`, "D");
  form.append(`${P}DownloadButton`, "Download");
  const boxes = $('input[type="checkbox"][name*="CheckBoxList"]')
    .map((_i, el) => $(el).attr("name") ?? "")
    .get()
    .filter((n) => n.startsWith(P));
  if (boxes.length === 0) throw new FeedError(ID, "no currency checkboxes on the ExchangeRates.aspx page");
  for (const box of boxes) form.append(box, "on");
  return form.toString();
}

const mas = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Monetary Authority of Singapore", abbreviatedName: "MAS" }],
    // BANKS.md: published within 10:00-12:30 UTC, i.e. from 18:00 in Singapore (UTC+8); the figures are noon values.
    dailyUpdateTime: "18:00:00",
    bankCurrency: "SGD",
    countryCode: ["SG"],
    region: ["Asia"],
    timeZone: "Asia/Singapore",
    website: "https://www.mas.gov.sg",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "1988-01-04",
    maxRangeDays: 366,
    sourceUrl: PAGE,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(mas.bank.timeZone, 10) : range;
    const docs: FeedDocument[] = [];
    // One download per calendar year, each with a fresh view state.
    for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
      const start = year === Number(from.slice(0, 4)) ? from : `${year}-01-01`;
      const end = year === Number(to.slice(0, 4)) ? to : `${year}-12-31`;
      const session = http.session();
      const page = await session.get(PAGE, { accept: "text/html" });
      docs.push(page);
      docs.push(
        await session.post(PAGE, downloadForm(decodeText(ID, page.body), start, end), {
          accept: "text/csv, */*",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Referer: PAGE,
            Origin: "https://eservices.mas.gov.sg",
          },
        }),
      );
    }
    return docs;
  },

  parse(body, { contentType }) {
    const text = decodeText(ID, body);
    if ((contentType && /html/i.test(contentType)) || /^\s*<(!doctype|html)/i.test(text)) {
      // The form page itself carries no rates; make sure it is that page.
      if (text.trim() === "") throw new FeedError(ID, "empty body where the ExchangeRates.aspx page was expected");
      if (!text.includes(`${P}DownloadButton`))
        throw new FeedError(ID, "an HTML page that is not the ExchangeRates.aspx form (an error page?)");
      return [];
    }
    expectFeedText(ID, text, "CSV");
    if (/No Results Found/i.test(text)) return [];
    let rows: string[][];
    try {
      rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
    } catch (error) {
      throw new FeedError(ID, `malformed CSV (${(error as Error).message})`);
    }
    const h = rows.findIndex((r) => r[0] === "End of Period");
    if (h < 0) throw new FeedError(ID, 'no "End of Period" header: not the MAS exchange rates CSV');
    const header = rows[h]!;
    const columns = new Map<number, { currency: string; units: string }>();
    header.forEach((label, c) => {
      if (c < 3 || label === "") return;
      const m = /^S\$ Per (Unit|100 Units) of (.+)$/.exec(label);
      const currency = m ? MAS_NAMES[m[2]!.trim()] : undefined;
      if (!m || !currency) throw new FeedError(ID, `unknown column "${label}"`);
      columns.set(c, { currency, units: m[1] === "Unit" ? "1" : "100" });
    });
    const records: RateRecord[] = [];
    let year = "";
    let month: number | undefined;
    for (const row of rows.slice(h + 1)) {
      if (row.length < header.length) {
        if (/^\*/.test(row[0] ?? "")) continue; // notes after the data
        throw new FeedError(ID, `truncated row: ${row.join(",")}`);
      }
      if (row[0]) year = row[0];
      if (row[1]) month = monthNumber(row[1]);
      const date = month ? isoFromParts(year, month, row[2] ?? "") : undefined;
      if (!date || !/^\d{1,2}$/.test(row[2] ?? ""))
        throw new FeedError(ID, `row "${row.slice(0, 3).join(",")}" has no valid year, month and day`);
      for (const [c, { currency, units }] of columns) {
        const raw = row[c] ?? "";
        if (raw === "" || raw === "-" || /^n\.?a\.?$/i.test(raw)) continue;
        const rate = readDecimal(raw, { thousands: "," });
        if (rate === undefined) throw new FeedError(ID, `${date} ${currency}: "${raw}" is not a decimal number`);
        if (/[1-9]/.test(rate)) records.push({ effectiveDate: date, currency, ...perUnits(rate, units) });
      }
    }
    return records;
  },
});

export default mas;

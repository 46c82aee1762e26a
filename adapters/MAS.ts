// Monetary Authority of Singapore: daily exchange rates (noon values) from the MAS statistics database.
// Endpoint: https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx, an ASP.NET form. `fetch`
// GETs the page for its view state, validation and cookies (a navigation answer, marked so in `fetch`,
// and told by what it holds in a saved copy: the form, no CSV), then POSTs the Download
// button with start/end month and year, frequency D and every currency checkbox, one call per year.
// Format: CSV with a few metadata lines, the header `End of Period,,,S$ Per Unit of Euro, ...,
// S$ Per 100 Units of Japanese Yen, ...`, then rows whose year and month are filled only on the first
// row of each group (`2026,Mar,02,...` then `,,03,...`), then notes starting with `*`. A window
// without data answers `No Results Found`.
// Quote: SGD per 1 or per 100 units (Direct); the per-100 quotes are kept with unitMultiplier 2.
// Published on Singapore business days by 18:00 local time (the figures are noon values); "-", "n.a."
// or an empty cell marks a currency without a figure that day.
// Currency names resolve through ICU's English names, then the few aliases below. A figure whose
// currency, unit, date or number cannot be read is held; a CSV without the "End of Period" header or
// with no "S$ Per ..." column (the layout changed), or cut inside its last row, is refused; so is the
// form page answering a POST (a download the site did not run). "No Results Found" is the bank saying
// that the window holds no publication.
import * as cheerio from "../src/feed/cheerio.js";

import { readCsv } from "../src/feed/csv.js";
import {
  AnswerRows,
  FeedError,
  RowProblem,
  currencyOf,
  decodeText,
  defineAdapter,
  isoFromParts,
  noPublication,
  perUnits,
  recentDays,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  rowProblem,
  type CurrencyResolution,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { monthNumber } from "../src/feed/month-names.js";

const ID = "MAS";
const PAGE = "https://eservices.mas.gov.sg/statistics/msb/ExchangeRates.aspx";
const P = "ctl00$ContentPlaceHolder1$";

/**
 * The CSV's currency names no rule resolves (keys folded), each with why. The kit's resolver reads the
 * others: ICU's names, ISO 4217's ("Pound Sterling", "UAE Dirham"), and by territory "Qatar Riyal" and
 * "Saudi Arabia Riyal".
 */
export const MAS_ALIASES: Readonly<Record<string, string>> = {
  // ICU says "Chinese Yuan", ISO "Yuan Renminbi"; "renminbi" alone is no unit either names.
  "chinese renminbi": "CNY",
  // "Korean" fits both Koreas; the Authority's is the South's won.
  "korean won": "KRW",
};

/** The form page as served to a GET (read only to build the download): the form, no CSV, no message. */
export function isFormPage(answer: { method?: string; body: Uint8Array }): boolean {
  if (answer.method === "POST") return false; // a POST answered by the form is a refused download
  const text = Buffer.from(answer.body).toString("utf8");
  return /^\s*</.test(text) && text.includes(`${P}DownloadButton`) && !/No Results Found/i.test(text);
}

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
    // Published within 10:00-12:30 UTC, i.e. from 18:00 in Singapore (UTC+8); the figures are noon values.
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

  // The page and the download share one URL: the page is told by what it holds.
  navigationAnswer: isFormPage,

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(mas.bank.timeZone, 10) : range;
    const docs: FeedDocument[] = [];
    // One download per calendar year, each with a fresh view state.
    for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
      const start = year === Number(from.slice(0, 4)) ? from : `${year}-01-01`;
      const end = year === Number(to.slice(0, 4)) ? to : `${year}-12-31`;
      const session = http.session();
      const page = await session.get(PAGE, { accept: "text/html" });
      docs.push({ ...page, role: "navigation" });
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
    if (text.trim() === "") throw new FeedError(ID, "empty body where the exchange rates CSV was expected");
    if (/No Results Found/i.test(text)) return noPublication("No Results Found: no rates in the months asked");
    if ((contentType && /html/i.test(contentType)) || /^\s*</.test(text)) {
      if (text.includes(`${P}DownloadButton`))
        throw new FeedError(
          ID,
          "the ExchangeRates.aspx form where the CSV was expected (a download the site did not run)",
        );
      throw new FeedError(ID, "an HTML page where the exchange rates CSV was expected (an error page?)");
    }
    const rows = readCsv(ID, text, { relaxColumnCount: true, what: "the MAS exchange rates CSV" });
    const h = rows.findIndex((r) => r[0] === "End of Period");
    if (h < 0) throw new FeedError(ID, 'no "End of Period" header: not the MAS exchange rates CSV');
    const header = rows[h]!;
    type Column = { label: string; named?: CurrencyResolution; units?: string; problem?: RowProblem };
    const columns = new Map<number, Column>();
    header.forEach((label, c) => {
      if (c < 3 || label === "") return;
      const m = /^S\$ Per (Unit|100 Units) of (.+)$/.exec(label);
      try {
        if (!m) rowProblem(ID, "unknown-unit", `column "${label}" is not "S$ Per Unit|100 Units of ..."`);
        const named = resolveCurrencyName(ID, m[2]!, { aliases: MAS_ALIASES });
        columns.set(c, { label, named, units: m[1] === "Unit" ? "1" : "100" });
      } catch (problem) {
        if (!(problem instanceof RowProblem)) throw problem;
        columns.set(c, { label, problem }); // every figure of the column is held with this reason
      }
    });
    if (![...columns.values()].some((col) => col.named))
      throw new FeedError(ID, `no "S$ Per ... of <currency>" column in "${header.join(",").slice(0, 80)}"`);
    const answer = new AnswerRows(ID);
    let year = "";
    let month = "";
    for (let r = h + 1; r < rows.length; r++) {
      const row = rows[r]!;
      if (/^\*/.test(row[0] ?? "")) continue; // notes after the data
      if (row.length < header.length) {
        if (r === rows.length - 1) throw new FeedError(ID, `truncated: the last row "${row.join(",")}" is cut short`);
        answer.hold(`row ${r + 1}`, "bad-row", `${row.length} fields for ${header.length} columns`, {
          effectiveDate: row.slice(0, 3).join(","),
        });
        continue;
      }
      if (row[0]) year = row[0];
      if (row[1]) month = row[1];
      const day = row[2] ?? "";
      const monthNo = monthNumber(month);
      const date =
        monthNo && /^\d{4}$/.test(year) && /^\d{1,2}$/.test(day) ? isoFromParts(year, monthNo, day) : undefined;
      for (const [c, col] of columns) {
        const raw = row[c] ?? "";
        if (raw === "" || raw === "-" || /^n\.?a\.?$/i.test(raw)) continue; // no figure that day
        answer.read(
          `row ${r + 1} "${col.label}"`,
          (): RateRecord => {
            const effectiveDate = requireDate(ID, date, `${year} ${month} ${day}`);
            if (col.problem !== undefined) throw col.problem;
            const currency = currencyOf(col.named!);
            const rate = requireDecimal(ID, raw, `${effectiveDate} ${currency}`, { thousands: "," });
            if (!/[1-9]/.test(rate)) rowProblem(ID, "bad-rate", `${effectiveDate} ${currency}: a zero is no rate`);
            return { effectiveDate, currency, ...perUnits(rate, col.units!) };
          },
          { effectiveDate: `${year} ${month} ${day}`, currency: col.label, rate: raw },
        );
      }
    }
    return answer.result();
  },
});

export default mas;

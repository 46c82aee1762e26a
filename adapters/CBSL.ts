// Central Bank of Sri Lanka: the daily indicative exchange rates, from the bank's exchange-rate lookup.
// - The lookup page https://www.cbsl.gov.lk/cbsl_custom/exrates/exrates.php (navigation: fetched only for
//   the form) lists one checkbox per currency (`chk_cur[]` = `AUD~Australian Dollar`).
// - POST .../exrates_results.php with lookupPage=lookup_daily_exchange_rates.php, rangeType=dates,
//   txtStart/txtEnd (YYYY-MM-DD), every checkbox repeated and submit_button=Submit answers an HTML page with
//   one `table.rates` per currency under an `<h2>` naming it: `Date | 1 AUD -> LKR | 1 LKR -> AUD`, one row
//   per day (`2025-05-16 | 191.2256 | 0.0052`). A range without rates has the CSV button and no table.
// - Quotes: the `1 XXX -> LKR` column, LKR per 1 unit (Direct); the reverse column is not used. Gold
//   (`1 XAU -> LKR`) is already per troy ounce. `-` marks a day without a figure. The lookup offers CNH
//   (the offshore yuan): passed on as it stands, the ingest gate holds it (no ISO 4217 code).
// - Published on working days between 04:00 and 06:30 UTC (09:30 to 12:00 in Colombo, UTC+5:30); polled
//   from 09:30.
// Every table is read, each row on its own: a date that is not YYYY-MM-DD or a figure that is not a
// number holds it. A table without the `Date` and `1 XXX -> LKR` headers, a page cut short (no closing
// </html>) or a page with neither tables nor the CSV button is refused whole.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  recentDays,
  requireDate,
  requireDecimal,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBSL";
const BASE = "https://www.cbsl.gov.lk/cbsl_custom/exrates";
const LOOKUP = `${BASE}/exrates.php`;
const RESULTS = `${BASE}/exrates_results.php`;

/** The `chk_cur[]` values of the lookup page (`AUD~Australian Dollar`). */
export function currencyBoxes(html: string): string[] {
  const $ = cheerio.load(html);
  return $('input[name="chk_cur[]"]')
    .map((_i, el) => $(el).attr("value") ?? "")
    .get()
    .filter((v) => v !== "");
}

export function resultsForm(boxes: string[], from: string, to: string): string {
  const form = new URLSearchParams();
  form.append("lookupPage", "lookup_daily_exchange_rates.php");
  form.append("rangeType", "dates");
  form.append("txtStart", from);
  form.append("txtEnd", to);
  for (const box of boxes) form.append("chk_cur[]", box);
  form.append("submit_button", "Submit");
  return form.toString();
}

const cbsl = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Sri Lanka", abbreviatedName: "CBSL" },
      { languageCode: "si", name: "ශ්‍රී ලංකා මහ බැංකුව", abbreviatedName: "CBSL" },
      { languageCode: "ta", name: "இலங்கை மத்திய வங்கி", abbreviatedName: "CBSL" },
    ],
    // Published within 04:00-06:30 UTC: from 09:30 in Colombo (UTC+5:30).
    dailyUpdateTime: "09:30:00",
    bankCurrency: "LKR",
    countryCode: ["LK"],
    region: ["Asia"],
    timeZone: "Asia/Colombo",
    website: "https://www.cbsl.gov.lk",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    // The lookup form's own lower bound (hidden input startRange).
    coverageStart: "2006-11-11",
    maxRangeDays: 365,
    sourceUrl: LOOKUP,
  },

  // The lookup page: fetched only for the form's checkboxes.
  navigation: /\/cbsl_custom\/exrates\/exrates\.php(?:[?#]|$)/,

  async fetch(range, { http }) {
    const session = http.session();
    const lookup = await session.get(LOOKUP, { accept: "text/html" });
    const boxes = currencyBoxes(decodeText(ID, lookup.body));
    if (boxes.length === 0) throw new FeedError(ID, "no currency checkboxes (chk_cur[]) on the lookup page");
    const { from, to } = range.kind === "latest" ? recentDays(cbsl.bank.timeZone, 7) : range;
    const results = await session.post(RESULTS, resultsForm(boxes, from, to), {
      accept: "text/html",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: LOOKUP },
    });
    return [{ ...lookup, role: "navigation" }, results];
  },

  parse(body) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where the exchange-rate results page was expected");
    if (!/<\/html>\s*$/i.test(html)) throw new FeedError(ID, "truncated results page (no closing </html>)");
    const $ = cheerio.load(html);
    const tables = $("table.rates");
    if (tables.length === 0 && $('button[name="btnCSV"]').length === 0)
      throw new FeedError(ID, "not a CBSL results page (an error page?)");
    const rows = new AnswerRows(ID);
    tables.each((t, table) => {
      const heads = $(table)
        .find("thead th")
        .map((_i, th) => $(th).text().replace(/\s+/g, " ").trim())
        .get();
      const col = heads.findIndex((h) => /^1 [A-Z]{3} -> LKR$/.test(h));
      if (heads[0] !== "Date" || col < 0)
        throw new FeedError(ID, `a table without the "Date" and "1 XXX -> LKR" headers: ${heads.join(" | ")}`);
      const currency = heads[col]!.split(" ")[1]!;
      if (currency === "LKR") return;
      $(table)
        .find("tbody tr")
        .each((r, tr) => {
          const cells = $(tr)
            .find("td")
            .map((_i, td) => $(td).text().trim())
            .get();
          const date = cells[0] ?? "";
          const raw = cells[col] ?? "";
          if (raw === "" || /^(-+|n\/?a)$/i.test(raw)) return; // no figure that day
          rows.read(
            `table ${t + 1} (${currency}) row ${r + 1}`,
            (): RateRecord | undefined => {
              const effectiveDate = requireDate(ID, isIsoDate(date) ? date : undefined, date);
              const rate = requireDecimal(ID, raw, `1 ${currency} -> LKR`, { thousands: "," });
              return /[1-9]/.test(rate) ? { effectiveDate, currency, rate } : undefined;
            },
            { effectiveDate: date, currency, rate: raw },
          );
        });
    });
    return rows.result();
  },
});

export default cbsl;

// Central Bank of Sri Lanka: daily indicative rates from the bank's exchange-rate lookup. The
// lookup page lists one checkbox per currency (`chk_cur[]` = `AUD~Australian Dollar`); the results
// page, asked by a form POST with every checkbox repeated and a date range, holds one table per
// currency whose header reads `1 AUD -> LKR` (and `1 LKR -> AUD` for the reverse column, ignored).
// LKR per 1 unit (Direct); gold (`1 XAU -> LKR`) is already per troy ounce.
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isIsoDate,
  readDecimal,
  recentDays,
  type FeedDocument,
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
    // BANKS.md: published within 04:00-06:30 UTC, i.e. from 09:30 in Colombo (UTC+5:30).
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

  async fetch(range, { http }) {
    const session = http.session();
    const lookup = await session.get(LOOKUP, { accept: "text/html" });
    const boxes = currencyBoxes(decodeText(ID, lookup.body));
    if (boxes.length === 0) throw new FeedError(ID, "no currency checkboxes (chk_cur[]) on the lookup page");
    const { from, to } = range.kind === "latest" ? recentDays(cbsl.bank.timeZone, 7) : range;
    const docs: FeedDocument[] = [lookup];
    docs.push(
      await session.post(RESULTS, resultsForm(boxes, from, to), {
        accept: "text/html",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: LOOKUP },
      }),
    );
    return docs;
  },

  parse(body, { url }) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where an exchange-rate page was expected");
    const $ = cheerio.load(html);
    if (!url.includes("exrates_results")) {
      if (currencyBoxes(html).length === 0) throw new FeedError(ID, "not the CBSL lookup page: no currency checkboxes");
      return [];
    }
    if (!/<\/html>\s*$/i.test(html)) throw new FeedError(ID, "truncated results page (no closing </html>)");
    const tables = $("table.rates");
    if (tables.length === 0 && $('button[name="btnCSV"]').length === 0)
      throw new FeedError(ID, "not a CBSL results page (an error page?)");
    const records: RateRecord[] = [];
    tables.each((_t, table) => {
      const heads = $(table)
        .find("thead th")
        .map((_i, th) => $(th).text().replace(/\s+/g, " ").trim())
        .get();
      const col = heads.findIndex((h) => /^1 [A-Z]{3} -> LKR$/.test(h));
      if (heads[0] !== "Date" || col < 0)
        throw new FeedError(ID, `a table without the "Date" and "1 XXX -> LKR" headers: ${heads.join(" | ")}`);
      const currency = heads[col]!.split(" ")[1]!;
      $(table)
        .find("tbody tr")
        .each((_r, tr) => {
          const cells = $(tr)
            .find("td")
            .map((_i, td) => $(td).text().trim())
            .get();
          const date = cells[0] ?? "";
          if (!isIsoDate(date)) throw new FeedError(ID, `${currency}: date "${date}" is not YYYY-MM-DD`);
          const raw = cells[col] ?? "";
          if (raw === "" || /^(-+|n\/?a)$/i.test(raw)) return;
          const rate = readDecimal(raw, { thousands: "," });
          if (rate === undefined) throw new FeedError(ID, `${date} ${currency}: "${raw}" is not a decimal number`);
          if (/[1-9]/.test(rate) && currency !== "LKR") records.push({ effectiveDate: date, currency, rate });
        });
    });
    return records;
  },
});

export default cbsl;

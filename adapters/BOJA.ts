// Bank of Jamaica: the counter rates table (wpDataTables table 134 of
// https://boj.org.jm/market/foreign-exchange/counter-rates/), asked for whole through WordPress's
// admin-ajax (POST admin-ajax.php?action=get_wdtable&table_id=134, form draw=1&start=0&length=-1 and
// the wdtNonce scraped from the page, in the same session). The page is read only for the nonce and
// to check the table's column headers (navigation, never parsed).
// - Answer: JSON served as text/html, {data: rows of [date `02 Mar 2026`, currency name, buying
//   "DMD & TT", buying "Notes", buying "Coins", selling "DMD, TT & Cash"]}; the page's table definition
//   names the third and sixth columns `buying` and `selling`.
// - The official figure is the mid of that buying and selling rate, JMD per 1 unit (Direct), the exact
//   mean flagged "mean"; when the buying rate is 0 the selling rate is taken as published; a row without
//   a selling rate has nothing official that day.
// - Currency names: read by the kit's resolver (ICU's English names, "AUSTRALIAN DOLLAR", "EURO"; then
//   its rules: "CAYMAN DOLLAR", "DOMINICAN REP. PESO" by territory), the one alias below aside. The Northern Ireland pound is left out on purpose (see LEFT_OUT).
// - Published on business days, checked from 13:00 Kingston time (18:00-20:30 UTC).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  currencyOf,
  decodeText,
  defineAdapter,
  foldName,
  jsonNumberText,
  mean,
  parseJsonExact,
  requireDate,
  requireDecimal,
  resolveCurrencyName,
  type CurrencyResolution,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BOJA";
const PAGE = "https://boj.org.jm/market/foreign-exchange/counter-rates/";
const AJAX = "https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134";
const TABLE_ID = "134";

/** The table's currency names no rule resolves (keys folded), each with why. */
export const BOJA_ALIASES: Readonly<Record<string, string>> = {
  // "E.C." is East Caribbean, a region and no territory (as a code, EC is Ecuador).
  "e c dollar": "XCD",
};

/** The currency of a name of the table on a date, and how it was resolved; or a RowProblem (`unknown-currency`). */
export function bojaCurrency(name: string, date?: string): CurrencyResolution {
  return resolveCurrencyName(ID, name, { aliases: BOJA_ALIASES, date });
}

/**
 * Rows deliberately not taken. Sterling notes of the Northern Irish banks are quoted apart (229.41
 * against 209.13 for GBP on 2 March 2026): they are GBP, but one date cannot carry two GBP figures, and
 * the GREAT BRITAIN POUND row is the sterling rate.
 */
export const LEFT_OUT: ReadonlySet<string> = new Set(["northern ireland pound"]);

/** The column headers the counter-rates page shows for table 134, in order (checked by the test). */
export function tableHeaders(html: string): string[] {
  const $ = cheerio.load(html);
  return $(`table[data-wpdatatable_id="${TABLE_ID}"] thead th`)
    .map((_i, th) => $(th).text().trim())
    .get();
}

function nonceOf(html: string): string {
  const $ = cheerio.load(html);
  const nonce = $(`input#wdtNonceFrontendServerSide_${TABLE_ID}`).attr("value") ?? "";
  if (!/^[0-9a-f]{6,}$/i.test(nonce))
    throw new FeedError(ID, `no wdtNonce for table ${TABLE_ID} on the counter-rates page (has it changed?)`);
  return nonce;
}

const EXPECTED_HEADERS = ["Date", "Currency", "DMD & TT", "Notes", "Coins", "DMD, TT & Cash"];

const boja = defineAdapter({
  bank: {
    id: ID,
    names: [{ languageCode: "en", name: "Bank of Jamaica", abbreviatedName: "BOJ" }],
    // Published within 18:00-20:30 UTC, i.e. from 13:00 in Kingston (UTC-5).
    dailyUpdateTime: "13:00:00",
    bankCurrency: "JMD",
    countryCode: ["JM"],
    region: ["Americas"],
    timeZone: "America/Jamaica",
    website: "https://boj.org.jm",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2000-01-04",
    maxRangeDays: 36500,
    sourceUrl: PAGE,
  },

  navigation: /^https:\/\/boj\.org\.jm\/market\/foreign-exchange\/counter-rates\/?$/,

  async fetch(_range, { http }) {
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const html = decodeText(ID, page.body);
    const nonce = nonceOf(html);
    // The columns are read by position: headers other than these mean the table changed.
    const headers = tableHeaders(html);
    if (headers.join("|") !== EXPECTED_HEADERS.join("|"))
      throw new FeedError(ID, `table ${TABLE_ID} headers changed: ${headers.join(" | ")}`);
    const table = await session.post(AJAX, `draw=1&start=0&length=-1&wdtNonce=${encodeURIComponent(nonce)}`, {
      accept: "application/json, text/javascript, */*; q=0.01",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
        "X-Requested-With": "XMLHttpRequest",
        Referer: PAGE,
      },
    });
    return [{ ...page, role: "navigation" }, table];
  },

  parse(body) {
    const json = parseJsonExact(ID, body) as { data?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.data))
      throw new FeedError(ID, "not a wpDataTables answer: no data array");
    const rows = new AnswerRows(ID);
    (json.data as unknown[]).forEach((raw, i) => {
      const source = `data[${i}]`;
      if (!Array.isArray(raw) || raw.length !== 6)
        return rows.hold(source, "bad-row", `not a six-column counter-rates row: ${JSON.stringify(raw).slice(0, 80)}`);
      const [d, n, buyRaw, , , sellRaw] = (raw as unknown[]).map((v) => jsonNumberText(v)?.trim() ?? "");
      const name = n!.replace(/\s+/g, " ");
      if (LEFT_OUT.has(foldName(name))) return;
      rows.read(
        source,
        () => {
          const date = requireDate(ID, fromDayMonthName(d!), d!);
          const currency = currencyOf(bojaCurrency(name, date));
          const read = (t: string, what: string) =>
            t === "" ? "0" : requireDecimal(ID, t, `${currency} ${what}`, { thousands: "," });
          const buy = read(buyRaw!, "buying");
          const sell = read(sellRaw!, "selling");
          if (!/[1-9]/.test(sell)) return undefined; // no selling rate: nothing official that day
          if (!/[1-9]/.test(buy)) return { effectiveDate: date, currency, rate: sell };
          return { effectiveDate: date, currency, rate: mean(buy, sell), derivation: "mean" as const };
        },
        { effectiveDate: d, currency: name, rate: `${buyRaw} / ${sellRaw}` },
      );
    });
    return rows.result();
  },
});

export default boja;

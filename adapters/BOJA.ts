// Bank of Jamaica: the counter rates table (wpDataTables table 134), asked for whole through
// WordPress's admin-ajax with the nonce scraped from the counter-rates page. The answer is JSON
// (served as text/html): rows of [date, currency name, buying "DMD & TT", buying "Notes", buying
// "Coins", selling "DMD, TT & Cash"]; the page's table definition names the third and sixth columns
// `buying` and `selling`. The official figure is the mid of that buying and selling rate, JMD per 1
// unit (Direct), exact mean flagged "mean"; when the buying rate is 0 the selling rate is taken as
// published. Currency names map through the table below (an unknown name is an error).
import * as cheerio from "cheerio";

import {
  FeedError,
  decodeText,
  defineAdapter,
  jsonNumberText,
  mean,
  parseJsonExact,
  readDecimal,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BOJA";
const PAGE = "https://boj.org.jm/market/foreign-exchange/counter-rates/";
const AJAX = "https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134";
const TABLE_ID = "134";

/** The table's currency names to ISO 4217 codes; null marks a row that is deliberately not taken. */
export const BOJA_NAMES: Readonly<Record<string, string | null>> = {
  "AUSTRALIAN DOLLAR": "AUD",
  "BAHAMAS DOLLAR": "BSD",
  "BARBADOS DOLLAR": "BBD",
  "BELIZE DOLLAR": "BZD",
  "CANADA DOLLAR": "CAD",
  "CAYMAN DOLLAR": "KYD",
  "DOMINICAN REP. PESO": "DOP",
  "E. C. DOLLAR": "XCD",
  EURO: "EUR",
  "GIBRALTAR POUND": "GIP",
  "GREAT BRITAIN POUND": "GBP",
  "GUYANA DOLLAR": "GYD",
  "HONG KONG DOLLAR": "HKD",
  "JAPANESE YEN": "JPY",
  // Sterling notes of the Northern Irish banks, quoted apart (229.41 against 209.13 for GBP on
  // 2 March 2026). They are GBP, but one date cannot carry two GBP figures: the GREAT BRITAIN
  // POUND row is the sterling rate, this one is skipped.
  "NORTHERN IRELAND POUND": null,
  "SWISS FRANC": "CHF",
  "U.S. DOLLAR": "USD",
};

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
    // BANKS.md: published within 18:00-20:30 UTC, i.e. from 13:00 in Kingston (UTC-5).
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

  async fetch(_range, { http }) {
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const nonce = nonceOf(decodeText(ID, page.body));
    const docs: FeedDocument[] = [page];
    docs.push(
      await session.post(AJAX, `draw=1&start=0&length=-1&wdtNonce=${encodeURIComponent(nonce)}`, {
        accept: "application/json, text/javascript, */*; q=0.01",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
          "X-Requested-With": "XMLHttpRequest",
          Referer: PAGE,
        },
      }),
    );
    return docs;
  },

  parse(body, { url }) {
    const text = decodeText(ID, body);
    if (!url.includes("admin-ajax.php")) {
      // The counter-rates page: no rates of its own here; check it is the page we know.
      if (text.trim() === "") throw new FeedError(ID, "empty body where the counter-rates page was expected");
      nonceOf(text);
      const headers = tableHeaders(text);
      if (headers.join("|") !== EXPECTED_HEADERS.join("|"))
        throw new FeedError(ID, `table ${TABLE_ID} headers changed: ${headers.join(" | ")}`);
      return [];
    }
    const json = parseJsonExact(ID, text) as { data?: unknown };
    if (typeof json !== "object" || json === null || !Array.isArray(json.data))
      throw new FeedError(ID, "not a wpDataTables answer: no data array");
    const records: RateRecord[] = [];
    for (const [i, raw] of (json.data as unknown[]).entries()) {
      if (!Array.isArray(raw) || raw.length !== 6)
        throw new FeedError(ID, `data[${i}] is not a six-column counter-rates row`);
      const [d, n, buyRaw, , , sellRaw] = raw as unknown[];
      const date = typeof d === "string" ? fromDayMonthName(d) : undefined;
      if (!date) throw new FeedError(ID, `data[${i}]: date "${String(d)}" is not like "02 Mar 2026"`);
      const name = typeof n === "string" ? n.trim().replace(/\s+/g, " ") : "";
      if (!(name in BOJA_NAMES)) throw new FeedError(ID, `data[${i}]: unknown currency name "${name}"`);
      const currency = BOJA_NAMES[name];
      if (!currency) continue;
      const read = (v: unknown, what: string) => {
        const t = jsonNumberText(v)?.trim() ?? "";
        if (t === "") return "0";
        const x = readDecimal(t, { thousands: "," });
        if (x === undefined) throw new FeedError(ID, `${date} ${currency} ${what}: "${t}" is not a decimal number`);
        return x;
      };
      const buy = read(buyRaw, "buying");
      const sell = read(sellRaw, "selling");
      if (!/[1-9]/.test(sell)) continue; // no selling rate: nothing official that day
      if (!/[1-9]/.test(buy)) records.push({ effectiveDate: date, currency, rate: sell });
      else records.push({ effectiveDate: date, currency, rate: mean(buy, sell), derivation: "mean" });
    }
    return records;
  },
});

export default boja;

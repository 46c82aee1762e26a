// Central Bank of Oman: the daily buying and selling rates of the Omani rial, searched one currency at a
// time on a SharePoint page (https://cbo.gov.om/Pages/DFESearch.aspx).
// - Fetch, in one session: a GET of the page gives the ASP.NET view state, event validation, cookies, the
//   web part's control prefix (it carries a GUID: read off the page, never pinned) and the currency list
//   (`<prefix>ddCurrencyCodes`; its "All" option ignores the dates and gives only the latest rates, so it
//   is not used). Then, per currency, a POST of the page's hidden fields with `<prefix>ddCurrencyCodes`,
//   `<prefix>dateFrom` and `<prefix>dateTo` (DD/MM/YYYY) and `<prefix>btnExport`. The GET is navigation;
//   it shares its URL with the export, so it is marked in `fetch`, and a saved copy of it is told apart by
//   its content (the search form: no rates).
// - Answer: an HTML `<table>` (no page around it) served as `application/vnd.ms-excel` with the attachment
//   name ExchangeRates.xls. Columns, found by their headers: Currency Code, Exchange Date
//   (`01/06/2026 10:00:00 AM`), Currency Name (English, with `*` marks), Country Name (Arabic), Buying,
//   Selling. Figures carry a SharePoint type prefix (`string;#0.104541`), dropped.
// - Figures: OMR per 1 unit of the foreign currency (Direct), buying and selling only. The bank publishes
//   no middle rate; the figure published is the exact mean of Buying and Selling, flagged "mean" (halfway
//   between the two sides, docs/DECISIONS.md; the text itself when both are equal). A day can carry
//   several intraday rows when the bank revised its rates: the row with the latest time of the day is the
//   day's figure, the earlier ones are superseded and skipped. A row with only one of the two figures is held; one with neither is no figure.
// - Published Sunday to Thursday; the recorded rows are stamped 09:55-10:00 Muscat time, so the daemon
//   runs at 10:00 (an estimate from the data). History from 2017-10-15.
// - TLS: the server sends only its leaf certificate; give Node the issuing DigiCert intermediate through
//   NODE_EXTRA_CA_CERTS (README.md), or a live fetch fails verification.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  chunkRange,
  decodeText,
  defineAdapter,
  isoFromParts,
  looksLikeHtml,
  mean,
  noPublication,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";

const ID = "CBO";
const TIME_ZONE = "Asia/Muscat";
const PAGE = "https://cbo.gov.om/Pages/DFESearch.aspx";
const COLUMNS = ["Currency Code", "Exchange Date", "Buying", "Selling"] as const;

/** The search form: the hidden fields posted back, the web part's prefix, and the currency codes. */
export function searchForm(html: string): { fields: Array<[string, string]>; prefix: string; currencies: string[] } {
  const $ = cheerio.load(html);
  const select = $('select[name$="ddCurrencyCodes"]');
  if (select.length === 0)
    throw new FeedError(ID, "no currency list (ddCurrencyCodes) on DFESearch.aspx (has it changed?)");
  const prefix = (select.attr("name") ?? "").replace(/ddCurrencyCodes$/, "");
  // Every hidden field, as a browser posts them back (cheerio's map would flatten pairs: toArray first).
  const fields = $('input[type="hidden"][name]')
    .toArray()
    .map((el): [string, string] => [$(el).attr("name") ?? "", $(el).attr("value") ?? ""]);
  for (const needed of ["__VIEWSTATE", "__EVENTVALIDATION"])
    if (!fields.some(([name]) => name === needed)) throw new FeedError(ID, `DFESearch.aspx has no ${needed} field`);
  const currencies = select
    .find("option")
    .map((_i, o) => ($(o).attr("value") ?? "").trim())
    .get()
    .filter((v) => v !== "" && v.toLowerCase() !== "all");
  if (currencies.length === 0) throw new FeedError(ID, "the currency list of DFESearch.aspx is empty");
  return { fields, prefix, currencies };
}

const dmy = (iso: IsoDate) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The export of one currency for an inclusive range. */
export function exportBody(form: ReturnType<typeof searchForm>, currency: string, from: IsoDate, to: IsoDate): string {
  const body = new URLSearchParams(form.fields);
  body.append(`${form.prefix}ddCurrencyCodes`, currency);
  body.append(`${form.prefix}dateFrom`, dmy(from));
  body.append(`${form.prefix}dateTo`, dmy(to));
  body.append(`${form.prefix}btnExport`, "");
  return body.toString();
}

/** The search page itself (a saved copy, or an export the server answered with the page). */
const isSearchPage = ($: cheerio.CheerioAPI) =>
  $('select[name$="ddCurrencyCodes"]').length > 0 || $('input[name="__VIEWSTATE"]').length > 0;

/**
 * A saved copy of the search page (navigation, no rates), told by its content. A POST answered by the
 * page is a refused export (refused in `fetch`, and by `parse`), never navigation.
 */
export function isSearchAnswer(answer: { method?: string; body: Uint8Array }): boolean {
  if (answer.method === "POST") return false;
  return isSearchPage(cheerio.load(Buffer.from(answer.body).toString("utf8")));
}

/** `01/06/2026 10:00:00 AM`: the day, and the minute of the day (for the latest revision). */
function stamp(raw: string): { date: IsoDate; minute: number } {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M))?$/i.exec(raw.trim());
  const date = requireDate(ID, m ? isoFromParts(m[3]!, m[2]!, m[1]!) : undefined, raw);
  const hour = Number(m![4] ?? 0);
  if (m![4] !== undefined && (hour < 1 || hour > 12)) rowProblem(ID, "bad-date", `"${raw}" has no real time of day`);
  const pm = (m![7] ?? "").toUpperCase() === "PM";
  return { date, minute: ((hour % 12) + (pm ? 12 : 0)) * 60 + Number(m![5] ?? 0) + Number(m![6] ?? 0) / 60 };
}

/** A Buying or Selling cell without its SharePoint type prefix; "" for an empty cell. */
const figure = (cell: string) => cell.replace(/^[a-z]+;#/i, "").trim();

interface Candidate {
  record: RateRecord;
  minute: number;
}

/**
 * Reads the export table's rows; per day and currency, only the latest revision's records are kept.
 * Gives the number of rows under the header (0: the bank's table says it has nothing for the dates asked).
 */
function readExport($: cheerio.CheerioAPI, rows: AnswerRows): number {
  const trs = $("tr");
  const headerAt = trs.toArray().findIndex((tr) => $(tr).text().includes("Currency Code"));
  if (headerAt < 0) throw new FeedError(ID, "not the CBO export: no table with a Currency Code column");
  const heads = trs
    .eq(headerAt)
    .find("td, th")
    .map((_i, c) => $(c).text().replace(/\s+/g, " ").trim())
    .get();
  const at = Object.fromEntries(
    COLUMNS.map((name) => {
      const i = heads.indexOf(name);
      if (i < 0) throw new FeedError(ID, `the export has no "${name}" column (${heads.join(" | ")})`);
      return [name, i];
    }),
  ) as Record<(typeof COLUMNS)[number], number>;
  const latest = new Map<string, Candidate[]>();
  let read = 0;
  trs.slice(headerAt + 1).each((r, tr) => {
    const cells = $(tr)
      .find("td")
      .map((_j, td) => $(td).text().trim())
      .get();
    if (cells.length === 0) return;
    read++;
    const [code, when, buying, selling] = COLUMNS.map((name) => cells[at[name]] ?? "");
    const [buy, sell] = [figure(buying!), figure(selling!)];
    const source = `row ${headerAt + r + 2}`;
    rows.read(
      source,
      () => {
        if (buy === "" && sell === "") return undefined; // no figure that day
        const currency = requireCurrencyCode(ID, code!);
        const { date, minute } = stamp(when!);
        if (buy === "" || sell === "")
          rowProblem(ID, "bad-rate", `${currency} has only a ${buy === "" ? "Selling" : "Buying"} figure: no mean`);
        const [buying, selling] = [
          requireDecimal(ID, buy, `${currency} Buying`),
          requireDecimal(ID, sell, `${currency} Selling`),
        ];
        // Both sides equal: the bank's text itself; else their exact mean, flagged.
        const record: RateRecord =
          buying === selling
            ? { effectiveDate: date, currency, rate: buying, source }
            : { effectiveDate: date, currency, rate: mean(buying, selling), derivation: "mean", source };
        const key = `${date} ${currency}`;
        const seen = latest.get(key);
        const candidate = { record, minute };
        if (!seen || seen[0]!.minute < minute) latest.set(key, [candidate]);
        else if (seen[0]!.minute === minute) seen.push(candidate); // the same time twice: the gate holds a conflict
        return undefined;
      },
      { effectiveDate: when, currency: code, rate: `${buy} / ${sell}` },
    );
  });
  for (const candidates of latest.values()) for (const c of candidates) rows.records.push(c.record);
  return read;
}

const cbo = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Oman", abbreviatedName: "CBO" },
      { languageCode: "ar", name: "البنك المركزي العماني", abbreviatedName: "البنك المركزي العماني" },
    ],
    dailyUpdateTime: "10:00:00",
    bankCurrency: "OMR",
    countryCode: ["OM"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://cbo.gov.om",
    quoteType: "Direct",
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2017-10-15",
    maxRangeDays: 366,
    sourceUrl: PAGE,
  },

  navigationAnswer: isSearchAnswer,

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const form = searchForm(decodeText(ID, page.body));
    const docs: FeedDocument[] = [{ ...page, role: "navigation" }];
    for (const { from: f, to: t } of chunkRange(from, to, cbo.bank.maxRangeDays)) {
      for (const currency of form.currencies) {
        const answer = await session.post(PAGE, exportBody(form, currency, f, t), {
          accept: "application/vnd.ms-excel, text/html",
          headers: { Referer: PAGE, Origin: "https://cbo.gov.om" },
        });
        // The page sent back instead of the table (a refused post-back) would read as "no rates": refuse it.
        if (isSearchPage(cheerio.load(decodeText(ID, answer.body))))
          throw new FeedError(ID, `the export of ${currency} answered with the search page, not the table`);
        docs.push(answer);
      }
    }
    return docs;
  },

  parse(body) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where the DFESearch export was expected");
    const $ = cheerio.load(html);
    if (isSearchPage($)) throw new FeedError(ID, "the search page, not the export table (a refused export?)");
    const rows = new AnswerRows(ID);
    if (looksLikeHtml(html))
      throw new FeedError(ID, "an HTML page where the export table was expected (an error page?)");
    if (!/<\/table>\s*$/i.test(html)) throw new FeedError(ID, "truncated export (no closing </table>)");
    if (readExport($, rows) === 0) return noPublication("the export table has no rows for the dates asked");
    return rows.result();
  },
});

export default cbo;

// Bank Indonesia: the "transaksi BI" exchange rates, searched one currency at a time on a SharePoint
// page (https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx).
// - Fetch: a GET of the page gives the view state, request digest, cookies and the currency list
//   (select ...ddlmatauang1; the option values carry trailing spaces, posted as they are). Each search
//   is a POST of the page's form, in the same session, with the currency, txtFrom and txtTo written
//   `01-Mar-2026`, and the search button. The GET is only read to build the searches (navigation);
//   the page and the searches share one URL, so it is marked in `fetch`, and a saved copy is told by
//   what it holds: the search form with empty dates and no results table (`navigationAnswer`).
// - Answer: the page re-rendered with the dates searched and the `gvSearchResult2` table (Value | Sell |
//   Buy | Date) under the label `CURRENCIES AED`; a search without results re-renders it with the dates
//   and without the table: the bank saying it published nothing in that window (noPublication). A
//   POST answered by the page as first served (empty dates) is a search the site did not run: refused.
//   When the posted form is known (`exrates parse --form`), the label must name the currency asked.
// - Figures: comma thousands (`4,627.79`), dates `5 Mar 2026`, `Value` the number of foreign units
//   (`1.00`, `100.00` for JPY). IDR per Value units (Direct). The official figure is the exact mean of
//   Sell and Buy (flagged "mean"); a Value of 100 or 1000 is kept as unitMultiplier.
// - Published on business days from about 08:00 Jakarta time (01:00-03:30 UTC).
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  chunkRange,
  decodeText,
  defineAdapter,
  mean,
  noPublication,
  perUnits,
  readDecimal,
  recentDays,
  requireDate,
  requireDecimal,
  requireUnits,
  resolveCurrency,
  type FeedDocument,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BI";
const PAGE = "https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx";
/** The SharePoint fields the search posts back, in the browser's order. */
const PAGE_FIELDS = [
  "MSOWebPartPage_PostbackSource",
  "MSOTlPn_View",
  "MSOTlPn_ShowSettings",
  "MSOTlPn_Button",
  "__EVENTTARGET",
  "__EVENTARGUMENT",
  "__REQUESTDIGEST",
  "MSOSPWebPartManager_DisplayModeName",
  "MSOSPWebPartManager_ExitingDesignMode",
  "MSOSPWebPartManager_OldDisplayModeName",
  "MSOSPWebPartManager_StartWebPartEditingName",
  "MSOSPWebPartManager_EndWebPartEditing",
  "_maintainWorkspaceScrollPosition",
  "__VIEWSTATE",
  "__VIEWSTATEGENERATOR",
  "__SCROLLPOSITIONX",
  "__SCROLLPOSITIONY",
  "__EVENTVALIDATION",
];

const shortMonth = new Intl.DateTimeFormat("en", { month: "short", timeZone: "UTC" });
/** 2026-03-01 -> `01-Mar-2026`, the form's date syntax. */
const biDate = (iso: string) =>
  `${iso.slice(8, 10)}-${shortMonth.format(new Date(`${iso}T00:00:00Z`))}-${iso.slice(0, 4)}`;

/** The value of the search's `txtFrom` or `txtTo` input on a page; "" when empty, undefined without one. */
function searchDate(html: string, field: "txtFrom" | "txtTo"): string | undefined {
  const input = new RegExp(`<input\\b[^>]*name="[^"]*\\$${field}"[^>]*>`).exec(html)?.[0];
  return input === undefined ? undefined : (/\svalue="([^"]*)"/.exec(input)?.[1] ?? "");
}

/** The page as first served: the search form with empty dates and no results (read only to search). */
export function isLandingPage(answer: { method?: string; body: Uint8Array }): boolean {
  if (answer.method === "POST") return false; // a POST answered so is a search not run: parse refuses it
  const html = Buffer.from(answer.body).toString("utf8");
  return searchDate(html, "txtFrom") === "" && !html.includes("gvSearchResult2");
}

/** The page's search form: the posted-back fields, the web part's name prefix and the currency options. */
export function searchForm(html: string): { fields: Array<[string, string]>; prefix: string; currencies: string[] } {
  const $ = cheerio.load(html);
  const select = $('select[name$="$ddlmatauang1"]');
  if (select.length === 0)
    throw new FeedError(ID, "no currency list (ddlmatauang1) on the transaksi-bi page (has it changed?)");
  const prefix = (select.attr("name") ?? "").replace(/ddlmatauang1$/, "");
  const fields = PAGE_FIELDS.map((name): [string, string] => {
    const v = $(`input[name="${name}"]`).attr("value");
    if (v === undefined) throw new FeedError(ID, `the transaksi-bi page has no ${name} field`);
    return [name, v];
  });
  const currencies = select
    .find("option")
    .map((_i, o) => $(o).attr("value") ?? "")
    .get()
    .filter((v) => v.trim() !== "");
  return { fields, prefix, currencies };
}

export function searchBody(form: ReturnType<typeof searchForm>, currency: string, from: string, to: string): string {
  const body = new URLSearchParams(form.fields);
  body.append(`${form.prefix}ddlmatauang1`, currency);
  body.append(`${form.prefix}txtFrom`, biDate(from));
  body.append(`${form.prefix}txtTo`, biDate(to));
  body.append(`${form.prefix}txtTanggal`, "");
  body.append(`${form.prefix}btnSearch1`, "Search");
  body.append(`${form.prefix}hidSourceID`, `${form.prefix.replace(/\$/g, "_")}btnSearch1`);
  return body.toString();
}

const bi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Bank Indonesia", abbreviatedName: "BI" },
      { languageCode: "id", name: "Bank Indonesia", abbreviatedName: "BI" },
    ],
    // Published within 01:00-03:30 UTC, i.e. from 08:00 in Jakarta (UTC+7).
    dailyUpdateTime: "08:00:00",
    bankCurrency: "IDR",
    countryCode: ["ID"],
    region: ["Asia"],
    timeZone: "Asia/Jakarta",
    website: "https://www.bi.go.id",
    quoteType: "Direct",
    publicationDays: [1, 2, 3, 4, 5],
    coverageStart: "2001-01-02",
    maxRangeDays: 365,
    sourceUrl: PAGE,
  },

  // The page and the search answer share one URL: the page as first served is told by its empty search.
  navigationAnswer: isLandingPage,

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(bi.bank.timeZone, 7) : range;
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const form = searchForm(decodeText(ID, page.body));
    const docs: FeedDocument[] = [{ ...page, role: "navigation" }];
    for (const { from: f, to: t } of chunkRange(from, to, bi.bank.maxRangeDays)) {
      for (const currency of form.currencies) {
        docs.push(
          await session.post(PAGE, searchBody(form, currency, f, t), {
            accept: "text/html",
            headers: {
              "Content-Type": "application/x-www-form-urlencoded",
              Referer: PAGE,
              Origin: "https://www.bi.go.id",
            },
          }),
        );
      }
    }
    return docs;
  },

  // Every results table of the page is read; a search without results says that nothing was published.
  parse(body, { requestBody }) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where the transaksi-bi page was expected");
    const $ = cheerio.load(html);
    // The landing page and the re-rendered search page both carry the search inputs (the currency
    // list only the former).
    if ($('input[name$="$txtFrom"]').length === 0 || $('input[name="__REQUESTDIGEST"]').length === 0) {
      throw new FeedError(ID, "not the transaksi-bi page: no search form (an error or WAF page?)");
    }
    if (!/<\/html>\s*$/i.test(html)) throw new FeedError(ID, "truncated page (no closing </html>)");
    const rows = new AnswerRows(ID);
    const tables = $('table[id$="gvSearchResult2"]');
    const [from, to] = [searchDate(html, "txtFrom"), searchDate(html, "txtTo")];
    const asked = [...new URLSearchParams(requestBody ?? "")].find(([k]) => k.endsWith("$ddlmatauang1"))?.[1].trim();
    if (tables.length === 0) {
      if (!from)
        throw new FeedError(
          ID,
          "the search page as first served, with no search made (a search the site did not run?)",
        );
      return noPublication(`no results for ${asked ?? "the currency searched"} from ${from} to ${to}`);
    }
    const label = $('[id$="lblKursTransaksiKTBI2"]').text().replace(/\s+/g, " ").trim();
    const m = /^CURRENCIES (\S+)$/i.exec(label);
    if (!m) throw new FeedError(ID, `the results carry no currency label (found "${label}")`);
    const code = m[1]!.toUpperCase();
    if (asked && asked.toUpperCase() !== code)
      throw new FeedError(ID, `the results are for ${code}, the search asked for ${asked}`);
    tables.each((t, table) => {
      const trs = $(table).find("tr");
      const heads = trs
        .first()
        .find("th")
        .map((_i, th) => $(th).text().trim())
        .get();
      const col = (name: string) => {
        const i = heads.indexOf(name);
        if (i < 0) throw new FeedError(ID, `the results table has no "${name}" column (${heads.join(" | ")})`);
        return i;
      };
      const [cValue, cSell, cBuy, cDate] = [col("Value"), col("Sell"), col("Buy"), col("Date")];
      trs.slice(1).each((r, tr) => {
        const cells = $(tr)
          .find("td")
          .map((_j, td) => $(td).text().trim())
          .get();
        if (cells.length === 0) return; // a header or spacer row
        const [value, sell, buy, day] = [
          cells[cValue] ?? "",
          cells[cSell] ?? "",
          cells[cBuy] ?? "",
          cells[cDate] ?? "",
        ];
        const source = tables.length > 1 ? `table ${t + 1} row ${r + 2}` : `row ${r + 2}`;
        rows.read(
          source,
          () => {
            const currency = resolveCurrency(ID, code);
            const date = requireDate(ID, fromDayMonthName(day), day);
            const units = requireUnits(
              ID,
              (readDecimal(value, { thousands: "," }) ?? value).replace(/\.0*$/, ""),
              "Value",
            );
            const syntax = { thousands: "," };
            const rate = mean(
              requireDecimal(ID, sell, `${currency} Sell`, syntax),
              requireDecimal(ID, buy, `${currency} Buy`, syntax),
            );
            return { effectiveDate: date, currency, ...perUnits(rate, units), derivation: "mean" as const };
          },
          { effectiveDate: day, currency: code, rate: `${sell} / ${buy}` },
        );
      });
    });
    return rows.result();
  },
});

export default bi;

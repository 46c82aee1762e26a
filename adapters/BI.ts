// Bank Indonesia: the "transaksi BI" exchange rates (selling and buying rates, IDR per `Value`
// units), searched one currency at a time on a SharePoint page. The GET of the page gives the view
// state, request digest, cookies and the currency list; each search is a POST of the page's form
// with the currency, txtFrom and txtTo (`01-Mar-2026`) and the search button. The answer re-renders
// the page with the `gvSearchResult2` table (Value | Sell | Buy | Date, comma thousands) and the
// label `CURRENCIES AED`; a search without results re-renders it without the table. The official
// figure is the exact mean of sell and buy (Direct, flagged "mean"); a Value of 100 or 1000 is kept
// as unitMultiplier.
import * as cheerio from "cheerio";

import {
  FeedError,
  chunkRange,
  decodeText,
  defineAdapter,
  mean,
  perUnits,
  readDecimal,
  recentDays,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { fromDayMonthName } from "../src/feed/month-names.js";

const ID = "BI";
const PAGE = "https://www.bi.go.id/en/statistik/informasi-kurs/transaksi-bi/default.aspx";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
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

const biDate = (iso: string) => `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;

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
    // BANKS.md: published within 01:00-03:30 UTC, i.e. from 08:00 in Jakarta (UTC+7).
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

  async fetch(range, { http }) {
    const { from, to } = range.kind === "latest" ? recentDays(bi.bank.timeZone, 7) : range;
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const form = searchForm(decodeText(ID, page.body));
    const docs: FeedDocument[] = [page];
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

  parse(body) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where the transaksi-bi page was expected");
    const $ = cheerio.load(html);
    // The landing page and the re-rendered search page both carry the search inputs (the currency
    // list only the former).
    if ($('input[name$="$txtFrom"]').length === 0 || $('input[name="__REQUESTDIGEST"]').length === 0) {
      throw new FeedError(ID, "not the transaksi-bi page: no search form (an error or WAF page?)");
    }
    if (!/<\/html>\s*$/i.test(html)) throw new FeedError(ID, "truncated page (no closing </html>)");
    const table = $('table[id$="gvSearchResult2"]');
    if (table.length === 0) return []; // the landing page, or a search without results
    const label = $('[id$="lblKursTransaksiKTBI2"]').text().replace(/\s+/g, " ").trim();
    const m = /^CURRENCIES ([A-Z]{3})$/i.exec(label);
    if (!m) throw new FeedError(ID, `the results carry no currency label (found "${label}")`);
    const currency = m[1]!.toUpperCase();
    const heads = table
      .find("tr")
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
    const records: RateRecord[] = [];
    table
      .find("tr")
      .slice(1)
      .each((_i, tr) => {
        const cells = $(tr)
          .find("td")
          .map((_j, td) => $(td).text().trim())
          .get();
        const date = fromDayMonthName(cells[cDate] ?? "");
        if (!date) throw new FeedError(ID, `${currency}: date "${cells[cDate] ?? ""}" is not like "5 Mar 2026"`);
        const num = (i: number, what: string) => {
          const v = readDecimal(cells[i] ?? "", { thousands: "," });
          if (v === undefined)
            throw new FeedError(ID, `${date} ${currency} ${what}: "${cells[i] ?? ""}" is not a decimal number`);
          return v;
        };
        const units = num(cValue, "Value").replace(/\.0*$/, "");
        if (!/^[1-9]\d*$/.test(units))
          throw new FeedError(ID, `${date} ${currency}: Value "${cells[cValue]}" is not a whole number of units`);
        const rate = mean(num(cSell, "Sell"), num(cBuy, "Buy"));
        records.push({ effectiveDate: date, currency, ...perUnits(rate, units), derivation: "mean" });
      });
    return records;
  },
});

export default bi;

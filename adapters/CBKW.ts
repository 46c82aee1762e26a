// Central Bank of Kuwait: the daily exchange rates of the Kuwaiti dinar against about 135 currencies,
// looked up one currency at a time on the bank's site.
// - Fetch, two steps in one session. (1) GET
//   https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/usd: the lookup form, read
//   only for its `formId` and its currency options, whose values are `CODE:ID` (`USD:128735`; the ID is a
//   CMS id and a bare code returns nothing). (2) For each currency, POST
//   https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates/get-exchange-rates with
//   `formId`, `selCurrency=CODE:ID`, `txtDateFrom` and `txtDateTo` (DD/MM/YYYY; the first is exclusive,
//   the second inclusive, so a range is asked from the day before its start).
// - Answer: an HTML fragment (not a page), ending in about 1.5 KB of whitespace, with a
//   `<script id="currencyJSON">` chart block (`"valueLabel": "KWD To USD"`, `"yAxisTitle": "Fils"`,
//   `"dataSet": [[epoch_ms, fils], ...]`, newest first, each point at 00:00 UTC of its day) and a table
//   `Date | KWD / US Dollar` with one row per day (`08.09.2026 | 306.650`). The currency is the code of
//   `valueLabel`; the chart's unit must be Fils. Both the chart and the table are read: a day they give
//   different figures is held (conflict), a day only one of them gives is taken from it. A point whose
//   instant is not a day (not 00:00 UTC) is held, shown as an ISO date-time.
// - Figures: fils (1/1000 KWD) per 1 unit of the foreign currency, one reference value a day (no buying or
//   selling rate is shown): "306.650" means 1 USD = 0.30665 KWD. Published as the bank's digits with
//   unitMultiplier 3, i.e. KWD per 1000 units (306.650 KWD per 1000 USD): the same number re-read in
//   dinars, exact, with no arithmetic and no derived digit. A table header with a count
//   (`KWD / 100 Japanese Yen`) adds its power of ten (any other count is divided out, flagged).
// - Codes the bank still serves after the currency was withdrawn (ECS, VEF, SLL...): a figure dated after
//   the withdrawal (the latest end date CLDR gives the code in any territory) is held, because which
//   currency it is in cannot be established; fetch does not ask for codes withdrawn before the range.
// - Majors run from 2008-01-02 (the chart's dateMin), most others from 2017-06-18. Working days are Sunday
//   to Thursday. The publication time is not stated; the figure of a day is seen from the morning in
//   Kuwait (estimate), so the daemon runs at 09:30 Kuwait time and polls until it is there.
// - The site asks for credit to the CBK as the source.
// A saved answer is recognised by its content: the chart block makes it data; the lookup form page
// (its URL pattern below, or a saved copy without chart data) is navigation. A lookup whose chart and
// table have no day is the bank saying it published nothing in that window (noPublication).
import { createRequire } from "node:module";

import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  addDays,
  chunkRange,
  decodeText,
  defineAdapter,
  fromDayMonthYear,
  jsonNumberText,
  noPublication,
  parseJsonExact,
  pause,
  perUnits,
  recentDays,
  requireCurrencyCode,
  requireDate,
  requireDecimal,
  requireUnits,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { Exact } from "../src/feed/decimal.js";

const ID = "CBKW";
const TIME_ZONE = "Asia/Kuwait";
const RATES = "https://www.cbk.gov.kw/en/monetary-policy/market-operations/exchange-rates";
const FORM_PAGE = `${RATES}/usd`;
const LOOKUP = `${RATES}/get-exchange-rates`;

/** The pause between two lookups, so that about 135 POSTs do not hammer the bank's firewall (0 in tests). */
export const cbkwPacing = { pauseMs: 300 };

interface CldrCurrencyData {
  supplemental: {
    currencyData: { region: Record<string, Array<Record<string, { _from?: string; _to?: string; _tender?: string }>>> };
  };
}

let withdrawals: Map<string, IsoDate | undefined> | undefined;

/**
 * The day a currency stopped being legal tender everywhere: the latest `_to` CLDR gives the code in any
 * territory, or undefined while one territory still uses it (or CLDR does not know it).
 */
export function withdrawnOn(code: string): IsoDate | undefined {
  if (!withdrawals) {
    const data = createRequire(import.meta.url)("cldr-core/supplemental/currencyData.json") as CldrCurrencyData;
    withdrawals = new Map();
    for (const uses of Object.values(data.supplemental.currencyData.region)) {
      for (const use of uses) {
        for (const [c, span] of Object.entries(use)) {
          if (span._tender === "false") continue;
          const before = withdrawals.get(c);
          if (withdrawals.has(c) && before === undefined) continue; // current somewhere
          withdrawals.set(c, span._to === undefined ? undefined : before && before > span._to ? before : span._to);
        }
      }
    }
  }
  return withdrawals.get(code);
}

/** The lookup form: its id and the currency options (`USD:128735`) in page order. */
export function lookupForm(html: string): { formId: string; currencies: Array<{ code: string; option: string }> } {
  const $ = cheerio.load(html);
  const formId = $('input[name="formId"]').attr("value")?.trim();
  if (!formId) throw new FeedError(ID, "no formId on the exchange-rates page (has it changed?)");
  const currencies = $("option")
    .map((_i, o) => ($(o).attr("value") ?? "").trim())
    .get()
    .filter((v) => /^[A-Z]{3}:\d+$/.test(v))
    .map((option) => ({ code: option.slice(0, 3), option }));
  if (currencies.length === 0) throw new FeedError(ID, "no CODE:ID currency options on the exchange-rates page");
  return { formId, currencies: [...new Map(currencies.map((c) => [c.option, c])).values()] };
}

const dmy = (iso: IsoDate) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The lookup of one currency for an inclusive range (the bank's start date is exclusive). */
export function lookupBody(formId: string, option: string, from: IsoDate, to: IsoDate): string {
  return new URLSearchParams({
    formId,
    selCurrency: option,
    txtDateFrom: dmy(addDays(from, -1)),
    txtDateTo: dmy(to),
  }).toString();
}

interface Reading {
  date: IsoDate;
  fils: string;
  source: string;
}

/** The chart block: currency code, and each point as a day and its fils (held when unreadable). */
function readChart($: cheerio.CheerioAPI, rows: AnswerRows): { code: string; points: Reading[] } {
  const chart = parseJsonExact(ID, $("script#currencyJSON").text()) as {
    valueLabel?: unknown;
    yAxisTitle?: unknown;
    dataSet?: unknown;
  } | null;
  if (chart === null || typeof chart !== "object" || !Array.isArray(chart.dataSet))
    throw new FeedError(ID, "the currencyJSON block has no dataSet array");
  const valueLabel = typeof chart.valueLabel === "string" ? chart.valueLabel.trim() : "";
  const label = /^KWD\s+to\s+([A-Z]{3})$/i.exec(valueLabel);
  if (!label) throw new FeedError(ID, `the chart does not name its currency (valueLabel "${valueLabel}")`);
  const code = label[1]!.toUpperCase();
  const unit = typeof chart.yAxisTitle === "string" ? chart.yAxisTitle.trim() : "";
  if (unit !== "Fils") throw new FeedError(ID, `the chart's unit is "${unit}", not Fils (has the feed changed?)`);
  const points: Reading[] = [];
  chart.dataSet.forEach((point: unknown, i) => {
    const source = `chart dataSet[${i}]`;
    const [at, value] = Array.isArray(point) ? (point as unknown[]) : [];
    const ms = Number(jsonNumberText(at));
    const instant = Number.isSafeInteger(ms) ? new Date(ms).toISOString() : String(jsonNumberText(at) ?? at);
    const fils = jsonNumberText(value) ?? String(value);
    rows.read(
      source,
      () => {
        if (!instant.endsWith("T00:00:00.000Z"))
          rowProblem(ID, "bad-date", `chart point at ${instant} is not a day (00:00 UTC)`);
        points.push({ date: instant.slice(0, 10), fils: requireDecimal(ID, fils, `${code} fils`), source });
        return undefined;
      },
      { effectiveDate: instant, currency: code, rate: fils },
    );
  });
  return { code, points };
}

/** Every `Date | KWD / ...` table: the unit count of its header and its rows (held when unreadable). */
function readTables($: cheerio.CheerioAPI, rows: AnswerRows, code: string): { units: string; rows: Reading[] } {
  const tables = $("table").filter((_i, t) => $(t).find("th").first().text().trim() === "Date");
  if (tables.length === 0) throw new FeedError(ID, "no `Date | KWD / ...` table in the answer (has it changed?)");
  let units: string | undefined;
  const readings: Reading[] = [];
  tables.each((t, table) => {
    const head = $(table).find("th").eq(1).text().replace(/\s+/g, " ").trim();
    const m = /^KWD ?\/ ?(?:([\d,]+) )?(.+)$/.exec(head);
    if (!m) throw new FeedError(ID, `the table's figure column is "${head}", not "KWD / <currency>"`);
    const count = requireUnits(ID, (m[1] ?? "1").replaceAll(",", ""), `the count in "${head}"`);
    if (units !== undefined && units !== count) throw new FeedError(ID, "the answer's tables quote different units");
    units = count;
    $(table)
      .find("tbody tr")
      .each((r, tr) => {
        const cells = $(tr)
          .find("td")
          .map((_j, td) => $(td).text().trim())
          .get();
        if (cells.length === 0) return;
        const [day = "", fils = ""] = cells;
        const source = `${tables.length > 1 ? `table ${t + 1} ` : ""}row ${r + 1}`;
        rows.read(
          source,
          () => {
            readings.push({
              date: requireDate(ID, fromDayMonthYear(day), day),
              fils: requireDecimal(ID, fils, `${code} fils`, { thousands: "," }),
              source,
            });
            return undefined;
          },
          { effectiveDate: day, currency: code, rate: fils },
        );
      });
  });
  return { units: units ?? "1", rows: readings };
}

/** The record of one day: fils per `units` units, as KWD per 1000 x units. */
function record(code: string, units: string, day: Reading): RateRecord {
  const currency = requireCurrencyCode(ID, code);
  const end = withdrawnOn(currency);
  if (end !== undefined && day.date > end)
    rowProblem(
      ID,
      "unknown-currency",
      `${currency} was withdrawn on ${end}: which currency a figure of ${day.date} under its code is in cannot be established`,
    );
  const perUnit = perUnits(day.fils, units);
  const out: RateRecord = {
    effectiveDate: day.date,
    currency,
    rate: perUnit.rate,
    unitMultiplier: 3 + (perUnit.unitMultiplier ?? 0),
    source: day.source,
  };
  if (perUnit.derivation) out.derivation = perUnit.derivation;
  return out;
}

/** The lookup form's page (a form with its currency options, no chart data). */
const isFormPage = ($: cheerio.CheerioAPI) =>
  $("script#currencyJSON").length === 0 && $('input[name="formId"]').length > 0 && $("option").length > 0;

/** A saved copy of the lookup form's page, told by its content; a POST answered by it is never navigation. */
export function isFormAnswer(answer: { method?: string; body: Uint8Array }): boolean {
  return answer.method !== "POST" && isFormPage(cheerio.load(Buffer.from(answer.body).toString("utf8")));
}

const cbkw = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Kuwait", abbreviatedName: "CBK" },
      { languageCode: "ar", name: "بنك الكويت المركزي", abbreviatedName: "بنك الكويت المركزي" },
    ],
    dailyUpdateTime: "09:30:00",
    bankCurrency: "KWD",
    countryCode: ["KW"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.cbk.gov.kw",
    quoteType: "Direct",
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2008-01-02",
    maxRangeDays: 366,
    sourceUrl: LOOKUP,
  },

  // The lookup form's page (read only for the form's id and options).
  navigation: /\/exchange-rates\/[a-z]{3}\/?(\?|$)/,
  navigationAnswer: isFormAnswer,

  async fetch(range, { http, signal }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const session = http.session();
    const page = await session.get(FORM_PAGE, { accept: "text/html" });
    const form = lookupForm(decodeText(ID, page.body));
    const docs: FeedDocument[] = [{ ...page, role: "navigation" }];
    for (const { from: f, to: t } of chunkRange(from, to, cbkw.bank.maxRangeDays)) {
      for (const { code, option } of form.currencies) {
        const end = withdrawnOn(code);
        if (end !== undefined && end < f) continue; // withdrawn before this range: nothing publishable
        if (docs.length > 1 && cbkwPacing.pauseMs > 0) await pause(cbkwPacing.pauseMs, signal);
        docs.push(
          await session.post(LOOKUP, lookupBody(form.formId, option, f, t), {
            accept: "text/html",
            headers: { Referer: FORM_PAGE, "X-Requested-With": "XMLHttpRequest" },
          }),
        );
      }
    }
    return docs;
  },

  parse(body) {
    const html = decodeText(ID, body);
    if (html.trim() === "") throw new FeedError(ID, "empty body where an exchange-rates answer was expected");
    const $ = cheerio.load(html);
    if ($("script#currencyJSON").length === 0) {
      if (isFormPage($)) throw new FeedError(ID, "the lookup form's page, not an exchange-rates answer");
      throw new FeedError(ID, "not an exchange-rates answer: no currencyJSON chart block (an error or WAF page?)");
    }
    const rows = new AnswerRows(ID);
    const chart = readChart($, rows);
    const table = readTables($, rows, chart.code);
    const charted = new Map(chart.points.map((p) => [p.date, p]));
    const tabled = new Set<IsoDate>();
    for (const day of table.rows) {
      tabled.add(day.date);
      const point = charted.get(day.date);
      rows.read(
        day.source,
        () => {
          if (point && !new Exact(point.fils).eq(day.fils))
            rowProblem(ID, "conflict", `the table gives ${day.fils} fils, the chart ${point.fils}: neither is taken`);
          return record(chart.code, table.units, day);
        },
        { effectiveDate: day.date, currency: chart.code, rate: day.fils },
      );
    }
    for (const point of chart.points) {
      if (tabled.has(point.date)) continue;
      rows.read(point.source, () => record(chart.code, table.units, point), {
        effectiveDate: point.date,
        currency: chart.code,
        rate: point.fils,
      });
    }
    if (rows.records.length === 0 && rows.held.length === 0 && chart.points.length === 0 && table.rows.length === 0)
      return noPublication(`the chart and the table of ${chart.code} have no day in the window asked`);
    return rows.result();
  },
});

export default cbkw;

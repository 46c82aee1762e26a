// Palestine Monetary Authority: the daily rates of the currencies circulating in Palestine (the Israeli
// shekel, the Jordanian dinar, the US dollar), from the export tool of the PMA's site.
// - Fetch, in one session: GET https://wcur.pma.ps/ar/webtools/currency/export sets a PHP session cookie
//   and renders a form whose hidden anti-forgery input has a per-session random name and value; then a POST
//   of the same URL with that input, `from` and `to` (YYYY-MM-DD) and the Referer gives an XLSX workbook
//   (pma-currencies-ar-<from>-<to>.xlsx). The GET is navigation: it shares its URL with the export, so it
//   is marked in `fetch`, and a saved copy of it is told apart by its content (the form: no rates). An
//   export answered with the form again (a refused token) is refused in `fetch`, with the form's message.
//   The whole archive (from 2020-09-01) fits in one answer of about 1 MB.
// - Answer: one sheet, header `التاريخ | العملة | الشراء | البيع | الوسطي` (date, pair, buy, sell, mid),
//   columns found by those labels; every cell a string: dates `2026/09/01`, figures with thousands commas
//   and trailing zeros in buy and sell (`89,446.50`) but not in the mid (`89623.25`, `0.709`), the odd stray
//   space. Every sheet is read.
// - 25 market pairs a day, each in its own direction: `USD/ILS` is shekels per dollar, `JOD/ILS`, `EUR/ILS`,
//   `EGP/ILS` shekels per unit; `USD/JOD`, `USD/JPY`... are units per dollar, `GBP/USD`, `EUR/USD`,
//   `XAU/USD`... dollars per unit. The figure published is the PMA's own mid (the bank rounds it; it is not
//   recomputed from buy and sell), for the pairs priced in shekels: base ILS, Direct, `X/ILS` as given
//   (an `ILS/X` pair would be inverted, flagged). Pairs priced in another currency (USD/JOD, the USD
//   crosses, gold and silver in dollars) are not shekel rates: the model gives a bank one base currency,
//   and turning them into shekels through USD/ILS would be a cross rate the PMA did not publish, so they
//   are left out, by rule and on purpose (docs/DECISIONS.md). A row without a mid is held.
// - Published Sunday to Thursday (Friday and Saturday are absent). The hour is not established; the
//   daemon runs at 12:00 Hebron time (an estimate) and polls until the day is there.
// - The site's terms allow non-commercial use with the source acknowledged.
import * as cheerio from "../src/feed/cheerio.js";

import {
  AnswerRows,
  FeedError,
  chunkRange,
  decodeText,
  defineAdapter,
  invert,
  recentDays,
  requireCurrencyCode,
  requireDateParts,
  rowProblem,
  type FeedDocument,
  type IsoDate,
  type RateRecord,
} from "../src/feed/kit.js";
import { cellDecimal, cellText, readXlsx, type Row, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "PMA";
const BASE = "ILS";
const TIME_ZONE = "Asia/Hebron";
const EXPORT = "https://wcur.pma.ps/ar/webtools/currency/export";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** The header labels: date, pair, buy, sell, mid. */
const LABELS = { date: "التاريخ", pair: "العملة", buy: "الشراء", sell: "البيع", mid: "الوسطي" } as const;

/** The export form's hidden fields (the anti-forgery token, whatever its name) and the form's message. */
export function exportForm(html: string): { fields: Array<[string, string]>; message: string } {
  const $ = cheerio.load(html);
  const form = $("form").filter(
    (_i, f) => $(f).find('input[name="from"]').length > 0 && $(f).find('input[name="to"]').length > 0,
  );
  if (form.length === 0)
    throw new FeedError(ID, "no export form (from/to) on the currency export page (has it changed?)");
  const fields = form
    .find('input[type="hidden"][name]')
    .toArray()
    .map((el): [string, string] => [$(el).attr("name") ?? "", $(el).attr("value") ?? ""]);
  if (fields.length === 0) throw new FeedError(ID, "the export form has no hidden token field");
  return { fields, message: $(".alert").text().replace(/\s+/g, " ").trim() };
}

export function exportBody(form: { fields: Array<[string, string]> }, from: IsoDate, to: IsoDate): string {
  const body = new URLSearchParams(form.fields);
  body.append("from", from);
  body.append("to", to);
  return body.toString();
}

const isWorkbook = (body: Uint8Array) => body[0] === 0x50 && body[1] === 0x4b;

/**
 * A saved copy of the export form as first served (navigation, no rates), told by its content: the
 * from/to form without a message. A POST answered by the form is a refused export, never navigation.
 */
export function isFormPage(answer: { method?: string; body: Uint8Array }): boolean {
  if (answer.method === "POST" || answer.body.length === 0 || isWorkbook(answer.body)) return false;
  const html = Buffer.from(answer.body).toString("utf8");
  if (!/<input[^>]+name="from"/.test(html)) return false;
  try {
    return exportForm(html).message === "";
  } catch {
    return false;
  }
}

/** The header row of a sheet and the column of each label, or undefined for a sheet without one. */
function header(ws: Worksheet): { row: number; at: Record<keyof typeof LABELS, number> } | undefined {
  for (const row of ws.rows()) {
    if (row.number > 20) break;
    const texts = new Map<string, number>();
    for (const cell of row.cells()) texts.set(cellText(cell), cell.col);
    if (!texts.has(LABELS.pair)) continue;
    const at = {} as Record<keyof typeof LABELS, number>;
    for (const [key, label] of Object.entries(LABELS) as Array<[keyof typeof LABELS, string]>) {
      const c = texts.get(label);
      if (c === undefined) throw new FeedError(ID, `the export's header has no "${label}" column (sheet "${ws.name}")`);
      at[key] = c;
    }
    return { row: row.number, at };
  }
  return undefined;
}

/** One row: the pair's mid as a shekel rate, or nothing for a pair priced in another currency. */
function readRow(row: Row, at: Record<keyof typeof LABELS, number>, source: string): RateRecord | undefined {
  const [day, pair, mid] = [cellText(row.getCell(at.date)), cellText(row.getCell(at.pair)), row.getCell(at.mid)];
  if (day === "" && pair === "" && cellText(mid) === "") return undefined; // a blank line
  const d = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(day);
  const effectiveDate = d
    ? requireDateParts(ID, d[1]!, d[2]!, d[3]!)
    : rowProblem(ID, "bad-date", `"${day}" is not a date`);
  const p = /^([A-Z]{3}) ?\/ ?([A-Z]{3})$/.exec(pair.toUpperCase());
  if (!p) rowProblem(ID, "bad-row", `"${pair}" is not a currency pair`);
  const [, left, right] = p;
  if (left !== BASE && right !== BASE) return undefined; // priced in another currency: not a shekel rate
  const rate = cellDecimal(mid);
  if (rate === undefined) rowProblem(ID, "bad-rate", `the mid of ${pair} is "${cellText(mid)}", not a number`);
  if (right === BASE) return { effectiveDate, currency: requireCurrencyCode(ID, left!), rate, source };
  return {
    effectiveDate,
    currency: requireCurrencyCode(ID, right!),
    rate: invert(rate),
    derivation: "inverted",
    source,
  };
}

const pma = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Palestine Monetary Authority", abbreviatedName: "PMA" },
      { languageCode: "ar", name: "سلطة النقد الفلسطينية", abbreviatedName: "سلطة النقد" },
    ],
    dailyUpdateTime: "12:00:00",
    bankCurrency: BASE,
    countryCode: ["PS"],
    region: ["Asia"],
    timeZone: TIME_ZONE,
    website: "https://www.pma.ps",
    quoteType: "Direct",
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2020-09-01",
    maxRangeDays: 366,
    sourceUrl: EXPORT,
  },

  async fetch(range, { http }) {
    const { from, to } = range.kind === "range" ? range : recentDays(TIME_ZONE, 7);
    const docs: FeedDocument[] = [];
    for (const { from: f, to: t } of chunkRange(from, to, pma.bank.maxRangeDays)) {
      // A fresh form (and token) per export: the token is good for one post.
      const session = http.session();
      const page = await session.get(EXPORT, { accept: "text/html" });
      docs.push({ ...page, role: "navigation" });
      const answer = await session.post(EXPORT, exportBody(exportForm(decodeText(ID, page.body)), f, t), {
        accept: XLSX_TYPE,
        headers: { Referer: EXPORT, Origin: "https://wcur.pma.ps" },
      });
      if (!isWorkbook(answer.body)) {
        const message = exportForm(decodeText(ID, answer.body)).message;
        throw new FeedError(
          ID,
          `the export of ${f} to ${t} answered with its form, not a workbook${message ? `: ${message}` : ""}`,
        );
      }
      docs.push(answer);
    }
    return docs;
  },

  navigationAnswer: isFormPage,

  async parse(body) {
    if (body.length > 0 && !isWorkbook(body)) {
      // The form where a workbook was expected (a refused export): an error, with the form's message.
      const html = decodeText(ID, body);
      if (/<input[^>]+name="from"/.test(html)) {
        const { message } = exportForm(html);
        throw new FeedError(ID, `the export form, not a workbook${message ? `: ${message}` : ""}`);
      }
    }
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let sheets = 0;
    for (const ws of wb.worksheets) {
      const head = header(ws);
      if (!head) continue;
      sheets++;
      for (const row of ws.rows()) {
        if (row.number <= head.row) continue;
        const source = `${wb.worksheets.length > 1 ? `sheet "${ws.name}" ` : ""}row ${row.number}`;
        rows.read(source, () => readRow(row, head.at, source), {
          effectiveDate: cellText(row.getCell(head.at.date)),
          currency: cellText(row.getCell(head.at.pair)),
          rate: cellText(row.getCell(head.at.mid)),
        });
      }
    }
    if (sheets === 0) throw new FeedError(ID, `not the PMA export: no sheet with the "${LABELS.pair}" header`);
    return rows.result();
  },
});

export default pma;

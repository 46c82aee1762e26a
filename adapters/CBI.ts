// Central Bank of Iraq: the daily exchange rates of the dinar against the major currencies and gold.
// - Landing page https://cbi.iq/page/144 (navigation: fetched only for the link, never parsed) links to
//   several workbooks; the one wanted is the link whose Arabic text mentions gold (الذهب), an XLSX under
//   https://cbi.iq/static/uploads/... whose name changes with each upload. It holds the whole history.
// - One sheet per year (sheets of years without data are empty). Under the titles, a row of currency
//   names or codes (merged over each currency's block) and a row of column labels: `Buy ID` | `Sell ID`
//   blocks, from 2025 `Buy ID` | `Sell ID` | `Sell ID 2`. Codes are the bank's (S.FR for CHF, UAE for
//   AED, SDR for XDR, Gold); from 2025 they sit at the end of the Arabic names and not always over the
//   block's first column, so each block (a `Buy ID` column up to the next) is searched for its one code.
// - Quotes: IQD per 1 unit (Direct). The official figure is the exact mean of `Buy ID` and `Sell ID`
//   (flagged "mean"); `Sell ID 2` is not used. Gold (per troy ounce) is one column, taken as published.
// - Months are sections of a sheet: a banner in column A (`Jan. 2024`, `Feb.2026`, or only the year, as
//   for January 2026), the day rows (the day number in column A), an `Average` row. Banners are read by
//   the kit's month-banner rule (src/feed/month-blocks.ts): misspellings, date cells, footnote marks;
//   a block landing on days another banner gave is held, naming both.
// - Published Sunday to Thursday, between 10:00 and 12:30 UTC; polled from 13:00 Baghdad time (UTC+3).
// - Holidays are Arabic text across the rate cells (skipped, as are zeros and days with only one side
//   published). Figures typed wrongly as text occur (gold `6,006 ,624.000`, `7,019.077.000`): held.
// Each day row is one row per currency: a figure that is not a number holds that currency on that day; a
// day that does not exist (31 in a 30-day month), or that stands under no readable month banner, holds
// the row. Every sheet and every label row (a new table) is read; a workbook without any `Buy ID` label,
// a block without a currency code or with two, is not the bank's layout and is refused whole.

import {
  AnswerRows,
  FeedError,
  decodeText,
  defineAdapter,
  mean,
  rowProblem,
  type RateRecord,
} from "../src/feed/kit.js";
import { requireLink } from "../src/feed/html-links.js";
import { MonthBlocks } from "../src/feed/month-blocks.js";
import { cellDecimal, cellText, readXlsx, type Row, type Worksheet } from "../src/feed/spreadsheet.js";

const ID = "CBI";
const PAGE = "https://cbi.iq/page/144";
const WORKBOOK_LINK = /^https:\/\/(www\.)?cbi\.iq\/static\/uploads\/.*\.xlsx$/i;
const GOLD_TEXT = /الذهب/;

/** The bank's codes that are not ISO 4217 codes. */
export const CBI_CODES: Readonly<Record<string, string>> = { "S.FR": "CHF", UAE: "AED", SDR: "XDR", GOLD: "XAU" };

const CODE = /(?:^|\s)(S\.FR|[A-Z]{3}|Gold)\s*$/i;

function codeOf(text: string): string | undefined {
  const m = CODE.exec(text.trim());
  if (!m) return undefined;
  const raw = m[1]!.toUpperCase();
  return CBI_CODES[raw] ?? raw;
}

interface Block {
  currency: string;
  buy?: number;
  sell?: number;
  /** Gold: one column, as published. */
  value?: number;
}

interface Layout {
  blocks: Block[];
}

/** The layout whose label row is row `r` (a row with `Buy ID` labels), or undefined for any other row. */
function layoutAt(ws: Worksheet, r: number, columns: number): Layout | undefined {
  const row = ws.getRow(r);
  const labels: string[] = [];
  for (let c = 1; c <= columns; c++) labels[c] = cellText(row.getCell(c)).replace(/\s+/g, " ").toUpperCase();
  const buys = labels.flatMap((l, c) => (l === "BUY ID" ? [c] : []));
  if (buys.length === 0) return undefined;
  const codeIn = (from: number, to: number): string | undefined => {
    const found = new Set<string>();
    for (const rr of [r - 1, r - 2])
      for (let c = from; c <= to; c++) {
        const code = rr >= 1 ? codeOf(cellText(ws.getRow(rr).getCell(c))) : undefined;
        if (code) found.add(code);
      }
    if (found.size > 1)
      throw new FeedError(
        ID,
        `sheet "${ws.name}" columns ${from}-${to}: several currencies (${[...found].join(", ")}) over one block`,
      );
    return [...found][0];
  };
  // Gold: the column whose header reads Gold (or الذهب) after the last Buy block.
  let gold: number | undefined;
  for (let c = buys.at(-1)! + 1; c <= columns && gold === undefined; c++) {
    for (const rr of [r - 1, r - 2]) {
      const cell = rr >= 1 ? ws.getRow(rr).getCell(c) : undefined;
      if (
        cell &&
        !(cell.isMerged && cell.master !== cell) &&
        (/^gold$/i.test(cellText(cell)) || GOLD_TEXT.test(cellText(cell)))
      )
        gold = c;
    }
  }
  const blocks: Block[] = buys.map((buy, i) => {
    const end = (buys[i + 1] ?? gold ?? columns + 1) - 1;
    const currency = codeIn(buy, end);
    if (!currency) throw new FeedError(ID, `sheet "${ws.name}": no currency code over the Buy column ${buy}`);
    let sell: number | undefined;
    for (let c = buy + 1; c <= end; c++) if (labels[c] === "SELL ID") sell = sell ?? c;
    if (sell === undefined)
      throw new FeedError(ID, `sheet "${ws.name}" ${currency}: no "Sell ID" column next to "Buy ID"`);
    return { currency, buy, sell };
  });
  if (gold !== undefined) blocks.push({ currency: "XAU", value: gold });
  return { blocks };
}

/**
 * A rate cell: its decimal, or undefined when it holds no figure (empty, zero, a holiday note in words).
 * Text without letters that is not a decimal (`7,019.077.000`) is a figure typed wrongly: a RowProblem.
 */
function figureOf(row: Row, column: number, what: string): string | undefined {
  const cell = row.getCell(column);
  const value = cellDecimal(cell);
  if (value !== undefined) return /[1-9]/.test(value) ? value : undefined;
  const text = cellText(cell);
  if (text === "" || /\p{L}/u.test(text) || /^[-–—.]+$/.test(text)) return undefined;
  return rowProblem(ID, "bad-rate", `${what}: "${text}" is not a decimal number`, { rate: text });
}

/** The records of one day row, one read per currency. */
function readDay(ws: Worksheet, r: number, date: string, layout: Layout, rows: AnswerRows): void {
  const row = ws.getRow(r);
  for (const block of layout.blocks) {
    if (block.currency === "IQD") continue;
    rows.read(
      `sheet "${ws.name}" row ${r}`,
      (): RateRecord | undefined => {
        if (block.value !== undefined) {
          const v = figureOf(row, block.value, "Gold");
          return v === undefined ? undefined : { effectiveDate: date, currency: block.currency, rate: v };
        }
        const buy = figureOf(row, block.buy!, `${block.currency} Buy ID`);
        const sell = figureOf(row, block.sell!, `${block.currency} Sell ID`);
        if (buy === undefined || sell === undefined) return undefined; // a holiday, or one side only
        return { effectiveDate: date, currency: block.currency, rate: mean(buy, sell), derivation: "mean" };
      },
      { effectiveDate: date, currency: block.currency },
    );
  }
}

/** True when a day row carries at least one figure (cells with digits), so that its date matters. */
function hasFigures(ws: Worksheet, r: number, layout: Layout): boolean {
  const row = ws.getRow(r);
  return layout.blocks.some((b) =>
    [b.buy, b.sell, b.value].some((c) => c !== undefined && /[1-9]/.test(cellText(row.getCell(c)))),
  );
}

/** Reads every table of a sheet into `rows`; true when the sheet has at least one label row. */
function readSheet(ws: Worksheet, rows: AnswerRows): boolean {
  let layout: Layout | undefined;
  const sheetYear = /^\d{4}$/.test(ws.name.trim()) ? Number(ws.name.trim()) : undefined;
  const blocks = new MonthBlocks(["en"], sheetYear);
  const columns = ws.columnCount;
  for (const { number: r } of ws.rows()) {
    const cell = ws.getRow(r).getCell(1);
    const a = cellText(cell);
    const isDay = /^\d{1,2}$/.test(a);
    if (!isDay) {
      const next = layoutAt(ws, r, columns);
      if (next) {
        layout = next;
        continue;
      }
    }
    if (!layout || a === "") continue;
    if (!isDay) {
      blocks.banner(cell.value, `sheet "${ws.name}" row ${r}`);
      continue; // a banner, or an Average row or a note under the table
    }
    if (!hasFigures(ws, r, layout)) continue;
    const source = `sheet "${ws.name}" row ${r}`;
    const day = blocks.day(a);
    if ("problem" in day) {
      rows.hold(source, "bad-date", day.problem, {
        effectiveDate: `${blocks.year ?? "?"}-${blocks.month ?? "?"}-${a}`,
      });
      continue;
    }
    readDay(ws, r, day.date, layout, rows);
  }
  return layout !== undefined;
}

const cbi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Iraq", abbreviatedName: "CBI" },
      { languageCode: "ar", name: "البنك المركزي العراقي", abbreviatedName: "البنك المركزي العراقي" },
    ],
    // Published within 10:00-12:30 UTC, Sunday to Thursday: polled from 13:00 in Baghdad (UTC+3).
    dailyUpdateTime: "13:00:00",
    bankCurrency: "IQD",
    countryCode: ["IQ"],
    region: ["Asia"],
    timeZone: "Asia/Baghdad",
    website: "https://cbi.iq",
    quoteType: "Direct",
    publicationDays: [7, 1, 2, 3, 4],
    coverageStart: "2009-01-01",
    maxRangeDays: 36500,
    sourceUrl: PAGE,
  },

  // Page 144: fetched only for the workbook's link.
  navigation: /^https:\/\/(?:www\.)?cbi\.iq\/page\/144(?:[?#]|$)/,

  async fetch(_range, { http }) {
    const session = http.session();
    const page = await session.get(PAGE, { accept: "text/html" });
    const link = requireLink(
      ID,
      decodeText(ID, page.body),
      PAGE,
      WORKBOOK_LINK,
      "the daily rates and gold workbook",
      GOLD_TEXT,
    );
    const accept = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    return [{ ...page, role: "navigation" }, await session.get(link, { accept })];
  },

  async parse(body) {
    const wb = await readXlsx(ID, body);
    const rows = new AnswerRows(ID);
    let sheets = 0;
    for (const ws of wb.worksheets) if (readSheet(ws, rows)) sheets++;
    if (sheets === 0)
      throw new FeedError(ID, 'no sheet with "Buy ID" | "Sell ID" labels: not the CBI daily rates workbook');
    return rows.result();
  },
});

export default cbi;

// Central Bank of Iraq: daily exchange rates of the dinar against the major currencies and gold,
// an XLSX linked from cbi.iq/page/144 (the link whose Arabic text mentions gold, الذهب). One sheet
// per year; under the titles, a row of currency names/codes (merged over each currency's block) and
// a row of column labels: `Buy ID` | `Sell ID` blocks, later `Buy ID` | `Sell ID` | `Sell ID 2`.
// The official figure is the exact mean of `Buy ID` and `Sell ID` (flagged "mean"), IQD per 1 unit
// (Direct); `Sell ID 2` is not used. Gold (`Gold`, per ounce) is a single column, taken as published.
// Codes are the bank's (S.FR→CHF, UAE→AED, SDR→XDR); from 2025 they sit at the end of the Arabic
// names and not always over the block's first column, so each block (a `Buy` column up to the next)
// is searched for its one code. Months are sections: a banner (`Jan. 2024`, `Feb.2026`, or only the
// year for January 2026), the day rows (the day number in column A), an `Average` row. Holidays are
// Arabic text in the rate cells and are skipped; a day with only one side published is skipped.
import type { Worksheet } from "exceljs";

import {
  FeedError,
  decodeText,
  defineAdapter,
  isoFromParts,
  mean,
  type FeedDocument,
  type RateRecord,
} from "../src/feed/kit.js";
import { findLinks, requireLink } from "../src/feed/html-links.js";
import { monthNumber } from "../src/feed/month-names.js";
import { cellDecimal, cellText, readXlsx } from "../src/feed/spreadsheet.js";

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

function layoutOf(ws: Worksheet): { labelRow: number; blocks: Block[] } | undefined {
  for (let r = 1; r <= Math.min(ws.rowCount, 12); r++) {
    const row = ws.getRow(r);
    const labels: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) labels[c] = cellText(row.getCell(c)).replace(/\s+/g, " ").toUpperCase();
    const buys = labels.flatMap((l, c) => (l === "BUY ID" ? [c] : []));
    if (buys.length === 0) continue;
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
    for (let c = buys.at(-1)! + 1; c <= ws.columnCount && gold === undefined; c++) {
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
      const end = (buys[i + 1] ?? gold ?? ws.columnCount + 1) - 1;
      const currency = codeIn(buy, end);
      if (!currency) throw new FeedError(ID, `sheet "${ws.name}": no currency code over the Buy column ${buy}`);
      let sell: number | undefined;
      for (let c = buy + 1; c <= end; c++) if (labels[c] === "SELL ID") sell = sell ?? c;
      if (sell === undefined)
        throw new FeedError(ID, `sheet "${ws.name}" ${currency}: no "Sell ID" column next to "Buy ID"`);
      return { currency, buy, sell };
    });
    if (gold !== undefined) blocks.push({ currency: "XAU", value: gold });
    return { labelRow: r, blocks };
  }
  return undefined;
}

function parseSheet(ws: Worksheet, records: RateRecord[]): boolean {
  const layout = layoutOf(ws);
  if (!layout) return false;
  const sheetYear = /^\d{4}$/.test(ws.name.trim()) ? Number(ws.name.trim()) : undefined;
  let year = sheetYear;
  let month = 0;
  for (let r = layout.labelRow + 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const a = cellText(row.getCell(1));
    if (a === "") continue;
    const banner = /^([A-Za-z]{3,9})\.?\s*(\d{4})$/.exec(a);
    if (banner) {
      const m = monthNumber(banner[1]!);
      if (!m) throw new FeedError(ID, `sheet "${ws.name}" row ${r}: unknown month banner "${a}"`);
      month = m;
      year = Number(banner[2]);
      continue;
    }
    if (/^\d{4}$/.test(a)) {
      // A banner holding only the year: the next month in the sheet's order.
      month += 1;
      year = Number(a);
      continue;
    }
    if (/^average$/i.test(a)) continue;
    if (!/^\d{1,2}$/.test(a)) continue; // notes under the table
    if (!year || month < 1 || month > 12)
      throw new FeedError(ID, `sheet "${ws.name}" row ${r}: a day row before any month banner`);
    const date = isoFromParts(year, month, a);
    for (const block of layout.blocks) {
      if (block.value !== undefined) {
        const v = cellDecimal(row.getCell(block.value));
        if (v !== undefined && /[1-9]/.test(v)) {
          if (!date)
            throw new FeedError(
              ID,
              `sheet "${ws.name}" row ${r}: a figure on an impossible date (${year}-${month}-${a})`,
            );
          records.push({ effectiveDate: date, currency: block.currency, rate: v });
        }
        continue;
      }
      const buy = cellDecimal(row.getCell(block.buy!));
      const sell = cellDecimal(row.getCell(block.sell!));
      if (buy === undefined || sell === undefined || !/[1-9]/.test(buy) || !/[1-9]/.test(sell)) continue; // holiday text, or one side only
      if (!date)
        throw new FeedError(ID, `sheet "${ws.name}" row ${r}: rates on an impossible date (${year}-${month}-${a})`);
      if (block.currency === "IQD") continue;
      records.push({ effectiveDate: date, currency: block.currency, rate: mean(buy, sell), derivation: "mean" });
    }
  }
  return true;
}

const cbi = defineAdapter({
  bank: {
    id: ID,
    names: [
      { languageCode: "en", name: "Central Bank of Iraq", abbreviatedName: "CBI" },
      { languageCode: "ar", name: "البنك المركزي العراقي", abbreviatedName: "البنك المركزي العراقي" },
    ],
    // BANKS.md: published within 10:00-12:30 UTC (Sunday to Thursday), i.e. from 13:00 in Baghdad (UTC+3).
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
    const docs: FeedDocument[] = [page];
    docs.push(await session.get(link, { accept: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }));
    return docs;
  },

  async parse(body, { url }) {
    if (!/\.xlsx(\?|$)/i.test(url)) {
      const html = decodeText(ID, body);
      if (html.trim() === "") throw new FeedError(ID, "empty body where page 144 was expected");
      if (findLinks(html, url, WORKBOOK_LINK, GOLD_TEXT).length === 0)
        throw new FeedError(ID, "page 144 has no link to the daily rates and gold workbook");
      return [];
    }
    const wb = await readXlsx(ID, body);
    const records: RateRecord[] = [];
    let sheets = 0;
    for (const ws of wb.worksheets) if (parseSheet(ws, records)) sheets++;
    if (sheets === 0)
      throw new FeedError(ID, 'no sheet with "Buy ID" | "Sell ID" labels: not the CBI daily rates workbook');
    return records;
  },
});

export default cbi;

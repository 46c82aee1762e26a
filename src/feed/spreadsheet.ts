// Reading banks' spreadsheets exactly and in bounded memory: XLSX through our own streaming reader
// (xlsx.ts: the zip's sizes checked before inflating, only the cells holding a value kept, see
// workbook.ts), old binary XLS (BIFF) through SheetJS (the maintained 0.20 line, republished on npm as
// @e965/xlsx; the frozen `xlsx@0.18.5` on npm has CVE-2023-30533 and CVE-2024-22363), whose cells are
// visited sparsely too. exceljs loaded every cell a sheet declares, formatted empty ones included: a
// whole-history workbook of sheets declaring 65,536 rows by 256 columns ran Node out of a 4 GB heap.
//
// A spreadsheet keeps a number as an IEEE double, not as text. The figure a bank typed (0.39258) is
// stored as the nearest double and comes back as the shortest decimal that round-trips to it, which
// is the typed text. Excel itself shows at most 15 significant digits, so numbers are read at 15
// significant digits (this removes the float noise of computed cells: 160.88058199999998 is
// 160.880582) and never go through arithmetic. Two readings exist, chosen per bank:
// - `stored`: the stored value, padded with zeros to the decimals the cell's number format shows
//   (0.926 shown as `0.0000` is 0.9260); for figures the bank typed in.
// - `displayed`: the value as the cell shows it, rounded half-up to the format's decimals as
//   Excel does; for cells holding unrounded averages whose published figure is the shown one.
import { Decimal } from "decimal.js";
import * as XLSX from "@e965/xlsx";

import { FeedError } from "../errors.js";
import type { IsoDate } from "../types.js";
import { isoFromParts } from "./dates.js";
import { looksLikeHtml } from "./body.js";
import { Exact, readDecimal } from "./decimal.js";
import type { Cell, Workbook } from "./workbook.js";
import { readXlsxWorkbook } from "./xlsx.js";

export type { Cell, Row, Workbook, Worksheet } from "./workbook.js";

export type NumberReading = "stored" | "displayed";

const decimalsByFormat = new Map<string, number | undefined>();

/** Decimals a number format shows (`#,##0.0000` → 4, `0.00;-0.00` → 2); undefined for General or none. */
export function formatDecimals(numFmt: string | undefined): number | undefined {
  if (!numFmt) return undefined;
  if (!decimalsByFormat.has(numFmt)) {
    if (decimalsByFormat.size >= 4096) decimalsByFormat.clear(); // a daemon meets a few dozen formats
    decimalsByFormat.set(numFmt, decimalsOf(numFmt));
  }
  return decimalsByFormat.get(numFmt);
}

function decimalsOf(numFmt: string): number | undefined {
  if (/^general$/i.test(numFmt)) return undefined;
  const first = numFmt.split(";")[0]!.replace(/\[[^\]]*\]|"[^"]*"|\\./g, "");
  const dot = /\.([0#?]+)/.exec(first);
  if (dot) return dot[1]!.length;
  return /[0#?]/.test(first) ? 0 : undefined;
}

/** The exact decimal text of a spreadsheet number (see the file comment); undefined for non-finite or negative. */
export function numberText(value: number, numFmt?: string, reading: NumberReading = "stored"): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const d = new Exact(String(value)).toSignificantDigits(15, Decimal.ROUND_HALF_UP);
  const places = formatDecimals(numFmt);
  if (places === undefined) return d.toFixed();
  if (reading === "displayed") return d.toFixed(places, Decimal.ROUND_HALF_UP);
  return d.decimalPlaces() >= places ? d.toFixed() : d.toFixed(places);
}

/** Zip (XLSX) or OLE2 (XLS) magic; anything else is refused before a reader sees it. */
function checkMagic(bankId: string, body: Uint8Array, kind: "xlsx" | "xls"): void {
  if (body.length === 0) throw new FeedError(bankId, `empty body where an ${kind.toUpperCase()} workbook was expected`);
  const head = Buffer.from(body.subarray(0, 512)).toString("latin1");
  if (looksLikeHtml(head) || /^\s*</.test(head)) {
    throw new FeedError(
      bankId,
      `an HTML page where an ${kind.toUpperCase()} workbook was expected (an error or WAF page?)`,
    );
  }
  const zip = body[0] === 0x50 && body[1] === 0x4b;
  const ole = body[0] === 0xd0 && body[1] === 0xcf && body[2] === 0x11 && body[3] === 0xe0;
  if (kind === "xlsx" ? !zip : !ole)
    throw new FeedError(bankId, `not an ${kind.toUpperCase()} workbook (unexpected leading bytes)`);
}

/**
 * Loads an XLSX workbook (its cells that hold a value); an empty, HTML, truncated or malformed body,
 * or a zip that would inflate past the bounds (src/feed/archive.ts), is a FeedError.
 */
export async function readXlsx(bankId: string, body: Uint8Array): Promise<Workbook> {
  checkMagic(bankId, body, "xlsx");
  return readXlsxWorkbook(bankId, body);
}

/** The text of a cell (text, a number, a formula's cached result, a date as ISO), trimmed; "" when empty or an error. */
export function cellText(cell: Cell): string {
  const v = cell.value;
  if (v === null) return "";
  if (typeof v === "string") return v.trim();
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === "object") return ""; // an error value (#N/A)
  return String(v);
}

/** The number a cell holds (also a formula's cached result); undefined otherwise. */
function cellNumber(cell: Cell): number | undefined {
  return typeof cell.value === "number" ? cell.value : undefined;
}

/**
 * A rate cell as exact decimal text: a number cell read as `reading` says, or a text cell holding a
 * plain decimal. Undefined for an empty cell or text that is not a number (holiday notes, dashes);
 * the caller decides whether that is a placeholder or an error.
 */
export function cellDecimal(cell: Cell, reading: NumberReading = "stored"): string | undefined {
  const n = cellNumber(cell);
  if (n !== undefined) return numberText(n, cell.numFmt, reading);
  return readDecimal(cellText(cell), { thousands: "," });
}

/** Excel serial day (1900 system, with its 1900-02-29) to an ISO date. */
export function excelSerialDate(serial: number): IsoDate | undefined {
  if (!Number.isInteger(serial) || serial < 61 || serial > 2958465) return undefined;
  const d = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
  return d.toISOString().slice(0, 10);
}

/** A date cell (a real date, a date-formatted serial, or a serial number) as ISO; undefined otherwise. */
export function cellDate(cell: Cell): IsoDate | undefined {
  const v = cell.value;
  if (v instanceof Date) {
    // A serial with a time of day is rounded to the nearest day.
    const d = new Date(Math.round(v.getTime() / 86_400_000) * 86_400_000);
    return isoFromParts(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  if (typeof v === "number") return excelSerialDate(v);
  return undefined;
}

/** Loads an old binary XLS (BIFF) workbook through SheetJS; an empty, HTML or malformed body is a FeedError. */
export function readXls(bankId: string, body: Uint8Array): XLSX.WorkBook {
  checkMagic(bankId, body, "xls");
  try {
    // No stubs for formatted empty cells, no formulas, styles or HTML: the values and their number formats.
    const wb = XLSX.read(body, {
      type: "buffer",
      cellNF: true,
      cellDates: false,
      cellText: false,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      sheetStubs: false,
    });
    if (wb.SheetNames.length === 0) throw new Error("no sheets");
    return wb;
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(bankId, `malformed or truncated XLS workbook (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/**
 * A SheetJS sheet as a grid of cells (row-major, 0-based), for label searches. Only the cells holding a
 * value are visited: each row reaches its own last such cell, rows without one are empty, and the grid
 * ends at the last row holding a value, whatever range the sheet declares (65,536 formatted rows of an
 * old workbook cost nothing).
 */
export function xlsGrid(sheet: XLSX.WorkSheet): Array<Array<XLSX.CellObject | undefined>> {
  const rows: Array<Array<XLSX.CellObject | undefined>> = [];
  for (const key of Object.keys(sheet)) {
    if (key.startsWith("!")) continue;
    const cell = sheet[key] as XLSX.CellObject;
    if (cell.t === "z" || cell.v === undefined || cell.v === null || cell.v === "") continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    while (rows.length <= r) rows.push([]);
    const row = rows[r]!;
    while (row.length < c) row.push(undefined);
    row[c] = cell;
  }
  return rows;
}

/** The trimmed text of a SheetJS cell; "" when empty. */
export function xlsText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  return String(cell.v).trim();
}

/** A SheetJS number cell as exact decimal text (see numberText), or a text cell holding a plain decimal. */
export function xlsDecimal(
  cell: XLSX.CellObject | undefined,
  reading: NumberReading = "stored",
  thousands = ",",
): string | undefined {
  if (!cell) return undefined;
  if (cell.t === "n" && typeof cell.v === "number")
    return numberText(cell.v, typeof cell.z === "string" ? cell.z : undefined, reading);
  return readDecimal(xlsText(cell), { thousands });
}

// A sheet's rows as a row reader walks them: for each row that holds a value, its cells by 0-based column,
// each with its text, its number and its number format. Made from the one XLSX reader's packed workbook
// (src/feed/xlsx.ts, workbook.ts: bounded memory, about 20 bytes a cell) for the adapters that read long
// daily histories row by row (RBNZ's B1 series, the Bank of Albania's yearly archive); an adapter can make
// the same rows from a legacy XLS sheet. Numbers read as spreadsheet.ts reads them (numberText,
// excelSerialDate): the same exact text either way.
import type { IsoDate } from "../types.js";
import { readDecimal } from "./decimal.js";
import { excelSerialDate, formatDecimals, numberText, type NumberReading } from "./spreadsheet.js";
import type { Worksheet } from "./workbook.js";

/** One cell as stored: its text (a string, or a number's shortest text) and its number. */
export interface StreamedCell {
  /** 0-based column (A is 0). */
  column: number;
  /** The cell's text: a string, or the number it holds as text; "" for an empty or error cell. */
  text: string;
  /** The number a numeric cell (or a formula's numeric result) holds; a date cell's Excel serial. */
  number?: number;
  /** The cell's number format (`#,##0.00000`, `dd\ mmm\ yyyy`), when it has one. */
  numFmt?: string;
}

/** One row: its 1-based number and its cells, by column. */
export interface StreamedRow {
  row: number;
  cells: ReadonlyMap<number, StreamedCell>;
}

const DAY_MS = 86_400_000;

/** A date value back to its Excel serial (1900 system, as excelSerialDate reads it). */
const serialOf = (d: Date) => d.getTime() / DAY_MS + 25569;

function streamedCell(column: number, value: unknown, numFmt: string | undefined): StreamedCell | undefined {
  if (value === null || value === undefined) return undefined;
  const number = typeof value === "number" ? value : value instanceof Date ? serialOf(value) : undefined;
  const text =
    number !== undefined
      ? String(number)
      : typeof value === "string" || typeof value === "boolean"
        ? String(value)
        : "";
  const cell: StreamedCell = { column, text };
  if (number !== undefined) cell.number = number;
  if (numFmt !== undefined) cell.numFmt = numFmt;
  return cell;
}

/** The rows of a sheet that hold a value, top to bottom. */
export function* sheetRows(sheet: Worksheet): Generator<StreamedRow> {
  for (const row of sheet.rows()) {
    const cells = new Map<number, StreamedCell>();
    for (const c of row.cells()) {
      const cell = streamedCell(c.col - 1, c.value, c.numFmt);
      if (cell) cells.set(cell.column, cell);
    }
    if (cells.size > 0) yield { row: row.number, cells };
  }
}

const shown = new Map<string, number | undefined>();
/** formatDecimals, once per format. */
function shownDecimals(numFmt: string | undefined): number | undefined {
  if (numFmt === undefined) return undefined;
  if (!shown.has(numFmt)) shown.set(numFmt, formatDecimals(numFmt));
  return shown.get(numFmt);
}

const PLAIN_NUMBER = /^(\d+)(?:\.(\d+))?$/;

/**
 * numberText's `stored` reading without decimal arithmetic, for the common case of a number whose shortest
 * text (`String(value)`: 0.7095 for the XML's 0.70950000000000002) is plain and of at most 15 significant
 * digits, which are then the value's; undefined otherwise (numberText decides).
 */
function plainStored(text: string, numFmt: string | undefined): string | undefined {
  const m = PLAIN_NUMBER.exec(text);
  if (!m) return undefined;
  const int = m[1]!.replace(/^0+(?=\d)/, "");
  const frac = (m[2] ?? "").replace(/0+$/, "");
  const significant = int === "0" ? frac.replace(/^0+/, "").length : int.length + frac.length;
  if (significant > 15) return undefined;
  const places = shownDecimals(numFmt);
  const decimals = places !== undefined && frac.length < places ? frac.padEnd(places, "0") : frac;
  return decimals === "" ? int : `${int}.${decimals}`;
}

/** A rate cell as exact decimal text (spreadsheet.ts's reading of numbers); undefined for an empty or non-numeric cell. */
export function streamedDecimal(cell: StreamedCell | undefined, reading: NumberReading = "stored"): string | undefined {
  if (!cell) return undefined;
  if (cell.number !== undefined) {
    return (
      (reading === "stored" ? plainStored(String(cell.number), cell.numFmt) : undefined) ??
      numberText(cell.number, cell.numFmt, reading)
    );
  }
  return readDecimal(cell.text.trim(), { thousands: "," });
}

/** A date cell (an Excel serial) as ISO; undefined otherwise. */
export function streamedDate(cell: StreamedCell | undefined): IsoDate | undefined {
  return cell?.number === undefined ? undefined : excelSerialDate(cell.number);
}

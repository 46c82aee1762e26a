// A workbook as the XLSX reader leaves it: for each sheet, only the cells that hold a value, packed in
// typed arrays (about 20 bytes a cell), whatever used range the sheet declares. Formatted empty rows
// and columns cost nothing, and a sheet claiming A1:XFD1048576 is as cheap as its values. Rows, cells
// and merged ranges are looked up by binary search; the Cell and Row objects are views made on demand.
// The surface follows exceljs's names (getRow, getCell, value, numFmt, isMerged, master), so an
// adapter reads like the exceljs code it replaced, but `rowCount` and `columnCount` count only rows
// and columns that hold a value, and `rows()` / `cells()` visit only those.

/** A cell's value: text, a number, a date (a number cell with a date format), a boolean, an error. */
export type CellValue = string | number | boolean | Date | { error: string } | null;

export interface Cell {
  readonly value: CellValue;
  /** The number format of the cell's style (`0.0000`, `General`); undefined without a style. */
  readonly numFmt: string | undefined;
  /** `B12`. */
  readonly address: string;
  readonly row: number;
  readonly col: number;
  /** In a merged range (its top-left cell, the master, included). */
  readonly isMerged: boolean;
  /** The top-left cell of its merged range; the cell itself otherwise. A merged cell shows its master's value. */
  readonly master: Cell;
}

export interface Row {
  readonly number: number;
  /** The last column holding a value in this row (0 when none). */
  readonly cellCount: number;
  getCell(col: number | string): Cell;
  /** The cells of this row that hold a value, left to right. */
  cells(): IterableIterator<Cell>;
}

export interface Worksheet {
  readonly name: string;
  readonly state: "visible" | "hidden" | "veryHidden";
  /** The last row holding a value (0 for an empty sheet), whatever range the sheet declares. */
  readonly rowCount: number;
  /** The last column holding a value, in any row. */
  readonly columnCount: number;
  getRow(row: number): Row;
  /** A cell by address (`B12`) or by row and column. */
  getCell(address: string): Cell;
  getCell(row: number, col: number): Cell;
  /** The rows that hold a value, top to bottom. */
  rows(): IterableIterator<Row>;
}

export interface Workbook {
  readonly worksheets: readonly Worksheet[];
  getWorksheet(name: string): Worksheet | undefined;
}

/** Value kinds in the packed arrays (`DateText`: an ISO date written as text, `t="d"`). */
export const Kind = { Number: 1, Text: 2, Boolean: 3, Error: 4, DateText: 5 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** A typed array that grows by doubling. */
class Grow<T extends Int32Array | Uint8Array | Float64Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export interface Merge {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** How styles turn into number formats and dates, shared by the sheets of one workbook. */
export interface StyleTable {
  /** The number format of style `s`; undefined when the cell has no style. */
  numFmt(style: number): string | undefined;
  /** Whether style `s` formats numbers as dates. */
  isDate(style: number): boolean;
  date1904: boolean;
}

/** Collects one sheet's cells as the reader finds them (rows in order, cells left to right, mostly). */
export class SheetBuilder {
  private readonly rowOf = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  private readonly colOf = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  private readonly kindOf = new Grow(new Uint8Array(1024), (n) => new Uint8Array(n));
  private readonly numOf = new Grow(new Float64Array(1024), (n) => new Float64Array(n));
  private readonly styleOf = new Grow(new Int32Array(1024), (n) => new Int32Array(n));
  private readonly texts: string[] = [];
  private readonly merges: Merge[] = [];
  private ordered = true;
  private lastRow = 0;
  private lastCol = 0;

  add(row: number, col: number, kind: Kind, value: number | string, style: number): void {
    if (row < this.lastRow || (row === this.lastRow && col <= this.lastCol)) this.ordered = false;
    this.lastRow = row;
    this.lastCol = col;
    this.rowOf.push(row);
    this.colOf.push(col);
    this.kindOf.push(kind);
    this.styleOf.push(style);
    if (typeof value === "string") {
      this.numOf.push(this.texts.length);
      this.texts.push(value);
    } else this.numOf.push(value);
  }

  merge(range: Merge): void {
    this.merges.push(range);
  }

  build(name: string, state: Worksheet["state"], styles: StyleTable): Worksheet {
    const packed: Packed = {
      row: this.rowOf.done(),
      col: this.colOf.done(),
      kind: this.kindOf.done(),
      num: this.numOf.done(),
      style: this.styleOf.done(),
      texts: this.texts,
    };
    if (!this.ordered) sortCells(packed);
    return new PackedSheet(name, state, packed, this.merges, styles);
  }
}

interface Packed {
  row: Int32Array;
  col: Int32Array;
  kind: Uint8Array;
  num: Float64Array;
  style: Int32Array;
  texts: string[];
}

/** Orders the cells by row then column (a writer may emit them out of order); a repeated cell keeps its last value. */
function sortCells(p: Packed): void {
  const order = Array.from(p.row, (_v, i) => i).sort((a, b) => p.row[a]! - p.row[b]! || p.col[a]! - p.col[b]! || a - b);
  const keep = order.filter((i, k) => {
    const next = order[k + 1];
    return next === undefined || p.row[next] !== p.row[i] || p.col[next] !== p.col[i];
  });
  p.row = Int32Array.from(keep, (i) => p.row[i]!);
  p.col = Int32Array.from(keep, (i) => p.col[i]!);
  p.kind = Uint8Array.from(keep, (i) => p.kind[i]!);
  p.num = Float64Array.from(keep, (i) => p.num[i]!);
  p.style = Int32Array.from(keep, (i) => p.style[i]!);
}

/** Column letters to number (`A` 1, `XFD` 16384); 0 when not letters. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (let i = 0; i < letters.length; i++) {
    const c = letters.charCodeAt(i) & ~0x20; // upper case
    if (c < 65 || c > 90) return 0;
    n = n * 26 + (c - 64);
  }
  return n;
}

/** Column number to letters. */
export function columnLetters(col: number): string {
  let s = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** `B12` to row and column; undefined when it is no cell address. */
export function decodeAddress(address: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(address);
  if (!m) return undefined;
  return { row: Number(m[2]), col: columnNumber(m[1]!) };
}

/** First index in `a[from, to)` whose value is >= v. */
function lowerBound(a: Int32Array, v: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Excel serial day (with its fraction) to the JavaScript Date exceljs gives. */
function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

class PackedSheet implements Worksheet {
  readonly rowCount: number;
  readonly columnCount: number;
  /** Row numbers holding values, and where each one's cells start in the packed arrays. */
  private readonly rowNumbers: Int32Array;
  private readonly rowStarts: Int32Array;
  private readonly mergesByRow = new Map<number, Merge[]>();
  private readonly tallMerges: Merge[] = [];

  constructor(
    readonly name: string,
    readonly state: Worksheet["state"],
    private readonly p: Packed,
    merges: Merge[],
    private readonly styles: StyleTable,
  ) {
    const numbers: number[] = [];
    const starts: number[] = [];
    let columns = 0;
    for (let i = 0; i < p.row.length; i++) {
      if (i === 0 || p.row[i] !== p.row[i - 1]) {
        numbers.push(p.row[i]!);
        starts.push(i);
      }
      if (p.col[i]! > columns) columns = p.col[i]!;
    }
    starts.push(p.row.length);
    this.rowNumbers = Int32Array.from(numbers);
    this.rowStarts = Int32Array.from(starts);
    let rows = numbers.at(-1) ?? 0;
    for (const m of merges) {
      if (this.index(m.top, m.left) < 0) continue; // a merge over empty cells shows nothing
      // Short ranges are indexed by row; a tall one (a whole column merged) is scanned.
      if (m.bottom - m.top < 1024)
        for (let r = m.top; r <= m.bottom; r++) this.mergesByRow.set(r, [...(this.mergesByRow.get(r) ?? []), m]);
      else this.tallMerges.push(m);
      rows = Math.max(rows, m.bottom);
      columns = Math.max(columns, m.right);
    }
    this.rowCount = rows;
    this.columnCount = columns;
  }

  /** Index of the rows table for row `r`, or -1. */
  private rowIndex(r: number): number {
    const k = lowerBound(this.rowNumbers, r, 0, this.rowNumbers.length);
    return this.rowNumbers[k] === r ? k : -1;
  }

  /** Index of cell (r, c) in the packed arrays, or -1 when it holds no value. */
  index(r: number, c: number): number {
    const k = this.rowIndex(r);
    if (k < 0) return -1;
    const i = lowerBound(this.p.col, c, this.rowStarts[k]!, this.rowStarts[k + 1]!);
    return i < this.rowStarts[k + 1]! && this.p.col[i] === c ? i : -1;
  }

  mergeAt(r: number, c: number): Merge | undefined {
    const inside = (m: Merge) => r >= m.top && r <= m.bottom && c >= m.left && c <= m.right;
    return this.mergesByRow.get(r)?.find(inside) ?? this.tallMerges.find(inside);
  }

  valueAt(i: number): CellValue {
    if (i < 0) return null;
    const v = this.p.num[i]!;
    switch (this.p.kind[i]) {
      case Kind.Number:
        return this.styles.isDate(this.p.style[i]!) ? serialToDate(v, this.styles.date1904) : v;
      case Kind.Text:
        return this.p.texts[v]!;
      case Kind.Boolean:
        return v !== 0;
      case Kind.Error:
        return { error: this.p.texts[v]! };
      case Kind.DateText: {
        const d = new Date(this.p.texts[v]!.length <= 10 ? `${this.p.texts[v]}T00:00:00Z` : this.p.texts[v]!);
        return Number.isNaN(d.getTime()) ? this.p.texts[v]! : d;
      }
      default:
        return null;
    }
  }

  numFmtAt(i: number): string | undefined {
    return i < 0 ? undefined : this.styles.numFmt(this.p.style[i]!);
  }

  getRow(row: number): Row {
    return new PackedRow(this, row, this.rowIndex(row));
  }

  getCell(a: string | number, b?: number): Cell {
    if (typeof a === "number") return new PackedCell(this, a, b ?? 1);
    const at = decodeAddress(a);
    if (!at) throw new Error(`"${a}" is not a cell address`);
    return new PackedCell(this, at.row, at.col);
  }

  *rows(): IterableIterator<Row> {
    for (let k = 0; k < this.rowNumbers.length; k++) yield new PackedRow(this, this.rowNumbers[k]!, k);
  }

  /** For rows: the packed range of row-table entry k. */
  span(k: number): [number, number] {
    return k < 0 ? [0, 0] : [this.rowStarts[k]!, this.rowStarts[k + 1]!];
  }

  colAt(i: number): number {
    return this.p.col[i]!;
  }
}

class PackedRow implements Row {
  constructor(
    private readonly sheet: PackedSheet,
    readonly number: number,
    private readonly k: number,
  ) {}

  get cellCount(): number {
    const [from, to] = this.sheet.span(this.k);
    return to > from ? this.sheet.colAt(to - 1) : 0;
  }

  getCell(col: number | string): Cell {
    return new PackedCell(this.sheet, this.number, typeof col === "number" ? col : columnNumber(col));
  }

  *cells(): IterableIterator<Cell> {
    const [from, to] = this.sheet.span(this.k);
    for (let i = from; i < to; i++) yield new PackedCell(this.sheet, this.number, this.sheet.colAt(i));
  }
}

class PackedCell implements Cell {
  private readonly at: number;
  private readonly merged: Merge | undefined;

  constructor(
    private readonly sheet: PackedSheet,
    readonly row: number,
    readonly col: number,
  ) {
    this.at = sheet.index(row, col);
    this.merged = sheet.mergeAt(row, col);
  }

  get value(): CellValue {
    if (this.merged && (this.merged.top !== this.row || this.merged.left !== this.col))
      return this.sheet.valueAt(this.sheet.index(this.merged.top, this.merged.left));
    return this.sheet.valueAt(this.at);
  }

  get numFmt(): string | undefined {
    if (this.merged && this.at < 0) return this.sheet.numFmtAt(this.sheet.index(this.merged.top, this.merged.left));
    return this.sheet.numFmtAt(this.at);
  }

  get address(): string {
    return `${columnLetters(this.col)}${this.row}`;
  }

  get isMerged(): boolean {
    return this.merged !== undefined;
  }

  get master(): Cell {
    const m = this.merged;
    if (!m || (m.top === this.row && m.left === this.col)) return this;
    return new PackedCell(this.sheet, m.top, m.left);
  }
}

/** A workbook of packed sheets. */
export class PackedWorkbook implements Workbook {
  constructor(readonly worksheets: readonly Worksheet[]) {}
  getWorksheet(name: string): Worksheet | undefined {
    return this.worksheets.find((ws) => ws.name === name);
  }
}

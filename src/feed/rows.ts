// Reading an answer row by row, so that a bad row costs only itself.
//
// An adapter reads each row (a CSV line, a table row, an XML element, a spreadsheet row) inside
// `rows.read(source, () => ...)`. A RowProblem thrown there (by `rowProblem`, or by the kit's own
// readers: requireDecimal, requireDate, resolveCurrency, requireUnits) holds that row with its reason
// and where it stood, and the reading goes on. Any other error, a FeedError included, still refuses the
// whole answer: that is for answers that are not the bank's data at all (HTML, truncated, a changed
// layout), which no row-by-row reading can save.
import { FigureOutOfBounds, RowProblem } from "../errors.js";
import type {
  Derivation,
  HeldRow,
  NameDerivation,
  ParsedAnswer,
  RateRecord,
  RowFields,
  RowProblemKind,
  UnitlessFigure,
} from "../types.js";
import { isoFromParts } from "./dates.js";
import { figureProblem, quoteFigure, readDecimal, type DecimalSyntax } from "./decimal.js";

/** Throws a RowProblem: inside `AnswerRows.read` the row is held; elsewhere the answer is refused. */
export function rowProblem(bankId: string, kind: RowProblemKind, reason: string, fields: RowFields = {}): never {
  throw new RowProblem(bankId, kind, reason, fields);
}

/**
 * Throws a RowProblem (`unknown-unit`) for a figure read whole but whose unit the answer does not state
 * and the adapter does not know: the row is held with its ISO date, and the ingest may establish the
 * unit from other banks' figures for that currency (docs/ANOMALIES.md, "Units by evidence").
 */
export function unitNotEstablished(bankId: string, figure: UnitlessFigure, reason: string): never {
  const fields = { effectiveDate: figure.effectiveDate, currency: figure.currency };
  throw new RowProblem(bankId, "unknown-unit", reason, fields, figure);
}

/** Currencies the row being read resolved by rule (code to derivation); undefined outside `AnswerRows.read`. */
let rowNames: Map<string, NameDerivation> | undefined;

/**
 * Records that the row being read named a currency by rule: its records of that currency carry the
 * derivation. False outside a row reader, where nothing can carry it. (Rows are read synchronously,
 * so the row being read is the one this call comes from.)
 */
export function noteNameDerivation(code: string, derivation: NameDerivation): boolean {
  if (rowNames === undefined) return false;
  rowNames.set(code, derivation);
  return true;
}

/** A record's derivation with a name derivation added: `mean; name "..." resolved by ...`. */
export function withNameDerivation(record: RateRecord, name: NameDerivation): RateRecord {
  const figure = record.derivation?.startsWith("name ") ? undefined : record.derivation?.split("; ")[0];
  record.derivation = figure ? (`${figure}; ${name}` as Derivation) : name;
  return record;
}

/** The rows taken and the rows held of one answer, filled one row at a time. */
export class AnswerRows {
  readonly records: RateRecord[] = [];
  readonly held: HeldRow[] = [];

  constructor(readonly bankId: string) {}

  /**
   * Reads one row. Its records (none, one or several) are taken; a RowProblem it throws holds the row,
   * with `fields` (what the row said, as the answer gave it) merged under the problem's own.
   */
  read(source: string, readRow: () => RateRecord | readonly RateRecord[] | undefined, fields: RowFields = {}): void {
    let out: RateRecord | readonly RateRecord[] | undefined;
    const outer = rowNames;
    const names = (rowNames = new Map<string, NameDerivation>());
    try {
      out = readRow();
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      const row: HeldRow = { ...fields, ...error.fields, kind: error.kind, reason: error.reason, source };
      // What the row said is kept for a person to read, never a 10-million-digit figure whole.
      if (row.rate !== undefined) row.rate = quoteFigure(row.rate);
      if (error.unitless) row.unitless = error.unitless;
      this.held.push(row);
      return;
    } finally {
      rowNames = outer;
    }
    if (out === undefined) return;
    for (const r of Array.isArray(out) ? (out as readonly RateRecord[]) : [out as RateRecord]) {
      const name = names.get(r.currency);
      this.records.push(name === undefined ? r : withNameDerivation(r, name));
    }
  }

  /** Holds a row without reading it. */
  hold(source: string, kind: RowProblemKind, reason: string, fields: RowFields = {}): void {
    this.held.push({ ...fields, kind, reason, source });
  }

  /** Takes records read elsewhere (another table of the same answer) with their held rows. */
  add(answer: ParsedAnswer): void {
    for (const r of answer.records) this.records.push(r);
    for (const h of answer.held) this.held.push(h);
  }

  result(): ParsedAnswer {
    return { records: this.records, held: this.held };
  }
}

/**
 * Reads every item as one row: `source(item, index)` names where it stands (`row 12`), `read` turns it
 * into records or throws a RowProblem.
 */
export function readRows<T>(
  bankId: string,
  items: Iterable<T>,
  source: (item: T, index: number) => string,
  read: (item: T, index: number) => RateRecord | readonly RateRecord[] | undefined,
): ParsedAnswer {
  const rows = new AnswerRows(bankId);
  let i = 0;
  for (const item of items) {
    const index = i++;
    rows.read(source(item, index), () => read(item, index));
  }
  return rows.result();
}

/** A parser's output as a ParsedAnswer (a bare array of records holds nothing). */
export function asParsedAnswer(output: RateRecord[] | ParsedAnswer): ParsedAnswer {
  return Array.isArray(output) ? { records: output, held: [] } : output;
}

/**
 * A decimal from the feed, or a RowProblem (`bad-rate`) naming the field and the text: a FigureOutOfBounds
 * when it is a decimal beyond the figure bounds (src/feed/figure-bounds.ts). The text is quoted cut short.
 */
export function requireDecimal(bankId: string, raw: unknown, what: string, syntax?: DecimalSyntax): string {
  const text = typeof raw === "string" ? readDecimal(raw, syntax) : undefined;
  if (text === undefined) {
    const shown = quoteFigure(typeof raw === "string" ? raw : String(raw));
    const bound = typeof raw === "string" ? figureProblem(raw, syntax) : undefined;
    if (bound) throw new FigureOutOfBounds(bankId, `${what}: ${bound}`, { rate: shown });
    rowProblem(bankId, "bad-rate", `${what}: "${shown}" is not a decimal number`, { rate: shown });
  }
  return text;
}

/**
 * A date read from a row (any reader's result, undefined when the text is no real date), or a
 * RowProblem (`bad-date`) quoting the text: `requireDate(ID, fromDayMonthYear(cell), cell)`.
 */
export function requireDate(bankId: string, date: string | undefined, raw: string): string {
  if (date === undefined) rowProblem(bankId, "bad-date", `"${raw}" is not a real date`, { effectiveDate: raw });
  return date;
}

/** Year, month and day of a row as an ISO date, or a RowProblem (`bad-date`): 31 June is no date. */
export function requireDateParts(
  bankId: string,
  year: number | string,
  month: number | string,
  day: number | string,
): string {
  const date = isoFromParts(year, month, day);
  return requireDate(bankId, date, `${year}-${month}-${day}`);
}

/** A unit count (`1`, `100`, `1 000`) as text of a positive integer, or a RowProblem (`unknown-unit`). */
export function requireUnits(bankId: string, raw: unknown, what = "unit"): string {
  const text = typeof raw === "string" || typeof raw === "number" ? String(raw).replace(/[\s\u00a0]/g, "") : "";
  if (!/^[1-9]\d*$/.test(text))
    rowProblem(bankId, "unknown-unit", `${what}: "${String(raw)}" is not a whole number of units`);
  return text;
}

/**
 * The answer of a bank saying positively that it published nothing for what was asked (a holiday page,
 * "No Results Found", an empty results table): `reason` says how the answer says so. Only for such
 * statements: an answer that merely yields nothing is refused by ingest ("no rates found").
 */
export function noPublication(reason: string): ParsedAnswer {
  return { records: [], held: [], noPublication: reason };
}

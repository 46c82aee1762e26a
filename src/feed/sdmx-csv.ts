// SDMX-CSV, the statistics-exchange CSV several central banks serve (ECB, Bundesbank, Norges Bank, Bank
// of Israel): one observation per line, with the series' key columns (frequency, currencies, unit) beside
// TIME_PERIOD and OBS_VALUE. One reader for all of them, streamed through papaparse because a full
// history is hundreds of thousands of lines (see BENCHMARKS.md, import).
import Papa from "papaparse";

import { FeedError } from "../errors.js";
import type { ParsedAnswer, RateRecord, RowProblemKind } from "../types.js";
import { expectFeedText } from "./body.js";
import { isPublishableCurrency } from "./currency.js";
import { isIsoDate } from "./dates.js";
import { figureProblem, quoteFigure, readDecimal } from "./decimal.js";
import { AnswerRows } from "./rows.js";

export interface SdmxCsvLayout {
  /** What the answer should be, for error messages: "an ECB SDMX-CSV answer". */
  what: string;
  /** The column of the currency a rate is for (CURRENCY, BASE_CUR...). */
  currency: string;
  /** The column of the unit multiplier (UNIT_MULT), when the dataset has one. */
  unitMultiplier?: string;
  /** Series to read: a column and the value it must hold (FREQ: D). Other lines are other series, skipped. */
  select?: Readonly<Record<string, string>>;
  /**
   * Columns every line must hold this value in (the quote currency, the rate type). Another value means
   * the answer is another dataset: it is refused whole.
   */
  expect?: Readonly<Record<string, string>>;
  /**
   * Three-letter currency column values that are not currencies (indices such as TWI): skipped on
   * purpose. Values that are not three letters (E5, I44) are skipped anyway.
   */
  skip?: ReadonlySet<string>;
  /** The dataset's own marks for a day without an observation (`.`), beside the empty cell and NaN. */
  noObservation?: readonly string[];
}

const THREE_LETTERS = /^[A-Z]{3}$/;
const NO_OBSERVATION = new Set(["", "NaN", "NA"]);

/**
 * Reads every observation of an SDMX-CSV answer. A line whose date, figure, currency or unit cannot be
 * taken is held with its line number; a missing column, a malformed CSV or a line of another dataset
 * refuses the answer.
 */
export function readSdmxCsv(bankId: string, text: string, layout: SdmxCsvLayout): ParsedAnswer {
  expectFeedText(bankId, text, layout.what);
  // The common shape (comma-separated, "\n" line ends, quotes only around whole one-line fields) is read
  // without papaparse, a third of the parse of a long history; any other text, or a line beyond that
  // shape, is read by papaparse from the start with a fresh reader.
  const fast = sdmxReader(bankId, layout);
  if (readSimpleCsv(text, fast.row)) return fast.result();
  const reader = sdmxReader(bankId, layout);
  Papa.parse<string[]>(text, {
    skipEmptyLines: true,
    step: ({ data, errors }, parser) => {
      const fatal = errors.find((e) => e.type === "Quotes" || e.type === "Delimiter");
      if (!reader.row(data, fatal && `malformed CSV (${fatal.message} at line %LINE%)`)) parser.abort();
    },
  });
  return reader.result();
}

/**
 * The reading of an SDMX-CSV answer's rows, one at a time (`row`: false once the answer is refused, when
 * nothing more is to be read), then its records and held rows (`result`: throws the refusal).
 */
function sdmxReader(bankId: string, layout: SdmxCsvLayout) {
  const rows = new AnswerRows(bankId);
  const noObservation = new Set([...NO_OBSERVATION, ...(layout.noObservation ?? [])]);
  const select = Object.entries(layout.select ?? {});
  const expect = Object.entries(layout.expect ?? {});
  let at: { currency: number; period: number; value: number; unit: number; select: number[]; expect: number[] };
  let header: string[] | undefined;
  let line = 0;
  let failure: FeedError | undefined;
  // A history repeats a few thousand dates: each is checked once.
  const goodDates = new Map<string, string>();
  const goodCurrencies = new Map<string, string>();
  const column = (name: string) => {
    const index = header!.indexOf(name);
    if (index < 0) {
      throw new FeedError(bankId, `not ${layout.what}: no ${name} column in "${header!.join(",").slice(0, 80)}"`);
    }
    return index;
  };
  // The place and fields are built only for a held line: a good line allocates nothing beyond its record.
  const holdLine = (kind: RowProblemKind, reason: string, effectiveDate: string, currency: string, rate: string) =>
    rows.hold(`line ${line}`, kind, reason, { effectiveDate, currency, rate });
  const readLine = (row: string[]): void => {
    if (header === undefined) {
      header = row.map((h) => h.trim());
      at = {
        currency: column(layout.currency),
        period: column("TIME_PERIOD"),
        value: column("OBS_VALUE"),
        unit: layout.unitMultiplier ? column(layout.unitMultiplier) : -1,
        select: select.map(([name]) => column(name)),
        expect: expect.map(([name]) => column(name)),
      };
      return;
    }
    if (row.length !== header.length)
      return rows.hold(`line ${line}`, "bad-row", `${row.length} fields for ${header.length} columns`);
    for (let k = 0; k < select.length; k++) if (row[at.select[k]!]?.trim() !== select[k]![1]) return;
    for (let k = 0; k < expect.length; k++) {
      const [name, value] = expect[k]!;
      const found = row[at.expect[k]!]?.trim();
      if (found !== value) throw new FeedError(bankId, `line ${line}: ${name} "${found}" is not ${value}`);
    }
    const rawCurrency = row[at.currency]?.trim() ?? "";
    // Index and basket series (E5, H10) share the currency column: not a three-letter code, not a rate.
    if (layout.skip?.has(rawCurrency) || !THREE_LETTERS.test(rawCurrency)) return;
    const raw = row[at.value]?.trim() ?? "";
    if (noObservation.has(raw)) return; // no observation that day
    const rawDate = row[at.period]?.trim() ?? "";
    const hold = (kind: RowProblemKind, reason: string) => holdLine(kind, reason, rawDate, rawCurrency, raw);
    // Each date and code is checked once, and every record of it shares one string.
    let date = goodDates.get(rawDate);
    if (date === undefined) {
      if (!isIsoDate(rawDate)) return hold("bad-date", `TIME_PERIOD "${rawDate}" is not a date`);
      goodDates.set(rawDate, (date = rawDate));
    }
    let currency = goodCurrencies.get(rawCurrency);
    if (currency === undefined) {
      if (!isPublishableCurrency(rawCurrency)) {
        return hold("unknown-currency", `${layout.currency} "${rawCurrency}" is neither ISO 4217 nor a market code`);
      }
      goodCurrencies.set(rawCurrency, (currency = rawCurrency));
    }
    const rate = readDecimal(raw);
    if (rate === undefined)
      return hold("bad-rate", `OBS_VALUE ${figureProblem(raw) ?? `"${quoteFigure(raw)}" is not a decimal`}`);
    const record: RateRecord = { effectiveDate: date, currency, rate };
    if (at.unit >= 0) {
      const unit = row[at.unit]?.trim() ?? "";
      if (!/^\d$/.test(unit)) return hold("unknown-unit", `${layout.unitMultiplier} "${unit}" is not 0-9`);
      if (unit !== "0") record.unitMultiplier = Number(unit);
    }
    rows.records.push(record);
  };
  return {
    /** Reads one row; `fatal`: the CSV is malformed there (`%LINE%` stands for its line number). */
    row: (data: string[], fatal?: string): boolean => {
      line++;
      try {
        if (fatal) throw new FeedError(bankId, fatal.replace("%LINE%", String(line)));
        readLine(data);
        return true;
      } catch (error) {
        failure = error instanceof FeedError ? error : new FeedError(bankId, String(error), { cause: error });
        return false;
      }
    },
    result: (): ParsedAnswer => {
      if (failure) throw failure;
      if (header === undefined) throw new FeedError(bankId, `not ${layout.what}: no header row`);
      return rows.result();
    },
  };
}

/** The delimiters papaparse guesses between, beside the comma. */
const OTHER_DELIMITERS = ["\t", "|", ";", Papa.RECORD_SEP, Papa.UNIT_SEP];

/**
 * Reads a CSV text row by row as papaparse reads it (delimiter and line end guessed, empty lines skipped)
 * when it is of the common shape: no carriage return or byte-order mark, a comma-separated first line
 * (papaparse's guess is a comma when no other delimiter it knows stands in the first lines and its first ten
 * rows have two fields or more), and quotes
 * only around a whole field that ends on its line, with `""` inside for a quote. False as soon as a line
 * is beyond that shape (rows may have been read: read it again from the start); true once every row was
 * read, or `row` said to stop.
 */
function readSimpleCsv(text: string, row: (fields: string[]) => boolean): boolean {
  if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) return false;
  let start = 0;
  let rows = 0;
  // The first lines decide papaparse's delimiter: a comma only if nothing else it would try is there.
  let lead = 0;
  for (let k = 0; k < 20 && lead >= 0; k++) lead = text.indexOf("\n", lead + 1);
  const leading = lead < 0 ? text : text.slice(0, lead);
  if (OTHER_DELIMITERS.some((d) => leading.includes(d))) return false;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const lineText = text.slice(start, end);
    start = end + 1;
    if (lineText === "") continue;
    const quote = lineText.indexOf('"');
    const fields = quote < 0 ? lineText.split(",") : quotedFields(lineText, quote);
    if (fields === undefined) return false;
    // Papaparse takes the comma only if its first ten rows average two fields or more: a row of one field
    // among them is left to it.
    if (rows++ < 10 && fields.length < 2) return false;
    if (!row(fields)) return true;
  }
  return true;
}

/**
 * The fields of a line with quotes (the first at `firstQuote`), or undefined when a quote is anywhere
 * but around a whole field.
 */
function quotedFields(lineText: string, firstQuote: number): string[] | undefined {
  // The fields before the first quote have none: split at once (an SDMX title is the last field).
  if (firstQuote > 0 && lineText.charCodeAt(firstQuote - 1) !== 44) return undefined;
  const fields = firstQuote > 0 ? lineText.slice(0, firstQuote - 1).split(",") : [];
  let i = firstQuote;
  for (;;) {
    if (lineText.charCodeAt(i) === 34) {
      let value: string | undefined;
      let from = i + 1;
      for (;;) {
        const quote = lineText.indexOf('"', from);
        if (quote < 0) return undefined; // the field goes on past the line end
        if (lineText.charCodeAt(quote + 1) === 34) {
          value = (value ?? "") + lineText.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        value = value === undefined ? lineText.slice(from, quote) : value + lineText.slice(from, quote);
        i = quote + 1;
        break;
      }
      fields.push(value);
      if (i === lineText.length) return fields;
      if (lineText.charCodeAt(i) !== 44) return undefined;
      i++;
      continue;
    }
    const comma = lineText.indexOf(",", i);
    const value = comma < 0 ? lineText.slice(i) : lineText.slice(i, comma);
    if (value.includes('"')) return undefined;
    fields.push(value);
    if (comma < 0) return fields;
    i = comma + 1;
  }
}

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
  Papa.parse<string[]>(text, {
    skipEmptyLines: true,
    step: ({ data, errors }, parser) => {
      line++;
      const fatal = errors.find((e) => e.type === "Quotes" || e.type === "Delimiter");
      try {
        if (fatal) throw new FeedError(bankId, `malformed CSV (${fatal.message} at line ${line})`);
        readLine(data);
      } catch (error) {
        failure = error instanceof FeedError ? error : new FeedError(bankId, String(error), { cause: error });
        parser.abort();
      }
    },
  });
  if (failure) throw failure;
  if (header === undefined) throw new FeedError(bankId, `not ${layout.what}: no header row`);
  return rows.result();
}

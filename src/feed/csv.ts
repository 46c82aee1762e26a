// CSV answers: one reader for every bank that serves CSV, so that a malformed file is refused the same
// way everywhere and columns are found by name (a missing column means the layout changed).
import Papa from "papaparse";

import { FeedError } from "../errors.js";
import { expectFeedText } from "./body.js";

export interface CsvOptions {
  /** Field delimiter; default ",". */
  delimiter?: string;
  /** Accept rows with more or fewer fields than the first (banks' files with notes and footers). */
  relaxColumnCount?: boolean;
  /** What the answer should be, for error messages: "an SDMX-CSV answer". Default "CSV". */
  what?: string;
}

/**
 * Every row of a CSV text, fields trimmed, empty lines skipped (papaparse, the project's one CSV reader).
 * An empty body or an HTML page, and a CSV that does not parse (an unclosed quote, a truncated file, rows
 * of different lengths unless `relaxColumnCount`), refuse the answer with a FeedError naming the bank.
 */
export function readCsv(bankId: string, text: string, options: CsvOptions = {}): string[][] {
  expectFeedText(bankId, text, options.what ?? "CSV");
  const result = Papa.parse<string[]>(text, {
    delimiter: options.delimiter ?? ",",
    skipEmptyLines: true,
    transform: (value) => value.trim(),
  });
  const fatal = result.errors.find((e) => e.type === "Quotes");
  if (fatal) throw new FeedError(bankId, `malformed CSV (${fatal.message} at row ${(fatal.row ?? 0) + 1})`);
  const rows = result.data;
  if (!options.relaxColumnCount && rows.length > 0) {
    const width = rows[0]!.length;
    const ragged = rows.findIndex((row) => row.length !== width);
    if (ragged >= 0)
      throw new FeedError(
        bankId,
        `malformed CSV (row ${ragged + 1} has ${rows[ragged]!.length} fields, the first ${width})`,
      );
  }
  return rows;
}

/**
 * The position of each named column in a header row. A missing one refuses the answer: the layout
 * changed, or this is not the file it should be.
 */
export function csvColumns<Name extends string>(
  bankId: string,
  header: readonly string[],
  names: readonly Name[],
  what = "the expected CSV",
): Record<Name, number> {
  const at = {} as Record<Name, number>;
  for (const name of names) {
    const index = header.indexOf(name);
    if (index < 0) {
      throw new FeedError(bankId, `not ${what}: no ${name} column in "${header.join(",").slice(0, 80)}"`);
    }
    at[name] = index;
  }
  return at;
}

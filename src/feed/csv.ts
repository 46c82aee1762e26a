// CSV answers: one reader for every bank that serves CSV, so that a malformed file is refused the same
// way everywhere and columns are found by name (a missing column means the layout changed).
import { parse as parseCsv } from "csv-parse/sync";

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
 * Every row of a CSV text, fields trimmed, empty lines skipped. An empty body or an HTML page, and a
 * CSV that does not parse (an unclosed quote, a truncated file, rows of different lengths unless
 * `relaxColumnCount`), refuse the answer with a FeedError naming the bank.
 */
export function readCsv(bankId: string, text: string, options: CsvOptions = {}): string[][] {
  expectFeedText(bankId, text, options.what ?? "CSV");
  try {
    // Without `columns`, csv-parse gives every row as an array of strings.
    const rows: unknown = parseCsv(text, {
      delimiter: options.delimiter ?? ",",
      relax_column_count: options.relaxColumnCount ?? false,
      skip_empty_lines: true,
      trim: true,
    });
    return rows as string[][];
  } catch (error) {
    throw new FeedError(bankId, `malformed CSV (${(error as Error).message})`, { cause: error });
  }
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

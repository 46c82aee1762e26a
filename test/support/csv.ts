// The CSV reader tests use to read what the service writes back: papaparse (the project's one CSV
// library), as RFC 4180 reads it: fields as written, a final line break ending the last row.
import Papa from "papaparse";

/** Every row of a CSV text; a malformed one (an unclosed quote) throws. */
export function parseCsv(text: string): string[][] {
  const result = Papa.parse<string[]>(text, { delimiter: ",", skipEmptyLines: false });
  if (result.errors.length > 0) throw new Error(`malformed CSV: ${result.errors[0]!.message}`);
  const rows = result.data;
  const last = rows[rows.length - 1];
  if (last !== undefined && last.length === 1 && last[0] === "") rows.pop();
  return rows;
}

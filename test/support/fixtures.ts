// The project's own small fixtures, written by hand in each bank's format (test/fixtures/<ID>/).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { asParsedAnswer } from "../../src/feed/rows.js";
import type { ParseOutput, ParsedAnswer, RateRecord } from "../../src/types.js";

export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/", import.meta.url));

export function fixture(path: string): Buffer {
  return readFileSync(`${FIXTURES_DIR}/${path}`);
}

/** The records of a parse, for exact comparison (sorted by date, then currency). */
export function sortRecords<T extends { effectiveDate: string; currency: string }>(records: T[]): T[] {
  return [...records].sort(
    (a, b) => a.effectiveDate.localeCompare(b.effectiveDate) || a.currency.localeCompare(b.currency),
  );
}

/** What a parse returned, as a ParsedAnswer (records and held rows), whichever form the adapter returns. */
export async function answerOf(output: ParseOutput | Promise<ParseOutput>): Promise<ParsedAnswer> {
  return asParsedAnswer(await output);
}

/** The records a parse took (its held rows aside). */
export async function recordsOf(output: ParseOutput | Promise<ParseOutput>): Promise<RateRecord[]> {
  return (await answerOf(output)).records;
}

// The cases every adapter test runs: bodies that are not the bank's data are refused whole with an
// error naming the bank, and a bad row is held with its reason while the rest is taken.
import { expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import { asParsedAnswer } from "../../src/feed/rows.js";
import type { HeldRow, ParseOutput, RateRecord } from "../../src/types.js";

type Parse = (body: string | Buffer) => ParseOutput | Promise<ParseOutput>;

/** Bodies no feed accepts: an empty body and an HTML error page served with status 200. */
export const NOT_A_FEED: Array<[string, string]> = [
  ["an empty body", ""],
  ["an HTML page", "<!DOCTYPE html><html><body><h1>Service unavailable</h1></body></html>"],
];

/**
 * One test per case: `parse` refuses the body as a whole with a FeedError whose message starts with
 * the bank's id. `cases` adds the bank's own (truncated, another bank's, a changed layout).
 */
export function itRefusesWhole(bankId: string, parse: Parse, cases: Array<[string, string | Buffer]> = []): void {
  it.each([...NOT_A_FEED, ...cases])(`refuses %s as a whole, naming ${bankId}`, async (_what, body) => {
    const error: unknown = await Promise.resolve()
      .then(() => parse(body))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(FeedError);
    expect((error as Error).message).toMatch(new RegExp(`^${bankId}: `));
  });
}

/**
 * Parses a body with one bad row and checks that the good rows are taken and the bad one is held
 * with the expected kind (and reason, when given).
 */
export async function expectOneHeld(
  output: ParseOutput | Promise<ParseOutput>,
  expected: {
    records: RateRecord[] | ((records: RateRecord[]) => void);
    held: Partial<HeldRow> & Pick<HeldRow, "kind">;
  },
): Promise<void> {
  const answer = asParsedAnswer(await output);
  if (typeof expected.records === "function") expected.records(answer.records);
  else expect(answer.records).toEqual(expected.records);
  expect(answer.held).toHaveLength(1);
  expect(answer.held[0]).toMatchObject(expected.held);
  expect(answer.held[0]!.reason.length).toBeGreaterThan(0);
  expect(answer.held[0]!.source.length).toBeGreaterThan(0);
}

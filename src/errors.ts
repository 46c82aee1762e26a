// Errors that end in one clear line for the operator. Anything else is a bug.
// Each class has a stable `code` (like undici's and Node's errors) that callers and tests match on,
// and keeps the error it wraps as `cause`.
import { redactSecrets } from "./secrets.js";
import type { RowFields, RowProblemKind, UnitlessFigure } from "./types.js";

/** A bad input the user can fix: unknown bank, bad date, missing file. */
export class UserError extends Error {
  override name = "UserError";
  readonly code: string = "EXRATES_USER";
}

/**
 * A feed answer an adapter does not understand as a whole (not the bank's format, HTML, truncated,
 * another bank, a changed layout). The message names the bank and the reason.
 */
export class FeedError extends Error {
  override name = "FeedError";
  readonly code: string = "EXRATES_FEED";
  constructor(
    readonly bankId: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${bankId}: ${reason}`, options);
  }
}

/**
 * One row of an answer that cannot be taken: thrown inside a row reader (src/feed/rows.ts), it holds
 * that row with its reason and the rest of the answer is read. Met outside a row reader, it is a
 * FeedError like any other and refuses the answer.
 */
export class RowProblem extends FeedError {
  override name = "RowProblem";
  override readonly code: string = "EXRATES_ROW";
  constructor(
    bankId: string,
    readonly kind: RowProblemKind,
    reason: string,
    /** What the row said, as the answer gave it. */
    readonly fields: RowFields = {},
    /** The figure read whole but for its unit (`unknown-unit` only). */
    readonly unitless?: UnitlessFigure,
  ) {
    super(bankId, reason);
  }
}

/**
 * A figure beyond the bounds every figure keeps (src/feed/figure-bounds.ts): more significant digits or
 * a magnitude no rate has. Held like any bad figure (`bad-rate`), with its own code.
 */
export class FigureOutOfBounds extends RowProblem {
  override name = "FigureOutOfBounds";
  override readonly code: string = "EXRATES_FIGURE_BOUNDS";
  constructor(bankId: string, reason: string, fields: RowFields = {}) {
    super(bankId, "bad-rate", reason, fields);
  }
}

/** A non-2xx answer, a redirect, or a network failure after the retries. */
export class HttpError extends Error {
  override name = "HttpError";
  readonly code: string = "EXRATES_HTTP";
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The one line to print for an error: known errors as they are, others flagged as unexpected; any
 * configured secret in it masked (a feed may echo a key back in its error text).
 */
export function describeError(error: unknown): string {
  if (error instanceof UserError || error instanceof FeedError || error instanceof HttpError)
    return redactSecrets(error.message);
  if (error instanceof Error) return redactSecrets(`unexpected error: ${error.message}`);
  return redactSecrets(`unexpected error: ${String(error)}`);
}

// Errors that end in one clear line for the operator. Anything else is a bug.

/** A bad input the user can fix: unknown bank, bad date, missing file. */
export class UserError extends Error {
  override name = "UserError";
}

/** A feed body or answer an adapter does not understand. The message names the bank and the reason. */
export class FeedError extends Error {
  override name = "FeedError";
  constructor(
    readonly bankId: string,
    readonly reason: string,
  ) {
    super(`${bankId}: ${reason}`);
  }
}

/** A non-2xx answer, a redirect, or a network failure after the retries. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The one line to print for an error: known errors as they are, others flagged as unexpected. */
export function describeError(error: unknown): string {
  if (error instanceof UserError || error instanceof FeedError || error instanceof HttpError) return error.message;
  if (error instanceof Error) return `unexpected error: ${error.message}`;
  return `unexpected error: ${String(error)}`;
}

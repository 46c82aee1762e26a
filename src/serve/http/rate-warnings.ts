// `X-Rate-Warnings: <count>`: how many figures of a rates answer were published with a warning (the
// cross-bank check doubted them without holding them, docs/ANOMALIES.md). Absent when none was, so an
// answer without warnings is what it always was, header for header.
const RATE_WARNINGS_HEADER = "x-rate-warnings";

/** The header for `count` warned figures: empty for none. */
export const rateWarningsHeader = (count: number): Record<string, string> =>
  count > 0 ? { [RATE_WARNINGS_HEADER]: String(count) } : {};

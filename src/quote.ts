// How an error message quotes what it was given: at most QUOTE_LIMIT characters of it, then its length,
// so that a 10,000-character amount or a megabyte of query string is not echoed back whole.

/** The characters of an input an error message repeats at most. */
export const QUOTE_LIMIT = 100;

/** `"text"`, or `"its first 100 characters…" (10000 characters)` when longer. */
export function quoted(text: string): string {
  if (text.length <= QUOTE_LIMIT) return `"${text}"`;
  let head = text.slice(0, QUOTE_LIMIT);
  // Never end on half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return `"${head}…" (${text.length} characters)`;
}

/** The text itself when short, else cut like quoted() but without the quotes. */
export function clipped(text: string, limit = QUOTE_LIMIT): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit).replace(/[\ud800-\udbff]$/, "")}… (${text.length} characters)`;
}

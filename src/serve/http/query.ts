// A request's query parameters: read by lower-case name, each at most once (`format` apart: the
// negotiation reads every one of its values), dates through the one date check (src/feed/dates.ts).
// A bad parameter throws BadRequest, which the handler answers 400 with its message.
import { isIsoDate } from "../../feed/dates.js";
import type { IsoDate } from "../../types.js";
import { quoted } from "../../quote.js";

/**
 * Whether a query names asOf or provenance (any case): the Latest handler's one test before the tree.
 * Both are answered from the store (provenance=true without asOf: as known now).
 */
export const AS_OF = /(^|&)(asof|provenance)=/i;

/** A parameter the client must fix: answered 400 with this message. */
export class BadRequest extends Error {}

/** The query's parameters by lower-case name; a parameter given twice (other than format) is refused. */
export function parameters(query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!query) return out;
  for (const [k, v] of new URLSearchParams(query)) {
    const name = k.toLowerCase();
    if (name === "format") continue;
    if (out.has(name)) throw new BadRequest(`The parameter ${quoted(name)} is given more than once`);
    out.set(name, v);
  }
  return out;
}

/** The query's parameter names (as written, each once) that are not in `supported` (lower-case names). */
export function unknownParameters(query: string, supported: ReadonlySet<string>): string[] {
  const unknown = new Set<string>();
  for (const name of new URLSearchParams(query).keys()) if (!supported.has(name.toLowerCase())) unknown.add(name);
  return [...unknown];
}

/** Every `format` query parameter's value (the name matched case-insensitively). */
export function formatValues(query: string): string[] {
  if (!query || !/(^|&)format=/i.test(query)) return [];
  const values: string[] = [];
  for (const [k, v] of new URLSearchParams(query)) if (k.toLowerCase() === "format") values.push(v);
  return values;
}

/** A date parameter: undefined when absent, BadRequest when not a real YYYY-MM-DD. */
export function dateParameter(params: Map<string, string>, name: string): IsoDate | undefined {
  const value = params.get(name);
  if (value === undefined) return undefined;
  if (!isIsoDate(value)) throw new BadRequest(`${name}: ${quoted(value)} is not a date (YYYY-MM-DD)`);
  return value;
}

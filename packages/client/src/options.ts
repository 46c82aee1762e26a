// The options of the client's methods, checked at the call: a key the method does not know (a typo, an
// option of another method) is a TypeError, never dropped, so no request goes out answering something
// other than what was asked. Each known option becomes its query parameter.
import type { AverageGroup, Frequency } from "./api-types.js";
import type { RatesOptions } from "./types.js";

export const GROUPS: readonly AverageGroup[] = ["week", "month", "quarter", "year"];

export const FREQUENCIES: readonly Frequency[] = ["Daily", "Weekly", "Monthly", "Quarterly"];

/** The options every rates method knows (`latest`, `onDate`). */
export const RATES_OPTIONS = ["currencies", "base", "asOf", "provenance", "frequency", "signal"] as const;

/** Throws a TypeError naming every key of `options` not in `known` (and `options` not being an object). */
export function checkOptions(method: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new TypeError(`${method}: options must be an object`);
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length)
    throw new TypeError(
      `${method}: unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => JSON.stringify(k)).join(", ")} (known: ${known.join(", ")})`,
    );
}

/** The query parameters of a rates request's options (each checked for its type). */
export function ratesParams(method: string, options: RatesOptions): Record<string, string> {
  const params: Record<string, string> = {};
  const { currencies, base, asOf, provenance, frequency } = options;
  if (currencies !== undefined) {
    if (!Array.isArray(currencies) || currencies.some((c) => typeof c !== "string"))
      throw new TypeError(`${method}: currencies must be an array of currency codes`);
    if (currencies.length) params.currencies = currencies.join(",");
  }
  if (base !== undefined) {
    if (typeof base !== "string" || !base) throw new TypeError(`${method}: base must be a currency code`);
    params.base = base;
  }
  if (asOf !== undefined) {
    if (asOf instanceof Date) {
      if (Number.isNaN(asOf.getTime())) throw new TypeError(`${method}: asOf is an invalid Date`);
      params.asOf = asOf.toISOString();
    } else if (typeof asOf === "string" && asOf) params.asOf = asOf;
    else throw new TypeError(`${method}: asOf must be an RFC 3339 instant or a Date`);
  }
  if (provenance !== undefined) {
    if (typeof provenance !== "boolean") throw new TypeError(`${method}: provenance must be true or false`);
    if (provenance) params.provenance = "true";
  }
  if (frequency !== undefined && !FREQUENCIES.includes(frequency))
    throw new TypeError(`${method}: frequency must be one of ${FREQUENCIES.join(", ")}`);
  return params;
}

/** A string option the API needs, checked. */
export function required(method: string, name: string, value: unknown): string {
  if (typeof value !== "string" || !value) throw new TypeError(`${method}: ${name} is required (a string)`);
  return value;
}

/** `group`: one of GROUPS. */
export function groupParam(method: string, value: unknown): string {
  if (!GROUPS.includes(value as AverageGroup))
    throw new TypeError(`${method}: group must be one of ${GROUPS.join(", ")}`);
  return value as string;
}

/** `banks`: bank ids, joined; none without it. */
export function banksParam(method: string, banks: unknown): Record<string, string> {
  if (banks === undefined) return {};
  if (!Array.isArray(banks) || banks.some((b) => typeof b !== "string" || !b))
    throw new TypeError(`${method}: banks must be an array of bank ids`);
  return banks.length ? { banks: banks.join(",") } : {};
}

// The `currencies=USD,EUR` filter of Latest, a date and a range: ISO 4217 codes (ICU knows them), and
// the header naming those the answer holds no rate of.
import { isPublishableCurrency } from "../../feed/currency.js";
import { BadRequest } from "../http/query.js";
import { quoted } from "../../quote.js";

/** Header listing the requested currencies the response holds no rate of. */
const NOT_QUOTED_HEADER = "x-currencies-not-quoted";

/** `currencies=USD,EUR`: the codes, upper case, sorted; undefined without the parameter. */
export function currencyFilter(params: Map<string, string>): string[] | undefined {
  const raw = params.get("currencies");
  if (raw === undefined) return undefined;
  const codes = new Set<string>();
  for (const part of raw.split(",")) {
    const code = part.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code) || !isPublishableCurrency(code))
      throw new BadRequest(`currencies: ${quoted(part.trim())} is neither an ISO 4217 currency code nor a market code`);
    codes.add(code);
  }
  return [...codes].sort();
}

/** The X-Currencies-Not-Quoted header of an answer holding `present`, when some requested code is not. */
export function notQuotedHeader(requested: string[] | undefined, present: Set<string>): Record<string, string> {
  const missing = (requested ?? []).filter((c) => !present.has(c));
  return missing.length ? { [NOT_QUOTED_HEADER]: missing.join(",") } : {};
}

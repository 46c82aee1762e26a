// Currency codes and names from Node's ICU, not from a hand-written table.
//
// A published currency must be an ISO 4217 code, current or historical (DEM, VEF, MRO), X-codes for
// metals and units included (XAU, XAG, XDR). ICU names every such code; the set of codes it names is
// our list, less the few it names that ISO 4217 does not have or that carry no currency (see NOT_ISO).
import { RowProblem } from "../errors.js";
import { foldName } from "./fold.js";

/** Codes ICU names that are not currencies a bank's rate can be for. */
const NOT_ISO: ReadonlySet<string> = new Set([
  "CNH", // the offshore yuan: a market code, not ISO 4217 (its banks publish CNY)
  "CNX", // a People's Bank accounting unit ICU names, not ISO 4217
  "XTS", // ISO's code reserved for testing
  "XXX", // ISO's "no currency"
]);

const englishNames = new Intl.DisplayNames("en", { type: "currency", fallback: "none" });

function allNamedCodes(): Set<string> {
  const codes = new Set<string>(Intl.supportedValuesOf("currency"));
  const A = 65;
  for (let a = 0; a < 26; a++)
    for (let b = 0; b < 26; b++)
      for (let c = 0; c < 26; c++) {
        const code = String.fromCharCode(A + a, A + b, A + c);
        if (englishNames.of(code) !== undefined) codes.add(code);
      }
  for (const code of NOT_ISO) codes.delete(code);
  return codes;
}

let known: Set<string> | undefined;

/** Every ISO 4217 code, current and historical (about 300), built once from ICU. */
export function isoCurrencyCodes(): ReadonlySet<string> {
  return (known ??= allNamedCodes());
}

/** True for an ISO 4217 code, current or historical (XAU, XDR and DEM included; CNH and made-up codes not). */
export function isIsoCurrency(code: string): boolean {
  return isoCurrencyCodes().has(code);
}

/** The English name of a currency (ICU's), or undefined for a code ICU does not know. */
export function currencyName(code: string, locale = "en"): string | undefined {
  return new Intl.DisplayNames(locale, { type: "currency", fallback: "none" }).of(code);
}

const byFoldedName = new Map<string, Map<string, string>>();

/** Folded name -> code for one locale; current codes win over historical ones that share a name. */
function namesIn(locale: string): Map<string, string> {
  let names = byFoldedName.get(locale);
  if (names) return names;
  names = new Map();
  const display = new Intl.DisplayNames(locale, { type: "currency", fallback: "none" });
  const current = new Set(Intl.supportedValuesOf("currency"));
  const ordered = [...isoCurrencyCodes()].sort((a, b) => Number(current.has(b)) - Number(current.has(a)));
  for (const code of ordered) {
    const name = display.of(code);
    if (name === undefined) continue;
    // Spaces dropped too, so that "U.S. Dollar" (folded "u s dollar") meets "US Dollar".
    const key = foldName(name).replaceAll(" ", "");
    if (!names.has(key)) names.set(key, code);
  }
  byFoldedName.set(locale, names);
  return names;
}

/**
 * The code of a currency label by ICU's names in the given locales (English by default): `US Dollar`,
 * `u.s. dollar`, `Euro`; with `["fr"]`, `Dollar des États-Unis`. Undefined when no name matches.
 */
export function currencyFromName(label: string, locales: readonly string[] = ["en"]): string | undefined {
  const key = foldName(label).replaceAll(" ", "");
  for (const locale of locales) {
    const code = namesIn(locale).get(key);
    if (code !== undefined) return code;
  }
  return undefined;
}

export interface CurrencyLabels {
  /** The bank's own labels, folded with foldName, mapped to codes: checked after ICU's names. */
  aliases?: Readonly<Record<string, string>>;
  /** Locales whose ICU names to try, in order; default English. */
  locales?: readonly string[];
}

/**
 * A currency of a row: an ISO code as it stands, else ICU's name in the given locales, else the
 * bank's alias table. Anything else throws a RowProblem (`unknown-currency`), which holds the row.
 */
export function resolveCurrency(bankId: string, label: string, labels: CurrencyLabels = {}): string {
  const trimmed = label.trim();
  if (/^[A-Z]{3}$/.test(trimmed) && isIsoCurrency(trimmed)) return trimmed;
  const folded = foldName(trimmed);
  const code = currencyFromName(trimmed, labels.locales) ?? labels.aliases?.[folded];
  if (code !== undefined && isIsoCurrency(code)) return code;
  throw new RowProblem(bankId, "unknown-currency", `currency "${trimmed}" is not a known ISO 4217 code or name`, {
    currency: trimmed,
  });
}

/**
 * An ISO code given by the feed: returned when known, else a RowProblem (`unknown-currency`). A feed's
 * own spelling of a code (MXP for today's peso) is mapped by the adapter before this check.
 */
export function requireCurrencyCode(bankId: string, code: string): string {
  const trimmed = code.trim().toUpperCase();
  if (isIsoCurrency(trimmed)) return trimmed;
  throw new RowProblem(bankId, "unknown-currency", `currency code "${code}" is not ISO 4217`, { currency: code });
}

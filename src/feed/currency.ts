// Currency codes from Node's ICU, not from a hand-written table.
//
// A published currency is an ISO 4217 code, current or historical (DEM, VEF, MRO), X-codes for metals
// and units included (XAU, XAG, XDR), or one of the few market codes central banks publish officially
// (CNH, see market-codes.ts). ICU names every ISO code; the set of codes it names is our list, less the
// few it names that ISO 4217 does not have or that carry no currency (see NOT_ISO). Names of currencies
// (a bank's "U.S.A. Dollar") are resolved by currency-names.ts, which this module does not load: the
// server imports this one.
import { RowProblem } from "../errors.js";
import { MARKET_CODES } from "./market-codes.js";

/** Codes ICU names that are not currencies a bank's rate can be for. */
const NOT_ISO: ReadonlySet<string> = new Set([
  "CNH", // the offshore yuan: a market code, not ISO 4217 (published as one: market-codes.ts)
  "CNX", // a People's Bank accounting unit ICU names, not ISO 4217
  "XTS", // ISO's code reserved for testing
  "XXX", // ISO's "no currency"
]);

/**
 * ICU's English currency names, made at first use: making them maps ICU's currency data (about 6 MiB
 * resident), which a server answering Latest never needs.
 */
let displayNames: Intl.DisplayNames | undefined;
const englishNames = () => (displayNames ??= new Intl.DisplayNames("en", { type: "currency", fallback: "none" }));

function allNamedCodes(): Set<string> {
  const codes = new Set<string>(Intl.supportedValuesOf("currency"));
  const A = 65;
  for (let a = 0; a < 26; a++)
    for (let b = 0; b < 26; b++)
      for (let c = 0; c < 26; c++) {
        const code = String.fromCharCode(A + a, A + b, A + c);
        if (englishNames().of(code) !== undefined) codes.add(code);
      }
  for (const code of NOT_ISO) codes.delete(code);
  return codes;
}

let known: Set<string> | undefined;

/** Every ISO 4217 code, current and historical (about 300), built once from ICU. */
export function isoCurrencyCodes(): ReadonlySet<string> {
  return (known ??= allNamedCodes());
}

const THREE_LETTERS = /^[A-Z]{3}$/;
/** Codes asked about one by one, answered: a feed names a few dozen. */
const answered = new Map<string, boolean>();

/**
 * True for an ISO 4217 code, current or historical (XAU, XDR and DEM included; CNH and made-up codes not).
 * The same answer as isoCurrencyCodes().has(code), asked of ICU for this code alone: building the whole set
 * asks it 17,576 times, a good part of a one-bank command's start (an import, a parse).
 */
export function isIsoCurrency(code: string): boolean {
  if (known) return known.has(code);
  let iso = answered.get(code);
  if (iso === undefined) {
    iso =
      THREE_LETTERS.test(code) &&
      !NOT_ISO.has(code) &&
      (supported().has(code) || englishNames().of(code) !== undefined);
    answered.set(code, iso);
  }
  return iso;
}

let supportedCodes: Set<string> | undefined;
const supported = () => (supportedCodes ??= new Set(Intl.supportedValuesOf("currency")));

/** True for a code exrates publishes: ISO 4217 (isIsoCurrency) or a market code (CNH). */
export function isPublishableCurrency(code: string): boolean {
  return isIsoCurrency(code) || MARKET_CODES.has(code);
}

/** The English name of a currency (ICU's), or undefined for a code ICU does not know. */
export function currencyName(code: string, locale = "en"): string | undefined {
  return new Intl.DisplayNames(locale, { type: "currency", fallback: "none" }).of(code);
}

/**
 * A code given by the feed: returned when it is ISO 4217 or a market code (CNH), else a RowProblem
 * (`unknown-currency`). A feed's own spelling of a code (MXP for today's peso) is mapped by the adapter
 * before this check.
 */
export function requireCurrencyCode(bankId: string, code: string): string {
  const trimmed = code.trim().toUpperCase();
  if (isPublishableCurrency(trimmed)) return trimmed;
  throw new RowProblem(bankId, "unknown-currency", `currency code "${code}" is neither ISO 4217 nor a market code`, {
    currency: code,
  });
}

// JSON feeds whose server serialises rates as binary doubles with 17 significant digits
// ("4.2199999999999998" for 4.22, "7.8245000000000005" for 7.8245: BNM, HKMA). The digits the bank
// set are recovered exactly with decimal arithmetic, never through a JavaScript number: a double
// holds every decimal of up to 15 significant digits exactly enough that rounding its 17-digit
// rendering to 15 significant digits gives that decimal back.
//
// A recovered figure is not the text of the body, so it is flagged with the derivation
// "float-recovered".
import type { Derivation } from "../types.js";
import { Exact } from "./decimal.js";

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Significant digits of a plain decimal's text (leading zeros excluded, trailing zeros included). */
function significantDigits(plain: string): number {
  return plain.replace(/^-/, "").replace(".", "").replace(/^0+/, "").length;
}

/**
 * The decimal a float-serialised JSON number stands for, as plain text. Up to 15 significant
 * digits the text is kept exactly as sent (trailing zeros included); beyond that the binary noise is
 * rounded away at the 15th significant digit and the zeros it leaves are dropped. An exponent is
 * written out in plain digits. Undefined for text that is not a JSON number.
 */
export function decimalFromFloatJson(text: string): string | undefined {
  const raw = text.trim();
  if (!JSON_NUMBER.test(raw)) return undefined;
  const plain = /[eE]/.test(raw) ? new Exact(raw).toFixed() : raw;
  if (significantDigits(plain) <= 15) return plain;
  const rounded = new Exact(plain).toSignificantDigits(15).toFixed();
  return rounded.includes(".") ? rounded.replace(/\.?0+$/, "") : rounded;
}

/** The derivation of a figure recovered from a float rendering. */
export const FLOAT_RECOVERED: Derivation = "float-recovered";

/**
 * A rate from a float-serialised JSON number: the text itself when it has at most 15 significant
 * digits and no exponent; otherwise the recovered decimal, flagged FLOAT_RECOVERED. Undefined for a non-number.
 */
export function rateFromFloatJson(text: string): { rate: string; derivation?: Derivation } | undefined {
  const rate = decimalFromFloatJson(text);
  if (rate === undefined) return undefined;
  const verbatim = !/[eE]/.test(text) && significantDigits(text.trim()) <= 15;
  return verbatim ? { rate } : { rate, derivation: FLOAT_RECOVERED };
}

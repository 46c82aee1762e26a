// Exact decimal text, end to end. A rate is kept as the digits the bank published; the only
// arithmetic (means, unit division, inversion, grams to ounces) is done with decimal.js, never floats.
import { Decimal } from "decimal.js";

import type { Derivation } from "../types.js";
import { FIGURE_BOUNDS, figureBoundsProblem } from "./figure-bounds.js";

/**
 * The one decimal configuration of the project: 60 significant digits (far beyond any rate), banker's
 * rounding unless an operation names its own, and plain notation (no exponent) in every output.
 */
export const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

const PLAIN = /^\d+(\.\d+)?$/;

export interface DecimalSyntax {
  /** The feed writes `12,5` for 12.5. */
  decimalComma?: boolean;
  /** Characters used as thousands separators in this feed (e.g. "," or " " or "."). */
  thousands?: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Text longer than this is never read as a decimal (a figure within bounds is at most 64 characters; the
 * slack is for thousands separators and padding), so a 10-million-digit "figure" costs no regex pass.
 */
const MAX_RAW_LENGTH = 4 * FIGURE_BOUNDS.maxTextLength;

/**
 * Reads a decimal as written in a feed and returns its plain text (`1.0850` stays `1.0850`).
 * Thousands separators are accepted only where they group the integer part by threes, so that
 * `3.576,17` read with `thousands: ","` is refused rather than becoming 3.57617.
 * Returns undefined for text that is not a decimal, or a decimal beyond the figure bounds
 * (src/feed/figure-bounds.ts), so the caller names the bank in its error and no arithmetic ever meets
 * such a figure; `figureProblem` says why.
 */
export function readDecimal(raw: string, syntax: DecimalSyntax = {}): string | undefined {
  if (raw.length > MAX_RAW_LENGTH) return undefined;
  const text = plainDecimal(raw, syntax);
  return text === undefined || figureBoundsProblem(text) !== undefined ? undefined : text;
}

/**
 * Why a feed's text that readDecimal refused is beyond the figure bounds ("a figure of 10000000
 * characters is beyond the bound of 64"), or undefined when it is within them or no decimal at all.
 */
export function figureProblem(raw: string, syntax: DecimalSyntax = {}): string | undefined {
  if (raw.length > MAX_RAW_LENGTH) return figureBoundsProblem(raw);
  const text = plainDecimal(raw, syntax);
  return text === undefined ? undefined : figureBoundsProblem(text);
}

/** A feed's text as quoted in a reason or a held row: whole up to 64 characters, else its first 32 and its length (itself within 64). */
export function quoteFigure(raw: string): string {
  return raw.length <= FIGURE_BOUNDS.maxTextLength ? raw : `${raw.slice(0, 32)}... (${raw.length} characters)`;
}

const HAS_DIGIT = /\d/;

/** The thousands separators a syntax accepts (its own, and the no-break spaces), by syntax. */
const separatorSets = new Map<string, readonly string[]>();

function separatorsOf(thousands: string, point: string): readonly string[] {
  const key = `${thousands}|${point}`;
  let separators = separatorSets.get(key);
  if (!separators) {
    separators = [...new Set([...thousands, "\u00a0", "\u202f"])].filter((s) => s !== point);
    separatorSets.set(key, separators);
  }
  return separators;
}

/** The plain text of a feed's decimal, bounds aside. */
function plainDecimal(raw: string, syntax: DecimalSyntax): string | undefined {
  // Fast path, most feeds' common case: already a plain decimal without a leading zero to drop.
  if (PLAIN.test(raw) && (raw.charCodeAt(0) !== 48 || raw.length === 1 || raw.charCodeAt(1) === 46)) return raw;
  // Nothing below adds a digit, and a decimal has one: an empty cell or a word is refused at once (most
  // of a spreadsheet's cells, read by cellDecimal).
  if (!HAS_DIGIT.test(raw)) return undefined;
  const point = syntax.decimalComma ? "," : ".";
  const pieces = raw.trim().replace(/^\+/, "").split(point);
  if (pieces.length > 2) return undefined;
  let int = pieces[0]!;
  const frac = pieces[1];
  const used = separatorsOf(syntax.thousands ?? "", point).filter((s) => int.includes(s));
  if (used.length > 1) return undefined;
  if (used.length === 1) {
    if (!new RegExp(`^\\d{1,3}(?:${escape(used[0]!)}\\d{3})+$`).test(int)) return undefined;
    int = int.split(used[0]!).join("");
  }
  let text = frac === undefined ? int : `${int}.${frac}`;
  if (text.startsWith(".")) text = `0${text}`;
  if (!PLAIN.test(text)) return undefined;
  // Leading zeros carry no meaning ("007.5" is 7.5); trailing zeros are the bank's precision and stay.
  return text.replace(/^0+(?=\d)/, "");
}

function plain(value: Decimal): string {
  return value.toFixed();
}

/** Exact mean of two decimals (official mid of a buying and a selling rate). */
export function mean(a: string, b: string): string {
  return plain(new Exact(a).plus(b).div(2));
}

/** Exact product. */
export function multiply(a: string, b: string): string {
  return plain(new Exact(a).times(b));
}

/** `1 / x` to 10 significant digits, the rule for a bank's odd-direction quotes. */
export function invert(rate: string): string {
  return plain(new Exact(1).div(rate).toSignificantDigits(10));
}

/** Grams per troy ounce, exactly. */
export const GRAMS_PER_TROY_OUNCE = "31.1034768";

export interface UnitRate {
  rate: string;
  unitMultiplier?: number;
  derivation?: Derivation;
}

/**
 * A rate quoted per `units` units: a power of ten is kept as unitMultiplier (100 JPY gives 2);
 * any other count is divided out exactly (to 1 unit), or to 10 significant digits when the
 * quotient does not terminate.
 */
export function perUnits(rate: string, units: string | number): UnitRate {
  const count = new Exact(units);
  if (!count.isInteger() || count.lte(0)) throw new RangeError(`unit count ${String(units)} is not a positive integer`);
  const digits = count.toFixed();
  if (/^10*$/.test(digits)) {
    const power = digits.length - 1;
    return power === 0 ? { rate } : { rate, unitMultiplier: power };
  }
  const quotient = new Exact(rate).div(count);
  const terminates = quotient.times(count).eq(rate) && quotient.decimalPlaces() < 40;
  return {
    rate: plain(terminates ? quotient : quotient.toSignificantDigits(10)),
    derivation: "unit-normalised",
  };
}

// The bounds every stored or computed figure keeps. No exchange rate, unit or amount needs more than
// 30 significant digits or a magnitude outside 1e-18..1e18; a figure beyond them is not a rate but a
// malformed (or hostile) answer, and arithmetic on it would cost time and memory without limit.
// The check reads the text only (no decimal arithmetic), so it costs O(64) whatever it is given.

export const FIGURE_BOUNDS = {
  /** Characters of a figure's plain decimal text. */
  maxTextLength: 64,
  /** Significant digits, trailing zeros included (they are the bank's precision). */
  maxSignificantDigits: 30,
  /** Digits before the point: below 10^18. */
  maxIntegerDigits: 18,
  /** Zeros between the point and the first significant digit: at least 10^-18. */
  maxLeadingFractionZeros: 17,
} as const;

const PLAIN = /^-?\d+(\.\d+)?$/;
/** See figureBoundsProblem: no plain decimal this long can be beyond the bounds. */
const SHORT = FIGURE_BOUNDS.maxIntegerDigits;

/**
 * Why a plain decimal text is beyond the figure bounds, or undefined when it is within them.
 * Zero is within bounds here: whether a zero is acceptable is the caller's rule, not a bound.
 */
export function figureBoundsProblem(text: string): string | undefined {
  // A plain decimal of SHORT characters or fewer is within every bound (at most 18 digits on either side,
  // at most 16 zeros after the point): a history's every figure, with one regex and no copy.
  if (text.length <= SHORT && PLAIN.test(text)) return undefined;
  if (text.length > FIGURE_BOUNDS.maxTextLength) {
    return `a figure of ${text.length} characters is beyond the bound of ${FIGURE_BOUNDS.maxTextLength}`;
  }
  if (!PLAIN.test(text)) return `"${text}" is not a plain decimal`;
  const unsigned = text.startsWith("-") ? text.slice(1) : text;
  const [int = "", frac = ""] = unsigned.split(".");
  const intDigits = int.replace(/^0+/, "");
  if (intDigits.length > FIGURE_BOUNDS.maxIntegerDigits) {
    return `a figure of ${intDigits.length} integer digits is beyond the bound of 10^${FIGURE_BOUNDS.maxIntegerDigits}`;
  }
  const digits = (intDigits + frac).replace(/^0+/, "");
  if (digits.length === 0) return undefined;
  if (intDigits.length === 0) {
    const zeros = frac.length - frac.replace(/^0+/, "").length;
    if (zeros > FIGURE_BOUNDS.maxLeadingFractionZeros) {
      return `a figure below 10^-${FIGURE_BOUNDS.maxLeadingFractionZeros + 1} is beyond the bounds`;
    }
  }
  if (digits.length > FIGURE_BOUNDS.maxSignificantDigits) {
    return `a figure of ${digits.length} significant digits is beyond the bound of ${FIGURE_BOUNDS.maxSignificantDigits}`;
  }
  return undefined;
}

/** True when the figure's text is within the bounds. */
export function figureWithinBounds(text: string): boolean {
  return figureBoundsProblem(text) === undefined;
}

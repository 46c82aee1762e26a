// One pair as every bank sees it on a date: each bank's figure as QUOTE per one BASE, made exactly from
// the figures it stored (decimal.js on the published text, never a float), and the consensus of the
// banks' same-day figures with the banks beyond the cross-bank check's band marked as outliers.
//
// A bank prices BASE/QUOTE when it quotes both (or one of them is its own currency):
//   direct:  one of the two is the bank's own currency and its figure reads as QUOTE per BASE
//            (a figure per 10^u units is shifted exactly to one unit: no rounding);
//   inverse: one of the two is the bank's own currency and its figure reads the other way: 1 / figure;
//   cross:   neither is the bank's own currency: the two prices in it divided (derived, with both figures).
// A derived figure keeps PAIR_DIGITS significant digits, rounded half away from zero; the quotient is
// taken at bounded precision (figures are within src/feed/figure-bounds.ts), so no request costs more
// because of what is stored.
import { Decimal } from "decimal.js";

import { Exact } from "../feed/decimal.js";
import { figureWithinBounds } from "../feed/figure-bounds.js";
import { DEFAULT_CROSS_CHECK } from "../ingest/sanity.js";
import type { IsoDate, PairConsensus, PairQuote, PairUsedFigure, QuoteType } from "../types.js";

export type { PairConsensus, PairQuote } from "../types.js";

/** Significant digits of a derived pair figure (as `base=` re-expressions keep). */
export const PAIR_DIGITS = 10;
export const PAIR_ROUNDING = "half away from zero";

/**
 * Quotients are truncated at this many significant digits, then rounded to PAIR_DIGITS half away from
 * zero: truncation never crosses a half, so the result is the exact quotient rounded once.
 */
const Bounded = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN, toExpNeg: -100, toExpPos: 100 });

/** One stored figure of a bank: `rate` for 10^unitMultiplier units, read as the bank's quote type says. */
export interface StoredFigure {
  currency: string;
  rate: string;
  unitMultiplier: number;
}

/** A bank's set in force on a date, as the store gives it. */
export interface BankDay {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
  effectiveDate: IsoDate;
  /** When the newest of the day's figures was stored (the bank's publication as the service saw it). */
  publishedAt: string;
  figures: readonly StoredFigure[];
}

/** A figure a pair figure was made from, as the bank published it (the answer's shape, api-types.ts). */
export type UsedFigure = PairUsedFigure;

/** One bank's figure of the pair. */
export interface BankPairFigure {
  bankId: string;
  /** QUOTE per one BASE. */
  rate: string;
  effectiveDate: IsoDate;
  publishedAt: string;
  quote: PairQuote;
  /** True for inverse and cross: the figure is not one the bank published. */
  derived: boolean;
  /** The bank's own currency (a cross goes through it). */
  through: string;
  /** The bank's figures it was made from (one for direct and inverse, two for a cross). */
  from: UsedFigure[];
  /** For a derived figure: the digits it keeps and the rounding rule. */
  rounding?: { digits: number; rule: string };
}

/**
 * The price of one unit of `currency` in the bank's own currency as an exact fraction `num / den`
 * (a quotient is taken once, at the end); undefined when not quoted.
 */
function priceIn(day: BankDay, currency: string): { num: Decimal; den: Decimal; used?: UsedFigure } | undefined {
  if (currency === day.baseCurrency) return { num: new Exact(1), den: new Exact(1) };
  const f = day.figures.find((r) => r.currency === currency);
  if (!f || !figureWithinBounds(f.rate) || new Exact(f.rate).lte(0)) return undefined;
  const unit = new Exact(10).pow(f.unitMultiplier);
  const rate = new Exact(f.rate);
  const direct = day.quoteType === "Direct";
  const unitText = unit.toFixed();
  const used: UsedFigure = {
    currency,
    rate: f.rate,
    unit: unitText,
    reads: direct
      ? `${day.baseCurrency} per ${unitText === "1" ? "" : `${unitText} `}${currency}`
      : `${currency} per ${unitText === "1" ? "" : `${unitText} `}${day.baseCurrency}`,
  };
  return direct ? { num: rate, den: unit, used } : { num: unit, den: rate, used };
}

/** A plain decimal divided by 10^places by moving its point, every written digit kept ("1.230", 2: "0.01230"). */
export function shiftPoint(text: string, places: number): string {
  if (places === 0) return text;
  const [int = "", frac = ""] = text.split(".");
  const digits = int.padStart(places + 1, "0");
  const head = digits.slice(0, digits.length - places).replace(/^0+(?=\d)/, "");
  return `${head}.${digits.slice(digits.length - places)}${frac}`;
}

/**
 * `value` to `digits` significant digits, half away from zero, written with all of them (a trailing
 * zero is one of the ten) and without an exponent.
 */
export function roundDerived(value: Decimal, digits = PAIR_DIGITS): string {
  const rounded = new Decimal(value).toSignificantDigits(digits, Decimal.ROUND_HALF_UP);
  return rounded.isZero() ? "0" : rounded.toFixed(Math.max(0, digits - 1 - rounded.e));
}

/**
 * The bank's figure of BASE/QUOTE (QUOTE per one BASE), or undefined when it cannot price the pair:
 * it quotes neither as its own currency and not both, or BASE is QUOTE.
 */
export function bankPairFigure(day: BankDay, base: string, quote: string): BankPairFigure | undefined {
  if (base === quote) return undefined;
  const b = priceIn(day, base);
  const q = priceIn(day, quote);
  if (!b || !q) return undefined;
  // QUOTE per BASE = price(BASE) / price(QUOTE), one truncated quotient of exact products.
  const value = new Bounded(b.num.times(q.den)).div(b.den.times(q.num));
  const common = { bankId: day.bankId, effectiveDate: day.effectiveDate, publishedAt: day.publishedAt };
  const own = day.baseCurrency;
  if (base !== own && quote !== own) {
    return {
      ...common,
      rate: roundDerived(value),
      quote: "cross",
      derived: true,
      through: own,
      from: [b.used!, q.used!],
      rounding: { digits: PAIR_DIGITS, rule: PAIR_ROUNDING },
    };
  }
  // One of the two is the bank's own currency: the other one's figure, as published or inverted.
  const used = (base === own ? q.used : b.used)!;
  // The published figure reads as QUOTE per BASE when QUOTE is what it counts: a Direct bank counts its
  // own currency (pair X/own), an Indirect one the foreign currency (pair own/X).
  const reads = day.quoteType === "Direct" ? quote === own : base === own;
  if (reads) {
    // Exact: the published digits, the point shifted by the unit's power of ten.
    const rate = shiftPoint(used.rate, used.unit.length - 1);
    return { ...common, rate, quote: "direct", derived: false, through: own, from: [used] };
  }
  return {
    ...common,
    rate: roundDerived(value),
    quote: "inverse",
    derived: true,
    through: own,
    from: [used],
    rounding: { digits: PAIR_DIGITS, rule: PAIR_ROUNDING },
  };
}

/** A bank's figure beside the consensus: whether it is beyond the band, and why. */
export interface Judged extends BankPairFigure {
  /** Published on the consensus date (the median is of these). */
  sameDay: boolean;
  outlier: boolean;
  reason?: string;
}

export interface PairAnswer {
  base: string;
  quote: string;
  /** The date asked (undefined: Latest). */
  date?: IsoDate;
  figures: Judged[];
  consensus?: PairConsensus;
  /** Banks asked for that have no figure of the pair, with why. */
  unpriced: Array<{ bankId: string; reason: string }>;
}

export interface PairSettings {
  band: number;
  minBanks: number;
}

/** The median of sorted exact values (the mean of the two middle ones for an even count: exact). */
export function medianOf(sorted: readonly Decimal[]): Decimal {
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return new Exact(sorted[mid - 1]!).plus(sorted[mid]!).div(2);
}

const compare = (a: Decimal, b: Decimal) => a.comparedTo(b);

/** The consensus date: the newest effective date at least two figures share, else the newest. */
function consensusDate(figures: readonly BankPairFigure[]): IsoDate {
  const counts = new Map<IsoDate, number>();
  for (const f of figures) counts.set(f.effectiveDate, (counts.get(f.effectiveDate) ?? 0) + 1);
  const dates = [...counts.keys()].sort().reverse();
  return dates.find((d) => counts.get(d)! >= 2) ?? dates[0]!;
}

const sig = (n: number) => Number(n.toPrecision(4)).toString();

/**
 * Why a figure is beyond the band from the median (undefined when within): a power of ten off (a unit
 * slip), the inverse agreeing (a direction slip), or simply how many times the median it is.
 */
export function outlierReason(rate: string, median: Decimal, band: number): string | undefined {
  const off = Math.log(Number(rate) / median.toNumber());
  const tolerance = Math.log(1 + band);
  if (Math.abs(off) <= tolerance) return undefined;
  const where = `the median ${median.toFixed()}`;
  const steps = Math.round(off / Math.LN10);
  const inverse = Math.log(1 / Number(rate) / median.toNumber());
  const inverseSteps = Math.round(inverse / Math.LN10);
  if (Math.abs(inverse - inverseSteps * Math.LN10) <= tolerance && Math.abs(inverse) < Math.abs(off))
    return `${rate} reads the other way round: its inverse${inverseSteps ? ` times 10^${-inverseSteps}` : ""} agrees with ${where}`;
  if (steps !== 0 && Math.abs(off - steps * Math.LN10) <= tolerance)
    return `${rate} is 10^${steps} times ${where}: a unit slip?`;
  return `${rate} is ${sig(Math.exp(off))} times ${where}, beyond the ${band * 100}% band`;
}

/** The consensus of the same-day figures and each figure judged against it. */
export function consensusOf(
  figures: readonly BankPairFigure[],
  settings: PairSettings = DEFAULT_CROSS_CHECK,
): { judged: Judged[]; consensus?: PairConsensus } {
  if (figures.length === 0) return { judged: [] };
  const date = consensusDate(figures);
  const same = figures.filter((f) => f.effectiveDate === date);
  const values = same.map((f): Decimal => new Exact(f.rate)).sort(compare);
  const median = medianOf(values);
  const min = values[0]!;
  const max = values.at(-1)!;
  const judged = figures.map((f): Judged => {
    const sameDay = f.effectiveDate === date;
    // Enough other same-day banks to speak against it (the check's minimum), else it is only listed.
    const others = same.length - (sameDay ? 1 : 0);
    const reason = others >= settings.minBanks ? outlierReason(f.rate, median, settings.band) : undefined;
    return { ...f, sameDay, outlier: reason !== undefined, ...(reason ? { reason } : {}) };
  });
  const consensus: PairConsensus = {
    date,
    banks: same.length,
    median: median.toFixed(),
    min: min.toFixed(),
    max: max.toFixed(),
    dispersion: roundDerived(new Bounded(max).minus(min).div(median)),
    band: settings.band,
    minBanks: settings.minBanks,
    outliers: judged.filter((j) => j.outlier).map((j) => j.bankId),
  };
  return { judged, consensus };
}

/** The pair across the given banks' days: every bank that prices it, and their consensus. */
export function pairAcross(
  days: readonly BankDay[],
  base: string,
  quote: string,
  settings: PairSettings = DEFAULT_CROSS_CHECK,
  date?: IsoDate,
): PairAnswer {
  const priced: BankPairFigure[] = [];
  const unpriced: PairAnswer["unpriced"] = [];
  for (const day of days) {
    const figure = bankPairFigure(day, base, quote);
    if (figure) priced.push(figure);
    else unpriced.push({ bankId: day.bankId, reason: unpricedReason(day, base, quote) });
  }
  priced.sort((a, b) => (a.bankId < b.bankId ? -1 : a.bankId > b.bankId ? 1 : 0));
  const { judged, consensus } = consensusOf(priced, settings);
  return { base, quote, ...(date ? { date } : {}), figures: judged, ...(consensus ? { consensus } : {}), unpriced };
}

function unpricedReason(day: BankDay, base: string, quote: string): string {
  const missing = [base, quote].filter((c) => c !== day.baseCurrency && !day.figures.some((f) => f.currency === c));
  if (missing.length === 0) return `${day.bankId}'s figure is beyond the figure bounds`;
  return `${day.bankId} quoted no ${missing.join(" and no ")} on ${day.effectiveDate}`;
}

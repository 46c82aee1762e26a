// Figures the bank did not publish, made exactly from those it did: an amount converted through a
// bank's table (Convert, `exrates convert`), and a table re-expressed against another of its currencies
// (`base=`). Every step is decimal.js on the published text, never a float; a rounding is done on the
// exact quotient (integer division and its remainder), so no digit is rounded twice.
//
// How a figure reads (`u` its unitMultiplier; the table's base currency is the figure 1, unit 1):
//   Direct:   10^u units of the currency = rate units of the base currency
//   Indirect: 1 unit of the base currency = rate / 10^u units of the currency
// so an amount A of F is A x rateF x 10^uT / (rateT x 10^uF) units of T through a Direct table, and
// A x rateT x 10^uF / (rateF x 10^uT) through an Indirect one.
import { Decimal } from "decimal.js";

import type { HistoryDay, HistoryHeader } from "./render-history.js";
import type { HistoryRow } from "../store/history.js";
import type { IsoDate } from "../types.js";
import { quoted } from "../quote.js";
import { figureUsable, usableFigures } from "../store/figure-guard.js";

/**
 * Wide enough that every product and integer quotient below is exact: an amount has at most 30
 * digits, a stored rate at most a few dozen, and the quotients are asked for at most 40 decimals.
 */
const Wide = Decimal.clone({ precision: 400, rounding: Decimal.ROUND_DOWN, toExpNeg: -500, toExpPos: 500 });

/** A quotient's order of magnitude, cheaply: truncated, so that its exponent is the exact quotient's. */
const Rough = Decimal.clone({ precision: 12, rounding: Decimal.ROUND_DOWN, toExpNeg: -500, toExpPos: 500 });
const exponentOf = (n: Decimal, d: Decimal) => new Rough(n).div(new Rough(d)).e;

/** The longest amount accepted, in digits. */
export const MAX_AMOUNT_DIGITS = 30;
/** Significant digits of a re-expressed rate (`base=`). */
export const REBASED_DIGITS = 10;
/** Significant digits at least of a conversion's unrounded result. */
export const UNROUNDED_DIGITS = 20;

export const ROUNDING_RULE = "half away from zero";

/** Why an amount is refused; undefined for a plain non-negative decimal of at most 30 digits. */
export function amountProblem(text: string): string | undefined {
  if (!/^\d+(\.\d+)?$/.test(text))
    return `amount: ${quoted(text)} is not a plain non-negative decimal (digits, optionally a point and more digits; no sign, exponent or separator)`;
  if (text.replace(".", "").length > MAX_AMOUNT_DIGITS)
    return `amount: ${quoted(text)} has more than ${MAX_AMOUNT_DIGITS} digits`;
  return undefined;
}

const minorDigitsCache = new Map<string, number>();

/** ISO 4217 minor units of a currency, as ICU knows them (JPY 0, EUR 2, KWD 3). */
export function minorDigits(currency: string): number {
  let digits = minorDigitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigitsCache.set(currency, digits);
  }
  return digits;
}

/** n / d to `places` decimals: rounded half away from zero (`round`) or truncated; `exact` when nothing was cut. */
function quotient(n: Decimal, d: Decimal, places: number, round: boolean): { value: Decimal; exact: boolean } {
  const scaled = n.times(pow10(places));
  let q = scaled.divToInt(d);
  const rest = scaled.minus(q.times(d));
  if (round && rest.times(2).gte(d)) q = q.plus(1);
  return { value: q.div(pow10(places)), exact: rest.isZero() };
}

/** n / d to `digits` significant digits, half away from zero (both positive), as text. */
function significant(n: Decimal, d: Decimal, digits: number): string {
  const places = Math.max(0, digits - 1 - exponentOf(n, d));
  // Written with all its digits (0.04821135860, not 0.0482113586): the trailing zero is one of the ten.
  return quotient(n, d, places, true).value.toPrecision(digits, Decimal.ROUND_HALF_UP);
}

const POWERS = Array.from({ length: 64 }, (_, i) => new Wide(`1e${i}`));
const pow10 = (n: number) => POWERS[n] ?? new Wide(10).pow(n);
const unitOf = (u: number) => `1${"0".repeat(u)}`;

/** One figure of the bank used by a conversion. */
export interface UsedFigure {
  currency: string;
  rate: string;
  /** The units of the currency the rate is for (1, 100, 1000...). */
  unit: number;
  effectiveDate: IsoDate;
}

/** An amount converted through a bank's table. */
export interface Conversion {
  bankId: string;
  baseCurrency: string;
  quoteType: HistoryHeader["quoteType"];
  /** The date asked for, when one was. */
  date?: IsoDate;
  effectiveDate: IsoDate;
  amount: string;
  from: string;
  to: string;
  /** Rounded to the target currency's minor units, half away from zero. */
  result: string;
  /**
   * The quotient cut to UNROUNDED_DIGITS significant digits, or to its whole integer part when that is
   * longer (never a made-up zero); the exact quotient when it ends sooner.
   */
  unrounded: string;
  unroundedExact: boolean;
  decimals: number;
  rounding: string;
  figures: UsedFigure[];
  formula: string;
}

/** A table: its header, the date of its figures, and the figures by currency. */
export interface Table {
  header: HistoryHeader;
  date: IsoDate;
  figures: ReadonlyMap<string, HistoryRow>;
}

/**
 * The currencies of `wanted` the table has no usable figure of (its base currency always has one): a
 * stored figure beyond the figure bounds is refused here, logged, and never computed on.
 */
export function missingFrom(table: Table, wanted: string[]): string[] {
  const usable = (c: string) => {
    const figure = table.figures.get(c);
    return figure !== undefined && figureUsable(table.header.bankId, figure, "Convert");
  };
  return wanted.filter((c) => c !== table.header.baseCurrency && !usable(c));
}

/** `amount` of `from` in `to` through the table (both quoted, or its base currency: see missingFrom). */
export function convert(table: Table, amount: string, from: string, to: string, date?: IsoDate): Conversion {
  const { header } = table;
  const figure = (c: string) => (c === header.baseCurrency ? undefined : table.figures.get(c)!);
  const f = figure(from);
  const t = figure(to);
  for (const r of [f, t])
    if (r && !figureUsable(header.bankId, r, "Convert"))
      throw new RangeError(`${r.currency}: figure beyond the bounds`);
  const rate = (r: HistoryRow | undefined) => new Wide(r?.rate ?? 1);
  const unit = (r: HistoryRow | undefined) => pow10(r?.unitMultiplier ?? 0);
  // Direct: A x rF x unitT / (rT x unitF); Indirect: A x rT x unitF / (rF x unitT).
  const [up, down] = header.quoteType === "Direct" ? [f, t] : [t, f];
  const same = from === to;
  const n = same ? new Wide(amount) : new Wide(amount).times(rate(up)).times(unit(down));
  const d = same ? new Wide(1) : rate(down).times(unit(up));
  const decimals = minorDigits(to);
  const rounded = quotient(n, d, decimals, true).value.toFixed(decimals);
  const places = Math.max(0, UNROUNDED_DIGITS - 1 - (n.isZero() ? 0 : exponentOf(n, d)));
  const cut = quotient(n, d, places, false);
  const used = same ? [] : [f, t].filter((r): r is HistoryRow => r !== undefined);
  return {
    bankId: header.bankId,
    baseCurrency: header.baseCurrency,
    quoteType: header.quoteType,
    ...(date !== undefined ? { date } : {}),
    effectiveDate: table.date,
    amount,
    from,
    to,
    result: rounded,
    // Exact: as short as it is; cut: all 20 digits, a trailing zero among them.
    unrounded: cut.exact ? cut.value.toFixed() : cut.value.toFixed(places),
    unroundedExact: cut.exact,
    decimals,
    rounding: ROUNDING_RULE,
    figures: used.map((r) => ({
      currency: r.currency,
      rate: r.rate,
      unit: Number(unitOf(r.unitMultiplier)),
      effectiveDate: r.effectiveDate,
    })),
    formula: same ? amount : formula(amount, up, down),
  };
}

/** `1250.00 x 13.141 / 100 / 24.170`: the amount times the upper figure over its unit, over the lower one. */
function formula(amount: string, up: HistoryRow | undefined, down: HistoryRow | undefined): string {
  let out = amount;
  if (up) out += ` x ${up.rate}${up.unitMultiplier ? ` / ${unitOf(up.unitMultiplier)}` : ""}`;
  if (down) out += ` / ${down.rate}${down.unitMultiplier ? ` x ${unitOf(down.unitMultiplier)}` : ""}`;
  return out;
}

/** The header of a table re-expressed against `base`: marked derived, naming what it was derived from. */
export function rebasedHeader(header: HistoryHeader, base: string): HistoryHeader {
  return {
    bankId: header.bankId,
    baseCurrency: base,
    quoteType: header.quoteType,
    derivedFrom: { baseCurrency: header.baseCurrency, quoteType: header.quoteType },
    // A period source's figures keep their validity (validityOf below), so its columns stay too.
    ...(header.periodic ? { periodic: true } : {}),
  };
}

/**
 * A day re-expressed against `base` (a currency of the day, not its base currency): each rate is
 * rate x 10^uBase / rateBase, to 10 significant digits half away from zero, its unit kept; the old
 * base currency becomes a row (unit 1) and `base` leaves. Undefined when the day has no figure of `base`.
 */
export function rebaseDay(header: HistoryHeader, day: HistoryDay, base: string): HistoryDay | undefined {
  // A stored figure beyond the bounds is left out (logged), never divided: as if the bank had not quoted it.
  const usable = usableFigures(header.bankId, day.rows, "base=");
  const pivot = usable.find((r) => r.currency === base);
  if (!pivot) return undefined;
  const over = new Wide(pivot.rate);
  const scale = pow10(pivot.unitMultiplier);
  const rows: HistoryRow[] = [];
  let own: HistoryRow | undefined = {
    effectiveDate: day.date,
    currency: header.baseCurrency,
    rate: significant(scale, over, REBASED_DIGITS),
    unitMultiplier: 0,
    ...validityOf(pivot, pivot),
  };
  for (const r of usable) {
    if (r.currency === base) continue;
    if (own && own.currency < r.currency) {
      rows.push(own);
      own = undefined;
    }
    const rate = significant(new Wide(r.rate).times(scale), over, REBASED_DIGITS);
    rows.push({
      effectiveDate: day.date,
      currency: r.currency,
      rate,
      unitMultiplier: r.unitMultiplier,
      ...validityOf(r, pivot),
    });
  }
  if (own) rows.push(own);
  return { date: day.date, rows };
}

/**
 * A re-expressed figure's validity (a period source's): the days both of its figures are in force, the
 * later start and the earlier end; none when either figure has none (a daily bank).
 */
function validityOf(row: HistoryRow, pivot: HistoryRow): Pick<HistoryRow, "validFrom" | "validTo"> {
  if (!row.validFrom || !row.validTo || !pivot.validFrom || !pivot.validTo) return {};
  return {
    validFrom: row.validFrom > pivot.validFrom ? row.validFrom : pivot.validFrom,
    validTo: row.validTo < pivot.validTo ? row.validTo : pivot.validTo,
  };
}

// What other banks say a currency is worth, shared by the cross-bank check (sanity.ts) and units by
// evidence (units.ts). Every bank's figures give the price of each currency in that bank's base, so any
// bank quoting two currencies (or having one as its base) gives an independent cross rate between them;
// the median of those crosses is the consensus. When no other bank quotes a bank's base, its figure is
// measured through a common currency instead: the bank's own figures of, say, JPY and USD imply a JPY
// price in USD, which the world's JPY/USD crosses can judge. Prices are floating-point: they only ever
// decide whether to hold or which power of ten fits, never what is stored.
import { addDays } from "../feed/dates.js";
import { figureUsable } from "../store/figure-guard.js";
import type { BankQuoting, IsoDate, QuoteType, RateRecord } from "../types.js";

/** A stored figure of some bank. */
export interface Figure {
  bankId: string;
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  unitMultiplier: number;
}

/** The price of one unit of the currency in the bank's base currency. */
export function priceOf(rate: string, unitMultiplier: number, quoteType: QuoteType): number {
  const value = Number(rate);
  return quoteType === "Direct" ? value / 10 ** unitMultiplier : 10 ** unitMultiplier / value;
}

export const significant = (n: number) => Number(n.toPrecision(6)).toString();

/**
 * date -> bank -> currency -> price in that bank's base (its base itself at 1). Keyed by date first: a
 * consensus asks one day at a time, and on most days of a long history few of the stored banks published
 * (a first import of 18 years asked every bank for every figure, 40% of the import's time).
 */
export type PriceTables = Map<IsoDate, Map<string, Map<string, number>>>;

export function priceTables(others: readonly Figure[], banks: ReadonlyMap<string, BankQuoting>): PriceTables {
  const tables: PriceTables = new Map();
  for (const f of others) {
    const quoting = banks.get(f.bankId);
    // A stored figure beyond the bounds judges nothing (and Number() of ten million digits is no price).
    if (!quoting || !figureUsable(f.bankId, f, "cross-bank check")) continue;
    let byBank = tables.get(f.effectiveDate);
    if (!byBank) tables.set(f.effectiveDate, (byBank = new Map<string, Map<string, number>>()));
    let day = byBank.get(f.bankId);
    if (!day) byBank.set(f.bankId, (day = new Map([[quoting.baseCurrency, 1]])));
    day.set(f.currency, priceOf(f.rate, f.unitMultiplier, quoting.quoteType));
  }
  return tables;
}

export interface Consensus {
  /** Each other bank's cross rate (one per bank). */
  prices: number[];
  /** The banks giving them, in the same order. */
  bankIds: string[];
  /** Their median. */
  price: number;
  banks: number;
  /** The day the crosses are of: the figure's own, or the nearest earlier one within the lag. */
  date: IsoDate;
  sameDay: boolean;
}

/**
 * The consensus price of `currency` in `measure` on `date`: the median of other banks' cross rates, from
 * that day when any bank published it, else from the nearest earlier day within lagDays.
 */
export function consensusOf(
  tables: PriceTables,
  date: IsoDate,
  currency: string,
  measure: string,
  lagDays: number,
): Consensus | undefined {
  for (let back = 0; back <= lagDays; back++) {
    const day = back === 0 ? date : addDays(date, -back);
    const crosses: Array<[number, string]> = [];
    for (const [bankId, table] of tables.get(day) ?? []) {
      const c = table.get(currency);
      const b = table.get(measure);
      if (c !== undefined && b !== undefined && b > 0) crosses.push([c / b, bankId]);
    }
    if (crosses.length > 0) {
      crosses.sort((x, y) => x[0] - y[0]);
      const values = crosses.map((c) => c[0]);
      const mid = values.length >> 1;
      const price = values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
      const bankIds = crosses.map((c) => c[1]);
      return { prices: values, bankIds, price, banks: values.length, date: day, sameDay: back === 0 };
    }
  }
  return undefined;
}

/** True when the price is within the band of at least one of the consensus' crosses. */
export function anyAgrees(price: number, consensus: Consensus, band: number): boolean {
  const tolerance = Math.log(1 + band);
  return consensus.prices.some((p) => Math.abs(Math.log(price / p)) <= tolerance);
}

/**
 * The currencies the world quotes most, tried in this order as the common measure of a bank whose base
 * no other bank quotes.
 */
export const COMMON_CURRENCIES: readonly string[] = ["USD", "EUR", "GBP", "CHF", "JPY", "CNY"];

/** A figure measured through the bank's own figure of a common currency. */
export interface CommonMeasure {
  /** The common currency (USD...). */
  measure: string;
  /** The bank's own price of it, in its base, that day. */
  measurePrice: number;
  consensus: Consensus;
}

/**
 * The bank's own prices, date by date, for measuring through a common currency: its stored figures and
 * the figures screened now (which win). A common currency serves on a day only when at least one other
 * figure of the bank that day agrees with the world through it: a slip in the bank's USD itself must
 * not make every other figure look wrong.
 */
export class OwnPrices {
  private readonly days = new Map<IsoDate, Map<string, number>>();
  /** `date measure` -> currencies of the bank that agree with the world through that measure. */
  private readonly vouched = new Map<string, string[]>();

  constructor(
    private readonly quoting: BankQuoting,
    private readonly tables: PriceTables,
    private readonly settings: { band: number; lagDays: number },
    stored: readonly Figure[],
    fresh: readonly RateRecord[],
  ) {
    for (const f of stored) this.set(f.effectiveDate, f.currency, priceOf(f.rate, f.unitMultiplier, quoting.quoteType));
    for (const r of fresh)
      this.set(r.effectiveDate, r.currency, priceOf(r.rate, r.unitMultiplier ?? 0, quoting.quoteType));
  }

  private set(date: IsoDate, currency: string, price: number) {
    let day = this.days.get(date);
    if (!day) this.days.set(date, (day = new Map<string, number>()));
    day.set(currency, price);
  }

  /** The bank's currencies that agree with the world through `measure` on `date`. */
  private agreeing(date: IsoDate, measure: string): string[] {
    const key = `${date} ${measure}`;
    let out = this.vouched.get(key);
    if (out) return out;
    out = [];
    const day = this.days.get(date)!;
    const measurePrice = day.get(measure)!;
    for (const [currency, price] of day) {
      if (currency === measure) continue;
      const c = consensusOf(this.tables, date, currency, measure, this.settings.lagDays);
      if (c && anyAgrees(price / measurePrice, c, this.settings.band)) out.push(currency);
    }
    this.vouched.set(key, out);
    return out;
  }

  /**
   * The first common currency the bank quotes on `date` through which other banks give a consensus
   * for `currency`, and which another figure of the bank confirms that day; undefined: none.
   */
  commonMeasure(date: IsoDate, currency: string): CommonMeasure | undefined {
    const day = this.days.get(date);
    if (!day) return undefined;
    for (const measure of COMMON_CURRENCIES) {
      const measurePrice = day.get(measure);
      if (measure === currency || measure === this.quoting.baseCurrency || measurePrice === undefined) continue;
      const consensus = consensusOf(this.tables, date, currency, measure, this.settings.lagDays);
      if (!consensus) continue;
      if (!this.agreeing(date, measure).some((c) => c !== currency)) continue;
      return { measure, measurePrice, consensus };
    }
    return undefined;
  }
}

// The cross-bank check: before a figure becomes current, it is compared with what other banks published
// for the same day. Every bank's figures give a price of each currency in that bank's base currency, so
// any other bank quoting both the figure's currency and its base (or having either as its own base)
// gives an independent cross rate. The median of those cross rates is the consensus.
//
// - Any other bank within the band (25%) confirms it: stored.
// - Off the consensus by a power of ten (10, 100, 1000...): a unit slip. Held.
// - Its inverse agrees with the consensus (possibly also off by a power of ten): a direction slip. Held.
// - Off by more than the band otherwise: held when other banks published that very day, so the move is
//   not real; when they are only known from earlier days (a devaluation the others have not published
//   yet), it cannot be confirmed and is published with a warning instead.
// - Holding needs at least two other banks against the figure; with one, either bank may be the wrong
//   one, and the figure is published with a warning.
// - No other bank quotes the pair: compared with the bank's own previous figure; a jump beyond the jump
//   band is published with a warning.
// A real move that other banks show on the same day passes: their figures are the consensus. The rule and
// its settings are in docs/ANOMALIES.md. Figures are compared as floating-point numbers: this only ever
// decides whether to hold, never what is stored.
import { UserError } from "../errors.js";
import type { BankQuoting, CrossCheckKind, IsoDate, RateRecord } from "../types.js";
import {
  OwnPrices,
  consensusOf,
  priceOf,
  priceTables,
  significant,
  type CommonMeasure,
  type Consensus,
  type Figure,
  type PriceTables,
} from "./consensus.js";

export type { BankQuoting } from "../types.js";
export type { Figure } from "./consensus.js";

export interface CrossCheckConfig {
  /** Relative distance from the consensus beyond which a figure is doubted (0.25: more than 25% off). */
  band: number;
  /** How many days back another bank's figures stand in for a day it has not published. */
  lagDays: number;
  /** Relative move from the bank's own previous figure that earns a warning when no other bank can confirm. */
  jump: number;
  /** How far back the bank's own previous figure may be for the jump check, in days. */
  jumpWindowDays: number;
  /** How many other banks must speak against a figure to hold it (fewer: a warning). */
  minBanks: number;
}

export const DEFAULT_CROSS_CHECK: CrossCheckConfig = {
  band: 0.25,
  lagDays: 4,
  jump: 0.25,
  jumpWindowDays: 14,
  minBanks: 2,
};

/**
 * The settings from the environment (`EXRATES_CHECK_BAND`, `..._LAG_DAYS`, `..._JUMP`, `..._MIN_BANKS`),
 * defaults otherwise.
 */
export function crossCheckConfig(env: Readonly<Record<string, string | undefined>> = process.env): CrossCheckConfig {
  const read = (name: string, fallback: number, ok: (n: number) => boolean, what: string) => {
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || !ok(n)) throw new UserError(`${name} "${text}" is not ${what}`);
    return n;
  };
  const fraction = (n: number) => n > 0 && n < 10;
  const FRACTION = "a fraction above 0 and below 10, such as 0.25";
  return {
    band: read("EXRATES_CHECK_BAND", DEFAULT_CROSS_CHECK.band, fraction, FRACTION),
    lagDays: read(
      "EXRATES_CHECK_LAG_DAYS",
      DEFAULT_CROSS_CHECK.lagDays,
      (n) => Number.isInteger(n) && n >= 0,
      "a whole number of days (0 or more)",
    ),
    jump: read("EXRATES_CHECK_JUMP", DEFAULT_CROSS_CHECK.jump, fraction, FRACTION),
    jumpWindowDays: DEFAULT_CROSS_CHECK.jumpWindowDays,
    minBanks: read(
      "EXRATES_CHECK_MIN_BANKS",
      DEFAULT_CROSS_CHECK.minBanks,
      (n) => Number.isInteger(n) && n >= 1,
      "a whole number of banks (1 or more)",
    ),
  };
}

export interface CrossCheckInput {
  bankId: string;
  quoting: BankQuoting;
  /** Figures about to become current (new, or different from the stored ones). */
  candidates: readonly RateRecord[];
  /** How every other bank quotes. */
  banks: ReadonlyMap<string, BankQuoting>;
  /** Other banks' stored figures from `lagDays` before the first candidate date to the last. */
  others: readonly Figure[];
  /** This bank's stored figures from `jumpWindowDays` before the first candidate date to the last. */
  own: readonly Figure[];
}

export interface Verdict {
  record: RateRecord;
  kind: CrossCheckKind;
  reason: string;
  /** Held (not stored) or stored with a warning. */
  hold: boolean;
}

/** A figure as a price in some measure, beside the other banks' consensus in that measure. */
interface Measured {
  /** The figure's price in `measure`. */
  price: number;
  /** What its price would be were the figure read the other way round. */
  inverse: number;
  consensus: Consensus;
  measure: string;
  /** Set when measured through a common currency: the cross, named in the reason. */
  through?: string;
}

/**
 * The figure against the other banks: undefined when any of them confirms it (one bad source among them
 * does not condemn a good figure). Otherwise its distance from their median tells the kind; it is held
 * only when at least `minBanks` banks speak against it, since with a single other bank either may be
 * the wrong one. Measured through a common currency, a figure off the consensus by other than a power
 * of ten or an inversion is only warned about: the bank's own figure of that currency adds its error.
 */
function judge(record: RateRecord, m: Measured, config: CrossCheckConfig): Verdict | undefined {
  const { consensus, price } = m;
  const tolerance = Math.log(1 + config.band);
  if (consensus.prices.some((p) => Math.abs(Math.log(price / p)) <= tolerance)) return undefined;
  const off = Math.log(price / consensus.price);
  const enough = consensus.banks >= config.minBanks;
  const where = `${consensus.banks} other bank${consensus.banks > 1 ? "s" : ""} ${consensus.sameDay ? "that day" : "on an earlier day"}`;
  const figure = `${record.currency} ${record.rate} on ${record.effectiveDate}${m.through ? ` ${m.through}` : ""}`;
  const market = `${significant(consensus.price)} ${m.measure} per ${record.currency}`;
  const warning = enough ? "" : "; too few banks to hold it, published with a warning";
  const unitSteps = Math.round(off / Math.LN10);
  const unitMiss = Math.abs(off - unitSteps * Math.LN10);
  const inverted = Math.log(m.inverse / consensus.price);
  const inverseSteps = Math.round(inverted / Math.LN10);
  const inverseMiss = Math.abs(inverted - inverseSteps * Math.LN10);
  if (inverseMiss <= tolerance && inverseMiss <= unitMiss) {
    return {
      record,
      kind: "direction-slip",
      hold: enough,
      reason: `${figure} reads the other way round: its inverse${inverseSteps ? ` times 10^${-inverseSteps}` : ""} agrees with ${where} (${market})${warning}`,
    };
  }
  if (unitSteps !== 0 && unitMiss <= tolerance) {
    return {
      record,
      kind: "unit-slip",
      hold: enough,
      reason: `${figure} is 10^${unitSteps} times what ${where} give (${market}): a unit slip?${warning}`,
    };
  }
  const factor = significant(price / consensus.price);
  const hold = enough && consensus.sameDay && m.through === undefined;
  const why = !consensus.sameDay
    ? "not confirmed on the day"
    : m.through
      ? "measured through another currency"
      : "too few banks to hold it";
  return {
    record,
    kind: "off-consensus",
    hold,
    reason: hold
      ? `${figure} is ${factor} times what ${where} give (${market}), beyond the ${config.band * 100}% band`
      : `${figure} is ${factor} times what ${where} gave (${market}); ${why}, published with a warning`,
  };
}

/**
 * A candidate as a price in the bank's base against the other banks' crosses for the pair, or, when no
 * other bank quotes the pair, as a price in a common currency through the bank's own figure of it.
 */
function measure(
  record: RateRecord,
  quoting: BankQuoting,
  tables: PriceTables,
  own: () => OwnPrices,
  lagDays: number,
): Measured | undefined {
  if (tables.size === 0) return undefined;
  const price = priceOf(record.rate, record.unitMultiplier ?? 0, quoting.quoteType);
  const base = quoting.baseCurrency;
  const consensus = consensusOf(tables, record.effectiveDate, record.currency, base, lagDays);
  if (consensus) return { price, inverse: 1 / price, consensus, measure: base };
  const common = own().commonMeasure(record.effectiveDate, record.currency);
  return common && throughCommon(record, price, base, common);
}

/** The figure's price in the common currency, and the cross that reason names. */
export function throughCommon(record: RateRecord, price: number, base: string, common: CommonMeasure): Measured {
  const { measure, measurePrice, consensus } = common;
  const implied = price / measurePrice;
  return {
    price: implied,
    inverse: 1 / price / measurePrice,
    consensus,
    measure,
    through: `(through the bank's ${measure} at ${significant(measurePrice)} ${base}: ${significant(implied)} ${measure} per ${record.currency})`,
  };
}

/**
 * The verdicts on the candidates that do not simply agree: held figures and warnings. Candidates with no
 * verdict are stored as they are.
 */
export function crossCheck(input: CrossCheckInput, config: CrossCheckConfig = DEFAULT_CROSS_CHECK): Verdict[] {
  const { quoting } = input;
  const tables = priceTables(input.others, input.banks);
  const verdicts: Verdict[] = [];
  const unconfirmed: RateRecord[] = [];
  // The bank's own prices are gathered only when some candidate's pair is quoted by no other bank.
  let own: OwnPrices | undefined;
  const ownPrices = () => (own ??= new OwnPrices(quoting, tables, config, input.own, input.candidates));
  for (const record of input.candidates) {
    const measured = measure(record, quoting, tables, ownPrices, config.lagDays);
    if (!measured) {
      unconfirmed.push(record);
      continue;
    }
    const verdict = judge(record, measured, config);
    if (verdict) verdicts.push(verdict);
  }
  verdicts.push(...jumps(input, unconfirmed, config));
  return verdicts;
}

/** Unconfirmed candidates that move far from the bank's own previous figure: warnings, not holds. */
function jumps(input: CrossCheckInput, unconfirmed: RateRecord[], config: CrossCheckConfig): Verdict[] {
  if (unconfirmed.length === 0) return [];
  // This runs over every row of a first import of a whole history (hundreds of thousands): one series
  // of parallel arrays per currency, one day number per distinct date, no per-row objects or keys.
  const { quoteType } = input.quoting;
  const dayNumbers = new Map<IsoDate, number>();
  const dayOf = (date: IsoDate) => {
    let n = dayNumbers.get(date);
    if (n === undefined) dayNumbers.set(date, (n = Date.parse(`${date}T00:00:00Z`) / 86_400_000));
    return n;
  };
  interface Series {
    days: number[];
    dates: IsoDate[];
    prices: number[];
    /** The candidate at each point; undefined for a stored figure. */
    records: Array<RateRecord | undefined>;
  }
  const series = new Map<string, Series>();
  const add = (currency: string, date: IsoDate, price: number, record: RateRecord | undefined) => {
    let s = series.get(currency);
    if (!s) series.set(currency, (s = { days: [], dates: [], prices: [], records: [] }));
    s.days.push(dayOf(date));
    s.dates.push(date);
    s.prices.push(price);
    s.records.push(record);
  };
  if (input.own.length) {
    const candidateKeys = new Set(input.candidates.map((r) => `${r.effectiveDate} ${r.currency}`));
    for (const f of input.own) {
      if (candidateKeys.has(`${f.effectiveDate} ${f.currency}`)) continue;
      add(f.currency, f.effectiveDate, priceOf(f.rate, f.unitMultiplier, quoteType), undefined);
    }
  }
  for (const r of input.candidates)
    add(r.currency, r.effectiveDate, priceOf(r.rate, r.unitMultiplier ?? 0, quoteType), r);
  const flagged = unconfirmed.length === input.candidates.length ? undefined : new Set(unconfirmed);
  const tolerance = Math.log(1 + config.jump);
  const verdicts: Verdict[] = [];
  for (const s of series.values()) {
    let order: number[] | undefined;
    for (let i = 1; i < s.days.length; i++) {
      if (s.days[i - 1]! > s.days[i]!) {
        order = s.days.map((_d, k) => k).sort((a, b) => s.days[a]! - s.days[b]!);
        break;
      }
    }
    const at = (k: number) => (order ? order[k]! : k);
    for (let k = 1; k < s.days.length; k++) {
      const i = at(k);
      const p = at(k - 1);
      const r = s.records[i];
      if (!r || (flagged && !flagged.has(r))) continue;
      if (s.days[i]! - s.days[p]! > config.jumpWindowDays) continue;
      const move = s.prices[i]! / s.prices[p]!;
      if (Math.abs(Math.log(move)) <= tolerance) continue;
      verdicts.push({
        record: r,
        kind: "jump",
        hold: false,
        reason: `${r.currency} ${r.rate} on ${r.effectiveDate} moves ${significant(move)} times from the bank's figure of ${s.dates[p]}; no other bank quotes it to confirm, published with a warning`,
      });
    }
  }
  return verdicts;
}

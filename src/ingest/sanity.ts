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
import { addDays } from "../feed/dates.js";
import type { BankQuoting, CrossCheckKind, IsoDate, QuoteType, RateRecord } from "../types.js";

export type { BankQuoting } from "../types.js";

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
  return {
    band: read("EXRATES_CHECK_BAND", DEFAULT_CROSS_CHECK.band, fraction, "a fraction such as 0.25"),
    lagDays: read(
      "EXRATES_CHECK_LAG_DAYS",
      DEFAULT_CROSS_CHECK.lagDays,
      (n) => Number.isInteger(n) && n >= 0,
      "a number of days",
    ),
    jump: read("EXRATES_CHECK_JUMP", DEFAULT_CROSS_CHECK.jump, fraction, "a fraction such as 0.25"),
    jumpWindowDays: DEFAULT_CROSS_CHECK.jumpWindowDays,
    minBanks: read(
      "EXRATES_CHECK_MIN_BANKS",
      DEFAULT_CROSS_CHECK.minBanks,
      (n) => Number.isInteger(n) && n >= 1,
      "a whole number of banks",
    ),
  };
}

/** A stored figure of some bank. */
export interface Figure {
  bankId: string;
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  unitMultiplier: number;
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

/** The price of one unit of the currency in the bank's base currency. */
function priceOf(rate: string, unitMultiplier: number, quoteType: QuoteType): number {
  const value = Number(rate);
  return quoteType === "Direct" ? value / 10 ** unitMultiplier : 10 ** unitMultiplier / value;
}

const significant = (n: number) => Number(n.toPrecision(6)).toString();

/** bank -> date -> currency -> price in that bank's base (its base itself at 1). */
function priceTables(input: CrossCheckInput): Map<string, Map<IsoDate, Map<string, number>>> {
  const tables = new Map<string, Map<IsoDate, Map<string, number>>>();
  for (const f of input.others) {
    const quoting = input.banks.get(f.bankId);
    if (!quoting) continue;
    let byDate = tables.get(f.bankId);
    if (!byDate) tables.set(f.bankId, (byDate = new Map<IsoDate, Map<string, number>>()));
    let day = byDate.get(f.effectiveDate);
    if (!day) byDate.set(f.effectiveDate, (day = new Map([[quoting.baseCurrency, 1]])));
    day.set(f.currency, priceOf(f.rate, f.unitMultiplier, quoting.quoteType));
  }
  return tables;
}

interface Consensus {
  /** Each other bank's cross rate (one per bank). */
  prices: number[];
  /** Their median. */
  price: number;
  banks: number;
  sameDay: boolean;
}

/**
 * The consensus price of `currency` in `base` on `date`: the median of other banks' cross rates, from
 * that day when any bank published it, else from the nearest earlier day within lagDays.
 */
function consensusOf(
  tables: Map<string, Map<IsoDate, Map<string, number>>>,
  date: IsoDate,
  currency: string,
  base: string,
  lagDays: number,
): Consensus | undefined {
  for (let back = 0; back <= lagDays; back++) {
    const day = back === 0 ? date : addDays(date, -back);
    const values: number[] = [];
    for (const byDate of tables.values()) {
      const table = byDate.get(day);
      const c = table?.get(currency);
      const b = table?.get(base);
      if (c !== undefined && b !== undefined && b > 0) values.push(c / b);
    }
    if (values.length > 0) {
      values.sort((x, y) => x - y);
      const mid = values.length >> 1;
      const price = values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
      return { prices: values, price, banks: values.length, sameDay: back === 0 };
    }
  }
  return undefined;
}

/**
 * The figure against the other banks: undefined when any of them confirms it (one bad source among them
 * does not condemn a good figure). Otherwise its distance from their median tells the kind; it is held
 * only when at least `minBanks` banks speak against it, since with a single other bank either may be
 * the wrong one.
 */
function judge(
  record: RateRecord,
  price: number,
  consensus: Consensus,
  base: string,
  config: CrossCheckConfig,
): Verdict | undefined {
  const tolerance = Math.log(1 + config.band);
  if (consensus.prices.some((p) => Math.abs(Math.log(price / p)) <= tolerance)) return undefined;
  const off = Math.log(price / consensus.price);
  const enough = consensus.banks >= config.minBanks;
  const where = `${consensus.banks} other bank${consensus.banks > 1 ? "s" : ""} ${consensus.sameDay ? "that day" : "on an earlier day"}`;
  const figure = `${record.currency} ${record.rate} on ${record.effectiveDate}`;
  const market = `${significant(consensus.price)} ${base} per ${record.currency}`;
  const warning = enough ? "" : "; too few banks to hold it, published with a warning";
  const unitSteps = Math.round(off / Math.LN10);
  const unitMiss = Math.abs(off - unitSteps * Math.LN10);
  const inverted = Math.log(1 / price / consensus.price);
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
  const hold = enough && consensus.sameDay;
  return {
    record,
    kind: "off-consensus",
    hold,
    reason: hold
      ? `${figure} is ${factor} times what ${where} give (${market}), beyond the ${config.band * 100}% band`
      : `${figure} is ${factor} times what ${where} gave (${market}); ${consensus.sameDay ? "too few banks to hold it" : "not confirmed on the day"}, published with a warning`,
  };
}

/**
 * The verdicts on the candidates that do not simply agree: held figures and warnings. Candidates with no
 * verdict are stored as they are.
 */
export function crossCheck(input: CrossCheckInput, config: CrossCheckConfig = DEFAULT_CROSS_CHECK): Verdict[] {
  const { quoting } = input;
  const base = quoting.baseCurrency;
  const tables = priceTables(input);
  const verdicts: Verdict[] = [];
  const unconfirmed: RateRecord[] = [];
  for (const record of input.candidates) {
    const consensus = tables.size
      ? consensusOf(tables, record.effectiveDate, record.currency, base, config.lagDays)
      : undefined;
    if (!consensus) {
      unconfirmed.push(record);
      continue;
    }
    const verdict = judge(
      record,
      priceOf(record.rate, record.unitMultiplier ?? 0, quoting.quoteType),
      consensus,
      base,
      config,
    );
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

// The gate between an adapter and the store: every record is checked, exact duplicates folded, and
// a record that cannot be stored is held with its reason rather than refusing the whole answer. Two
// different figures for one date and currency are both held: guessing which one the bank meant would
// publish a wrong digit half of the time.
import { coveredBy } from "../calendar/cadence.js";
import { isPublishableCurrency } from "../feed/currency.js";
import { addDays, isIsoDate, todayIn } from "../feed/dates.js";
import { quoteFigure } from "../feed/decimal.js";
import { FIGURE_BOUNDS, figureBoundsProblem } from "../feed/figure-bounds.js";
import type { BankDescriptor, HeldRow, IsoDate, ParsedAnswer, RateRecord, RowProblemKind } from "../types.js";

/** Days after today (in the bank's zone) a date may lie when the adapter does not say: a list dated tomorrow. */
export const DEFAULT_DAYS_AHEAD = 1;

/** The latest effective date an ingest at `now` takes from a bank, and how to say it. */
export interface DateLimit {
  latest: IsoDate;
  /** "tomorrow in Europe/Prague", "3 days after today in Asia/Phnom_Penh". */
  what: string;
}

/**
 * The latest date a bank can have published by `now`: its tomorrow (in its zone), or `maxDaysAhead`
 * days ahead; for a period source whose run publishes the next period in advance (HMRC's and InforEuro's
 * month, `cadence.covers`), the start of the period a run today brings, if that is later. The clock is
 * the ingest's, passed in: parsing stays a pure function of the bytes.
 */
export function dateLimit(bank: Pick<BankDescriptor, "timeZone" | "maxDaysAhead" | "cadence">, now: Date): DateLimit {
  const ahead = bank.maxDaysAhead ?? DEFAULT_DAYS_AHEAD;
  const today = todayIn(bank.timeZone, now);
  const latest = addDays(today, ahead);
  const period = bank.cadence ? coveredBy(bank.cadence.covers, today) : undefined;
  if (period && period > latest) return { latest: period, what: `the start of the period a run on ${today} publishes` };
  const what =
    ahead === 0
      ? `today in ${bank.timeZone}`
      : ahead === 1
        ? `tomorrow in ${bank.timeZone}`
        : `${ahead} days after today in ${bank.timeZone}`;
  return { latest, what };
}

/** Why a date is beyond the limit, or undefined. */
export function futureDateProblem(date: IsoDate, limit: DateLimit): string | undefined {
  if (date <= limit.latest) return undefined;
  return `effective date ${date} is after ${limit.latest} (${limit.what}), the latest the bank can have published: a date from the future would stay Latest`;
}

/** A positive plain decimal: digits, an optional fraction, at least one non-zero digit. */
export const POSITIVE_DECIMAL = /^(?=[\d.]*[1-9])\d+(\.\d+)?$/;

const where = (r: RateRecord, index: number) => r.source ?? `record ${index + 1}`;

function held(r: RateRecord, index: number, kind: RowProblemKind, reason: string): HeldRow {
  const row: HeldRow = { kind, reason, source: where(r, index) };
  if (typeof r.effectiveDate === "string") row.effectiveDate = r.effectiveDate;
  if (typeof r.currency === "string") row.currency = r.currency;
  if (typeof r.rate === "string") row.rate = quoteFigure(r.rate);
  if (r.derivation !== undefined) row.derivation = r.derivation;
  if (typeof r.validTo === "string") row.validTo = r.validTo;
  return row;
}

/** The first thing wrong with a record, or undefined. Dates and currencies were checked by the caller. */
function recordProblem(r: RateRecord, baseCurrency: string): [RowProblemKind, string] | undefined {
  const { currency, effectiveDate: date } = r;
  if (currency === baseCurrency) return ["bad-row", `a rate of the base currency ${baseCurrency} against itself`];
  // The length bound before any regex: it reads no more of a 10-million-digit figure than its length.
  const long = typeof r.rate === "string" && r.rate.length > FIGURE_BOUNDS.maxTextLength;
  if (typeof r.rate !== "string" || long || !POSITIVE_DECIMAL.test(r.rate)) {
    const bound = long ? figureBoundsProblem(r.rate) : undefined;
    if (bound) return ["bad-rate", `rate of ${currency} on ${date}: ${bound}`];
    return ["bad-rate", `rate "${quoteFigure(String(r.rate))}" of ${currency} on ${date} is not a positive decimal`];
  }
  const bound = figureBoundsProblem(r.rate);
  if (bound) return ["bad-rate", `rate of ${currency} on ${date}: ${bound}`];
  const m = r.unitMultiplier;
  if (m !== undefined && (!Number.isInteger(m) || m < 0 || m > 9)) {
    return ["unknown-unit", `unitMultiplier ${m} of ${currency} on ${date} is not 0-9`];
  }
  const to = r.validTo;
  if (to !== undefined && (typeof to !== "string" || !isIsoDate(to) || to < date)) {
    return ["bad-date", `validity end "${String(to)}" of ${currency} on ${date} is not a date on or after it`];
  }
  return undefined;
}

/**
 * Checks every record: a date that is not real or lies beyond `limit` (the latest date the bank can
 * have published at the time of the ingest), a currency that is neither ISO 4217 nor a market code
 * (src/feed/market-codes.ts), a figure that is not
 * a positive decimal, a unit multiplier outside 0-9, the base currency against itself, or two different
 * figures for one date and currency (all of them held) are held; exact duplicates are folded (the first
 * kept). `held` lists what the adapter already held followed by what the gate holds.
 *
 * This is the hot path of a history import (hundreds of thousands of records): taken records are
 * returned as given, without copying, and each date and currency is checked once.
 */
export function gateRecords(
  baseCurrency: string,
  records: RateRecord[],
  alreadyHeld: HeldRow[] = [],
  limit?: DateLimit,
): ParsedAnswer {
  const holds: HeldRow[] = [...alreadyHeld];
  // date -> currency -> index of the first record; a history has a few thousand dates and a few dozen currencies.
  const byDate = new Map<string, Map<string, number>>();
  const badDates = new Set<string>();
  const knownCurrencies = new Set<string>();
  /** Indexes of records held or folded away. */
  const dropped = new Set<number>();
  /** First-record indexes whose key met a different figure: every record of that key is held. */
  const conflicted = new Map<number, number[]>();
  let zeroUnits = false;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const date = r.effectiveDate;
    let day = byDate.get(date);
    if (day === undefined) {
      if (badDates.has(date) || typeof date !== "string" || !isIsoDate(date)) {
        badDates.add(date);
        holds.push(held(r, i, "bad-date", `effective date "${String(date)}" is not a real YYYY-MM-DD date`));
        dropped.add(i);
        continue;
      }
      const future = limit && futureDateProblem(date, limit);
      if (future) {
        holds.push(held(r, i, "future-date", future));
        dropped.add(i);
        continue;
      }
      byDate.set(date, (day = new Map<string, number>()));
    }
    const currency = r.currency;
    if (!knownCurrencies.has(currency)) {
      if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency) || !isPublishableCurrency(currency)) {
        const reason = `currency "${String(currency)}" is neither an ISO 4217 code nor a market code`;
        holds.push(held(r, i, "unknown-currency", reason));
        dropped.add(i);
        continue;
      }
      knownCurrencies.add(currency);
    }
    const problem = recordProblem(r, baseCurrency);
    if (problem) {
      holds.push(held(r, i, problem[0], problem[1]));
      dropped.add(i);
      continue;
    }
    if (r.unitMultiplier === 0) zeroUnits = true;
    const first = day.get(currency);
    if (first === undefined) {
      day.set(currency, i);
      continue;
    }
    dropped.add(i);
    const group = conflicted.get(first) ?? [first];
    // An exact copy of a figure already met is folded, whether or not the key is in conflict.
    const sameFigure = (k: number) =>
      records[k]!.rate === r.rate && (records[k]!.unitMultiplier ?? 0) === (r.unitMultiplier ?? 0);
    if (group.some(sameFigure)) continue;
    group.push(i);
    conflicted.set(first, group);
    dropped.add(first);
  }
  for (const group of conflicted.values()) {
    const first = records[group[0]!]!;
    const figures = [...new Set(group.map((i) => records[i]!.rate))].join(" and ");
    const reason = `${group.length} different figures for ${first.currency} on ${first.effectiveDate} (${figures}): neither is taken`;
    for (const i of group) holds.push(held(records[i]!, i, "conflict", reason));
  }
  let taken = dropped.size === 0 ? records : records.filter((_r, i) => !dropped.has(i));
  // unitMultiplier 0 means "1 unit": published as absent.
  if (zeroUnits)
    taken = taken.map(({ unitMultiplier, ...rest }) => (unitMultiplier ? { ...rest, unitMultiplier } : rest));
  return { records: taken, held: holds };
}

/**
 * Across the answers of one ingest (a bank answering per day or per currency): a date and currency
 * given different figures by two answers is held in both, like a conflict inside one answer. Each
 * answer must have been through gateRecords. Answers are changed in place.
 */
export function holdCrossAnswerConflicts(answers: ParsedAnswer[]): void {
  if (answers.length < 2) return;
  const first = new Map<string, { answer: number; record: RateRecord }>();
  const conflicts = new Map<string, Array<{ answer: number; record: RateRecord }>>();
  answers.forEach((answer, a) => {
    for (const record of answer.records) {
      const key = `${record.effectiveDate} ${record.currency}`;
      const seen = first.get(key);
      if (seen === undefined) first.set(key, { answer: a, record });
      else if (seen.record.rate !== record.rate || (seen.record.unitMultiplier ?? 0) !== (record.unitMultiplier ?? 0)) {
        const group = conflicts.get(key) ?? [seen];
        group.push({ answer: a, record });
        conflicts.set(key, group);
      }
    }
  });
  if (conflicts.size === 0) return;
  const out = new Set<RateRecord>();
  for (const group of conflicts.values()) {
    const { record } = group[0]!;
    const figures = [...new Set(group.map((g) => g.record.rate))].join(" and ");
    const reason = `answers ${[...new Set(group.map((g) => g.answer + 1))].join(" and ")} give ${record.currency} on ${record.effectiveDate} different figures (${figures}): neither is taken`;
    for (const g of group) {
      out.add(g.record);
      answers[g.answer]!.held.push(held(g.record, answers[g.answer]!.records.indexOf(g.record), "conflict", reason));
    }
  }
  // The same key may stand in a third answer with the first figure: it goes too.
  const keys = new Set(conflicts.keys());
  for (const answer of answers)
    answer.records = answer.records.filter((r) => !out.has(r) && !keys.has(`${r.effectiveDate} ${r.currency}`));
}

/** By date, then currency: the order `exrates parse` prints. */
export function sortRecords(records: RateRecord[]): RateRecord[] {
  return [...records].sort((a, b) =>
    a.effectiveDate === b.effectiveDate
      ? a.currency < b.currency
        ? -1
        : a.currency > b.currency
          ? 1
          : 0
      : a.effectiveDate < b.effectiveDate
        ? -1
        : 1,
  );
}

// The gate between an adapter and the store: every record is checked, duplicates folded, and a
// conflict inside one feed answer is refused rather than resolved by guessing.
import { FeedError } from "../errors.js";
import { isIsoDate } from "../feed/dates.js";
import type { RateRecord } from "../types.js";

const CURRENCY = /^[A-Z]{3}$/;

/** A positive plain decimal: digits, an optional fraction, at least one non-zero digit. */
const POSITIVE_DECIMAL = /^(?=[\d.]*[1-9])\d+(\.\d+)?$/;

/**
 * Checks every record and folds exact duplicates (first appearance kept). Records are returned as
 * given, without copying. This is the hot path of a history import (hundreds of thousands of
 * records): no allocation per record beyond the duplicate index.
 */
export function validateRecords(bankId: string, baseCurrency: string, records: RateRecord[]): RateRecord[] {
  // date -> currency -> record; a history has a few thousand dates and a few dozen currencies.
  const byDate = new Map<string, Map<string, RateRecord>>();
  let duplicates = false;
  let zeroUnits = false;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const date = r.effectiveDate;
    let day = byDate.get(date);
    if (day === undefined) {
      if (typeof date !== "string" || !isIsoDate(date))
        throw new FeedError(bankId, `effective date "${String(date)}" is not a real YYYY-MM-DD date`);
      byDate.set(date, (day = new Map()));
    }
    const currency = r.currency;
    if (typeof currency !== "string" || !CURRENCY.test(currency))
      throw new FeedError(bankId, `currency "${String(currency)}" is not a three-letter code`);
    if (currency === baseCurrency)
      throw new FeedError(bankId, `a rate of the base currency ${baseCurrency} against itself on ${date}`);
    if (typeof r.rate !== "string" || !POSITIVE_DECIMAL.test(r.rate))
      throw new FeedError(bankId, `rate "${String(r.rate)}" of ${currency} on ${date} is not a positive decimal`);
    const m = r.unitMultiplier;
    if (m !== undefined) {
      if (!Number.isInteger(m) || m < 0 || m > 9)
        throw new FeedError(bankId, `unitMultiplier ${m} of ${currency} on ${date} is not 0-9`);
      if (m === 0) zeroUnits = true;
    }
    const seen = day.get(currency);
    if (seen === undefined) {
      day.set(currency, r);
    } else {
      if (seen.rate !== r.rate || (seen.unitMultiplier ?? 0) !== (m ?? 0)) {
        throw new FeedError(bankId, `two different rates for ${currency} on ${date}: ${seen.rate} and ${r.rate}`);
      }
      duplicates = true;
    }
  }
  const unique = duplicates ? [...byDate.values()].flatMap((day) => [...day.values()]) : records;
  // unitMultiplier 0 means "1 unit": published as absent.
  return zeroUnits
    ? unique.map(({ unitMultiplier, ...rest }) => (unitMultiplier ? { ...rest, unitMultiplier } : rest))
    : unique;
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

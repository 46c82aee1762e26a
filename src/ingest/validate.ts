// The gate between an adapter and the store: every record is checked, duplicates folded, and a
// conflict inside one feed answer is refused rather than resolved by guessing.
import { FeedError } from "../errors.js";
import { isPositiveDecimal } from "../feed/decimal.js";
import { isIsoDate } from "../feed/dates.js";
import type { RateRecord } from "../types.js";

const CURRENCY = /^[A-Z]{3}$/;

/**
 * Checks every record and folds exact duplicates (first appearance kept). Records are returned as
 * given, without copying: an import of a long history is hundreds of thousands of them.
 */
export function validateRecords(bankId: string, baseCurrency: string, records: RateRecord[]): RateRecord[] {
  const byKey = new Map<string, RateRecord>();
  // A history has a few thousand distinct dates for hundreds of thousands of rows.
  const checkedDates = new Set<string>();
  let duplicates = false;
  for (const r of records) {
    const where = () => `${r.currency} on ${r.effectiveDate}`;
    if (!checkedDates.has(r.effectiveDate)) {
      if (!isIsoDate(r.effectiveDate)) throw new FeedError(bankId, `effective date "${r.effectiveDate}" is not a real YYYY-MM-DD date`);
      checkedDates.add(r.effectiveDate);
    }
    if (!CURRENCY.test(r.currency)) throw new FeedError(bankId, `currency "${r.currency}" is not a three-letter code`);
    if (r.currency === baseCurrency) throw new FeedError(bankId, `a rate of the base currency ${baseCurrency} against itself on ${r.effectiveDate}`);
    if (typeof r.rate !== "string" || !isPositiveDecimal(r.rate)) throw new FeedError(bankId, `rate "${String(r.rate)}" of ${where()} is not a positive decimal`);
    const m = r.unitMultiplier;
    if (m !== undefined && (!Number.isInteger(m) || m < 0 || m > 9)) throw new FeedError(bankId, `unitMultiplier ${m} of ${where()} is not 0-9`);
    const key = r.effectiveDate + r.currency;
    const seen = byKey.get(key);
    if (seen) {
      if (seen.rate !== r.rate || (seen.unitMultiplier ?? 0) !== (m ?? 0)) {
        throw new FeedError(bankId, `two different rates for ${where()}: ${seen.rate} and ${r.rate}`);
      }
      duplicates = true;
    } else {
      byKey.set(key, r);
    }
  }
  const unique = duplicates ? [...byKey.values()] : records;
  // unitMultiplier 0 means "1 unit": published as absent.
  return unique.some((r) => r.unitMultiplier === 0) ? unique.map(({ unitMultiplier, ...rest }) => (unitMultiplier ? { ...rest, unitMultiplier } : rest)) : unique;
}

/** By date, then currency: the order `exrates parse` prints. */
export function sortRecords(records: RateRecord[]): RateRecord[] {
  return [...records].sort((a, b) =>
    a.effectiveDate === b.effectiveDate ? (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0) : a.effectiveDate < b.effectiveDate ? -1 : 1,
  );
}

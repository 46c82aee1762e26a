// The latest rates of a bank, read from the store into the shape every renderer takes. For a period
// source (monthly, quarterly) the latest set is what is in force on its newest effective date, each
// figure with its validity.
import { baseCurrencyOf, frequencyOf } from "../feed/adapter.js";
import { publicIdOf } from "../feed/sources.js";

import { warnedFigures, type WarnedFigure } from "../store/anomalies.js";
import type { Store } from "../store/database.js";
import { warningKey, warningsByFigure } from "../store/history.js";
import { inForceOn, versionOfFigures } from "../store/periods.js";
import { newestDate, periodFiguresOf, ratesOn, type StoredRate } from "../store/rates.js";
import type { BankDescriptor, IsoDate, LatestRatesDocument, PublishedRate } from "../types.js";

/** A bank's newest effective date, its rates on it, and the warnings about them. */
export async function dailyInputs(
  store: Store,
  bankId: string,
): Promise<{ date: IsoDate; rows: StoredRate[]; warned: WarnedFigure[] } | undefined> {
  const date = await newestDate(store, bankId);
  if (!date) return undefined;
  return { date, rows: await ratesOn(store, bankId, date), warned: await warnedFigures(store, bankId, date, date) };
}

export async function latestDocument(store: Store, bank: BankDescriptor): Promise<LatestRatesDocument | undefined> {
  const frequency = frequencyOf(bank);
  const common = {
    // A bank's second table (NBP's weekly) is published under its bank's key.
    bankId: publicIdOf(bank.id),
    baseCurrency: baseCurrencyOf(bank),
    quoteType: bank.quoteType,
    sourceUrl: bank.sourceUrl,
  };
  if (frequency !== "Daily") {
    const date = await newestDate(store, bank.id);
    if (!date) return undefined;
    const figures = await periodFiguresOf(store, bank.id, date, date);
    const set = inForceOn(figures, date);
    if (!set) return undefined;
    return {
      ...common,
      effectiveDate: set.date,
      frequency,
      rates: set.rows.map((r) => ({
        currency: r.currency,
        rate: r.rate,
        ...(r.unitMultiplier ? { unitMultiplier: r.unitMultiplier } : {}),
        validFrom: r.validFrom!,
        validTo: r.validTo!,
      })),
      publishedAt: versionOfFigures(figures).maxStoredAt,
    };
  }
  const inputs = await dailyInputs(store, bank.id);
  if (!inputs) return undefined;
  const { date, rows } = inputs;
  // Only a warning about the very figure stored counts (a corrected figure is no longer the one doubted).
  const warned = inputs.warned.filter((w) =>
    rows.some((r) => r.currency === w.currency && r.rate === w.rate && (r.unitMultiplier ?? 0) === w.unitMultiplier),
  );
  const warnings = warningsByFigure(warned);
  return {
    ...common,
    effectiveDate: date,
    rates: rows.map((r) => {
      const rate: PublishedRate = { currency: r.currency, rate: r.rate };
      if (r.unitMultiplier) rate.unitMultiplier = r.unitMultiplier;
      const warning = warnings.get(warningKey(date, r.currency));
      if (warning !== undefined) rate.warning = warning;
      return rate;
    }),
    publishedAt: rows.reduce((max, r) => (r.storedAt > max ? r.storedAt : max), ""),
  };
}

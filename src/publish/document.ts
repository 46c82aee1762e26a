// The latest rates of a bank, read from the store into the shape every renderer takes.
import { baseCurrencyOf } from "../feed/adapter.js";
import type { Store } from "../store/database.js";
import { newestDate, ratesOn } from "../store/rates.js";
import type { BankDescriptor, LatestRatesDocument } from "../types.js";

export async function latestDocument(store: Store, bank: BankDescriptor): Promise<LatestRatesDocument | undefined> {
  const date = await newestDate(store, bank.id);
  if (!date) return undefined;
  const rows = await ratesOn(store, bank.id, date);
  return {
    bankId: bank.id,
    baseCurrency: baseCurrencyOf(bank),
    quoteType: bank.quoteType,
    effectiveDate: date,
    rates: rows.map((r) =>
      r.unitMultiplier
        ? { currency: r.currency, rate: r.rate, unitMultiplier: r.unitMultiplier }
        : { currency: r.currency, rate: r.rate },
    ),
    publishedAt: rows.reduce((max, r) => (r.storedAt > max ? r.storedAt : max), ""),
    sourceUrl: bank.sourceUrl,
  };
}

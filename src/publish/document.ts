// The latest rates of a bank, read from the store into the shape every renderer takes. For a period
// source (monthly, quarterly) the latest set is what is in force on its newest effective date, each
// figure with its validity.
import { baseCurrencyOf, frequencyOf } from "../feed/adapter.js";
import type BetterSqlite3 from "better-sqlite3";

import { warnedFigures, type WarnedFigure } from "../store/anomalies.js";
import { rawSqlite, type Store } from "../store/database.js";
import { warningKey, warningsByFigure } from "../store/history.js";
import { inForceOn, versionOfFigures } from "../store/periods.js";
import { newestDate, periodFiguresOf, ratesOn, type StoredRate } from "../store/rates.js";
import type { BankDescriptor, IsoDate, LatestRatesDocument, PublishedRate } from "../types.js";

/**
 * The three reads of a daily bank's Latest as prepared statements on SQLite: a publish reads them for
 * every bank (ninety banks, to find the one that changed), and building each kysely query cost more
 * than running it. The same SQL and the same rows as newestDate, ratesOn and warnedFigures, which
 * PostgreSQL keeps (test/publish/document.test.ts compares both).
 */
const statements = new WeakMap<BetterSqlite3.Database, ReturnType<typeof prepare>>();
function prepare(sqlite: BetterSqlite3.Database) {
  return {
    newest: sqlite.prepare("select max(effective_date) as date from rates where bank_id = ?").pluck(),
    rates: sqlite.prepare(
      "select currency, rate, unit_multiplier, derivation, stored_at from rates where bank_id = ? and effective_date = ? order by currency",
    ),
    warned: sqlite.prepare(
      "select effective_date, currency, rate, unit_multiplier, reason from anomalies where bank_id = ? and status = 'warned'" +
        " and effective_date >= ? and effective_date <= ? order by effective_date, currency, id",
    ),
  };
}

interface RawRate {
  currency: string;
  rate: string;
  unit_multiplier: number;
  derivation: string | null;
  stored_at: string;
}
interface RawWarned {
  effective_date: string | null;
  currency: string | null;
  rate: string | null;
  unit_multiplier: number | null;
  reason: string;
}

/** A bank's newest effective date, its rates on it, and the warnings about them (SQLite: prepared). */
export async function dailyInputs(
  store: Store,
  bankId: string,
): Promise<{ date: IsoDate; rows: StoredRate[]; warned: WarnedFigure[] } | undefined> {
  const sqlite = rawSqlite(store);
  if (!sqlite) {
    const date = await newestDate(store, bankId);
    if (!date) return undefined;
    return { date, rows: await ratesOn(store, bankId, date), warned: await warnedFigures(store, bankId, date, date) };
  }
  let s = statements.get(sqlite);
  if (!s) statements.set(sqlite, (s = prepare(sqlite)));
  const date = s.newest.get(bankId) as IsoDate | null;
  if (!date) return undefined;
  const rows = (s.rates.all(bankId, date) as RawRate[]).map((r) => ({
    currency: r.currency,
    rate: r.rate,
    unitMultiplier: r.unit_multiplier,
    derivation: r.derivation,
    storedAt: r.stored_at,
  }));
  const warned = (s.warned.all(bankId, date, date) as RawWarned[]).flatMap((r) =>
    r.effective_date && r.currency && r.rate
      ? [
          {
            effectiveDate: r.effective_date,
            currency: r.currency,
            rate: r.rate,
            unitMultiplier: r.unit_multiplier ?? 0,
            reason: r.reason,
          },
        ]
      : [],
  );
  return { date, rows, warned };
}

export async function latestDocument(store: Store, bank: BankDescriptor): Promise<LatestRatesDocument | undefined> {
  const frequency = frequencyOf(bank);
  const common = {
    bankId: bank.id,
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

// Rates on either engine: an ingest's transaction (read what screening needs, decide, write), the
// other writes of the ingest path, and the reads of stored rates. The engine branch of the ingest path
// is here and only here; each engine's statements are in sqlite-ingest.ts and postgres-ingest.ts.
import type { BankQuoting, IsoDate, RateRecord } from "../types.js";
import { markReleased } from "./anomalies.js";
import type { SqliteStore, Store } from "./database.js";
import type { RatesTable } from "./schema.js";
import { PERIOD_FIGURES_PG, PERIOD_FIGURES_SQL, periodParameters, type PeriodFigure } from "./history.js";
import type {
  IngestBatch,
  IngestResult,
  IngestWrite,
  Provenance,
  ScreeningQuery,
  ScreeningSnapshot,
  StoredFigure,
} from "./ingest-data.js";
import {
  figuresOfBanksPg,
  ingestBatchesPg,
  insertFetchPg,
  loadScreeningPg,
  lockBankForIngest,
  markReleasedPg,
  storeReleasedFigurePg,
} from "./postgres-ingest.js";
import { figuresOfBanks, ingestBatches, insertFetch, loadScreening, storeReleasedFigure } from "./sqlite-ingest.js";
import { figureUsable } from "./figure-guard.js";

export type { IngestBatch, IngestResult, Provenance, StoredFigure } from "./ingest-data.js";
/** SQLite's synchronous ingest write, for code that fills a SQLite store directly (tests, benches). */
export { ingestBatches } from "./sqlite-ingest.js";

/** What an ingest's decisions give back: what to write, and what the caller keeps of them. */
export interface IngestDecision<T> {
  write: IngestWrite;
  decision: T;
}

/**
 * One ingest of one bank as one transaction: reads everything screening needs (`query`, one load),
 * decides over it (`decide`: synchronous, and the same on both engines), writes what it decided. On
 * SQLite an immediate transaction, synchronous from start to end so that nothing else runs inside it;
 * on PostgreSQL one transaction holding the bank's ingest lock, so that what was read is still what
 * is written over. Either all of it lands or none.
 */
export async function ingestTransaction<T>(
  store: Store,
  query: ScreeningQuery,
  decide: (snapshot: ScreeningSnapshot) => IngestDecision<T>,
): Promise<{ result: IngestResult; decision: T }> {
  const { bankId } = query;
  if (store.dialect === "postgres") {
    return store.db.transaction().execute(async (tx) => {
      await lockBankForIngest(tx, bankId);
      const { write, decision } = decide(await loadScreeningPg(tx, query));
      return { result: await ingestBatchesPg(tx, bankId, write.batches, write.now, write.quoting), decision };
    });
  }
  const run = () => {
    const { write, decision } = decide(loadScreening(store, query));
    return { result: ingestBatches(store, bankId, write.batches, write.now, write.quoting), decision };
  };
  return store.sqlite.inTransaction ? run() : store.sqlite.transaction(run).immediate();
}

/** Stores one bank's batches in one transaction, unscreened. Records must already be validated. */
export async function storeBatches(
  store: Store,
  bankId: string,
  batches: IngestBatch[],
  now: Date = new Date(),
  quoting?: BankQuoting,
): Promise<IngestResult> {
  const write = { batches, now, quoting };
  const query = { bankId, answers: [], ownDaysBefore: 0 };
  return (await ingestTransaction(store, query, () => ({ write, decision: undefined }))).result;
}

/** The stored figures of the given banks between two dates, bank by bank in the order given. */
export async function storedFigures(
  store: Store,
  bankIds: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
): Promise<StoredFigure[]> {
  if (store.dialect === "postgres") return figuresOfBanksPg(store.db, bankIds, from, to);
  return figuresOfBanks(store, bankIds, from, to);
}

/**
 * Publishes a figure a person released from held anomaly `anomaly.id`: stores it as coming from the
 * answer it was held from and marks the anomaly released (when, by whom), in one transaction.
 */
export async function storeRelease(
  store: Store,
  anomaly: { id: number; bankId: string; fetchId: number },
  record: RateRecord,
  by: string,
  now: Date,
): Promise<void> {
  const { id, bankId, fetchId } = anomaly;
  if (store.dialect === "postgres") {
    await store.db.transaction().execute(async (tx) => {
      await lockBankForIngest(tx, bankId);
      await storeReleasedFigurePg(tx, bankId, record, fetchId, now);
      await markReleasedPg(tx, id, by, now);
    });
    return;
  }
  store.sqlite.transaction(() => {
    storeReleasedFigure(store, bankId, record, fetchId, now);
    markReleased(store, id, by, now);
  })();
}

/** Records a fetch that failed (network, HTTP status, or a body the adapter rejected). */
export async function recordFailedFetch(
  store: Store,
  bankId: string,
  p: Omit<Provenance, "body"> & { body?: Uint8Array },
  error: string,
): Promise<number> {
  if (store.dialect === "postgres") return insertFetchPg(store.db, bankId, p, error);
  return insertFetch(store, bankId, p, error);
}

export interface StoredRate {
  currency: string;
  rate: string;
  unitMultiplier: number;
  derivation: string | null;
  storedAt: string;
}

/** The newest effective date stored for a bank. */
export async function newestDate(store: Store, bankId: string): Promise<IsoDate | undefined> {
  if (store.dialect === "sqlite") return (latestReads(store).newest.get(bankId) as IsoDate | null) ?? undefined;
  const row = await store.db
    .selectFrom("rates")
    .select((eb) => eb.fn.max("effective_date").as("date"))
    .where("bank_id", "=", bankId)
    .executeTakeFirst();
  return row?.date ?? undefined;
}

/** Every bank with rates, and its newest date. */
export async function newestDates(store: Store): Promise<Map<string, IsoDate>> {
  const rows = await store.db
    .selectFrom("rates")
    .select(["bank_id", (eb) => eb.fn.max("effective_date").as("date")])
    .groupBy("bank_id")
    .execute();
  return new Map(rows.map((r) => [r.bank_id, r.date]));
}

/** A period source's figures that may be in force within [from, to], oldest first (src/store/periods.ts). */
export async function periodFiguresOf(
  store: Store,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
): Promise<PeriodFigure[]> {
  const params = periodParameters(bankId, from, to);
  if (store.dialect === "postgres") return (await store.pool.query<PeriodFigure>(PERIOD_FIGURES_PG, params)).rows;
  return store.sqlite.prepare(PERIOD_FIGURES_SQL).all(...params) as PeriodFigure[];
}

/** The rates of one bank on one date, sorted by currency. */
export async function ratesOn(store: Store, bankId: string, date: IsoDate): Promise<StoredRate[]> {
  const rows =
    store.dialect === "sqlite"
      ? (latestReads(store).rates.all(bankId, date) as StoredRateRow[])
      : await store.db
          .selectFrom("rates")
          .select(["currency", "rate", "unit_multiplier", "derivation", "stored_at"])
          .where("bank_id", "=", bankId)
          .where("effective_date", "=", date)
          .orderBy("currency")
          .execute();
  // A figure beyond the bounds (a database older than them) is not published: logged and left out.
  const usable = (r: StoredRateRow) =>
    figureUsable(
      bankId,
      { currency: r.currency, rate: r.rate, unitMultiplier: r.unit_multiplier, effectiveDate: date },
      "publish",
    );
  return rows.filter(usable).map((r) => ({
    currency: r.currency,
    rate: r.rate,
    unitMultiplier: r.unit_multiplier,
    derivation: r.derivation,
    storedAt: r.stored_at,
  }));
}

type StoredRateRow = Pick<RatesTable, "currency" | "rate" | "unit_multiplier" | "derivation" | "stored_at">;

/**
 * newestDate's and ratesOn's queries prepared once per SQLite database: a publish asks them of every
 * bank (to find the one that changed), and building each kysely query cost more than running it.
 */
const latestStatements = new WeakMap<SqliteStore, ReturnType<typeof prepareLatestReads>>();
function prepareLatestReads({ sqlite }: SqliteStore) {
  return {
    newest: sqlite.prepare("select max(effective_date) as date from rates where bank_id = ?").pluck(),
    rates: sqlite.prepare(
      "select currency, rate, unit_multiplier, derivation, stored_at from rates where bank_id = ? and effective_date = ? order by currency",
    ),
  };
}
function latestReads(store: SqliteStore) {
  let s = latestStatements.get(store);
  if (!s) latestStatements.set(store, (s = prepareLatestReads(store)));
  return s;
}

/** The most recent fetch of a bank, successful or not. */
export async function lastFetch(store: Store, bankId: string, onlySuccessful = false) {
  let q = store.db.selectFrom("fetches").selectAll().where("bank_id", "=", bankId);
  if (onlySuccessful) q = q.where("error", "is", null);
  return q.orderBy("id", "desc").limit(1).executeTakeFirst();
}

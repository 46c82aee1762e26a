// Writing and reading rates. One ingest of one bank is one transaction: its fetch provenance and
// all its rows land together, or nothing does. Unchanged rows are left alone; a changed figure
// replaces the stored one and the trigger of migration 001 keeps the old one as a revision.
import { createHash } from "node:crypto";

import type { IsoDate, QuoteType, RateRecord } from "../types.js";
import { recordAnomalies, recordQuoting, type AnomalyInput } from "./anomalies.js";
import type { SqliteStore, Store } from "./database.js";
import { figuresOfBanksPg, ingestBatchesPg, insertFetchPg, lockBankForIngest } from "./postgres-ingest.js";

/** Where a batch of records came from: one HTTP answer or one imported file. */
export interface Provenance {
  kind: "fetch" | "import";
  method: "GET" | "POST";
  /** Already redacted. */
  url: string;
  startedAt: Date;
  finishedAt: Date;
  httpStatus?: number;
  body: Uint8Array;
}

export interface IngestBatch {
  provenance: Provenance;
  records: RateRecord[];
  /** Rows held and figures warned about in this answer, stored with its fetch id. */
  anomalies?: AnomalyInput[];
}

export interface IngestResult {
  fetchIds: number[];
  inserted: number;
  revised: number;
  unchanged: number;
  /** Distinct effective dates touched by inserted or revised rows, sorted. */
  changedDates: IsoDate[];
  /** Anomalies of this ingest seen for the first time (to be logged once). */
  newAnomalies: AnomalyInput[];
}

export interface StoredRate {
  currency: string;
  rate: string;
  unitMultiplier: number;
  derivation: string | null;
  storedAt: string;
}

// The hot path is raw SQL prepared once per connection: an ingest of a multi-year history is
// hundreds of thousands of rows, and a kysely round trip per row costs several times more. Rows go
// ROWS_PER_STATEMENT at a time: a 16-row statement costs a quarter less per row than one-row ones
// (BENCHMARKS.md, import).
const ROWS_PER_STATEMENT = 16;
const ROW = "(?, ?, ?, ?, ?, ?, ?, ?)";
const upsertSql = (rows: number) => `
  insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, derivation, fetch_id, stored_at)
  values ${Array(rows).fill(ROW).join(", ")}
  on conflict (bank_id, effective_date, currency) do update set
    rate = excluded.rate, unit_multiplier = excluded.unit_multiplier, derivation = excluded.derivation,
    fetch_id = excluded.fetch_id, stored_at = excluded.stored_at
  where rates.rate is not excluded.rate or rates.unit_multiplier is not excluded.unit_multiplier
     or rates.derivation is not excluded.derivation`;

const INSERT_FETCH = `
  insert into fetches (bank_id, kind, method, url, started_at, finished_at, http_status, bytes, sha256, error)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const prepared = new WeakMap<SqliteStore, ReturnType<typeof prepare>>();

function prepare(store: SqliteStore) {
  const { sqlite } = store;
  return {
    upsertMany: sqlite.prepare(upsertSql(ROWS_PER_STATEMENT)),
    upsertOne: sqlite.prepare(upsertSql(1)),
    insertFetch: sqlite.prepare(INSERT_FETCH),
    lastRevisionId: sqlite.prepare("select coalesce(max(id), 0) as id from rate_revisions").pluck(),
    // Rows this ingest inserted or revised are exactly those now carrying one of its fetch ids
    // (an unchanged row keeps its old one); the date bounds keep it to a primary-key range.
    changedDates: sqlite
      .prepare(
        "select distinct effective_date from rates where bank_id = ? and effective_date between ? and ? and fetch_id >= ? order by 1",
      )
      .pluck(),
  };
}

function statements(store: SqliteStore) {
  let s = prepared.get(store);
  if (!s) prepared.set(store, (s = prepare(store)));
  return s;
}

/** One provenance row: a fetch (or imported file) of a bank, successful (error null) or not. */
function insertFetch(
  s: ReturnType<typeof prepare>,
  bankId: string,
  p: Omit<Provenance, "body"> & { body?: Uint8Array },
  error: string | null,
): number {
  return Number(
    s.insertFetch.run(
      bankId,
      p.kind,
      p.method,
      p.url,
      p.startedAt.toISOString(),
      p.finishedAt.toISOString(),
      p.httpStatus ?? null,
      p.body ? p.body.length : null,
      p.body ? sha256(p.body) : null,
      error,
    ).lastInsertRowid,
  );
}

export function sha256(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

/**
 * Stores one bank's batches in one transaction on either engine. Records must already be validated.
 */
export async function storeBatches(
  store: Store,
  bankId: string,
  batches: IngestBatch[],
  now: Date = new Date(),
  quoting?: { baseCurrency: string; quoteType: QuoteType },
): Promise<IngestResult> {
  if (store.dialect === "sqlite") return ingestBatches(store, bankId, batches, now, quoting);
  return store.db.transaction().execute(async (tx) => {
    await lockBankForIngest(tx, bankId);
    return ingestBatchesPg(tx, bankId, batches, now, quoting);
  });
}

/**
 * SQLite: stores one bank's batches in one transaction, synchronously (the hot import path; see
 * postgres-ingest.ts for PostgreSQL's). Records must already be validated.
 */
export function ingestBatches(
  store: SqliteStore,
  bankId: string,
  batches: IngestBatch[],
  now: Date = new Date(),
  quoting?: { baseCurrency: string; quoteType: QuoteType },
): IngestResult {
  const s = statements(store);
  const storedAt = now.toISOString();
  const run = () => {
    const revisionsBefore = s.lastRevisionId.get() as number;
    const fetchIds: number[] = [];
    let written = 0;
    let total = 0;
    let first: IsoDate | undefined;
    let last: IsoDate | undefined;
    const args: unknown[] = new Array(ROWS_PER_STATEMENT * 8);
    const newAnomalies: AnomalyInput[] = [];
    if (quoting) recordQuoting(store, bankId, quoting.baseCurrency, quoting.quoteType);
    for (const { provenance: p, records, anomalies } of batches) {
      const fetchId = insertFetch(s, bankId, p, null);
      fetchIds.push(fetchId);
      if (anomalies?.length) newAnomalies.push(...recordAnomalies(store, bankId, fetchId, anomalies, now));
      total += records.length;
      let i = 0;
      for (; i < records.length; i++) {
        const r = records[i]!;
        if (first === undefined || r.effectiveDate < first) first = r.effectiveDate;
        if (last === undefined || r.effectiveDate > last) last = r.effectiveDate;
        const at = (i % ROWS_PER_STATEMENT) * 8;
        args[at] = bankId;
        args[at + 1] = r.effectiveDate;
        args[at + 2] = r.currency;
        args[at + 3] = r.rate;
        args[at + 4] = r.unitMultiplier ?? 0;
        args[at + 5] = r.derivation ?? null;
        args[at + 6] = fetchId;
        args[at + 7] = storedAt;
        if (at === (ROWS_PER_STATEMENT - 1) * 8) written += s.upsertMany.run(args).changes;
      }
      for (let k = i - (i % ROWS_PER_STATEMENT); k < i; k++) {
        const at = (k % ROWS_PER_STATEMENT) * 8;
        written += s.upsertOne.run(args.slice(at, at + 8)).changes;
      }
    }
    const revised = (s.lastRevisionId.get() as number) - revisionsBefore;
    const changedDates =
      written > 0 && first !== undefined ? (s.changedDates.all(bankId, first, last, fetchIds[0]) as IsoDate[]) : [];
    return { fetchIds, inserted: written - revised, revised, unchanged: total - written, changedDates, newAnomalies };
  };
  // Inside the caller's transaction (storeParsed screens and stores in one) it runs as part of it: a
  // nested transaction would be a savepoint, which costs a quarter more on a large import.
  return store.sqlite.inTransaction ? run() : store.sqlite.transaction(run).immediate();
}

/** A stored figure, for the cross-bank check (src/ingest/sanity.ts). */
export interface StoredFigure {
  bankId: string;
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  unitMultiplier: number;
}

const FIGURES = `select bank_id as bankId, effective_date as effectiveDate, currency, rate,
  unit_multiplier as unitMultiplier from rates`;

/**
 * The stored figures of the given banks between two dates (inclusive). One primary-key range per bank,
 * so no index beyond the key is needed (another index would slow every import).
 */
export function figuresOfBanks(
  store: SqliteStore,
  bankIds: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
): StoredFigure[] {
  const statement = store.sqlite.prepare(`${FIGURES} where bank_id = ? and effective_date between ? and ?`);
  const out: StoredFigure[] = [];
  for (const id of bankIds) for (const f of statement.all(id, from, to) as StoredFigure[]) out.push(f);
  return out;
}

/** The stored figures of the given banks between two dates, on either engine. */
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
 * Stores one figure a person released from an anomaly, as coming from the answer it was held from
 * (`fetchId`). A different stored figure becomes a revision, as with any correction.
 */
export function storeReleasedFigure(
  store: SqliteStore,
  bankId: string,
  record: RateRecord,
  fetchId: number,
  now: Date,
): boolean {
  const s = statements(store);
  return (
    s.upsertOne.run(
      bankId,
      record.effectiveDate,
      record.currency,
      record.rate,
      record.unitMultiplier ?? 0,
      record.derivation ?? null,
      fetchId,
      now.toISOString(),
    ).changes > 0
  );
}

/** Records a fetch that failed (network, HTTP status, or a body the adapter rejected). */
export async function recordFailedFetch(
  store: Store,
  bankId: string,
  p: Omit<Provenance, "body"> & { body?: Uint8Array },
  error: string,
): Promise<number> {
  if (store.dialect === "postgres") return insertFetchPg(store.db, bankId, p, error);
  return insertFetch(statements(store), bankId, p, error);
}

/** The newest effective date stored for a bank. */
export async function newestDate(store: Store, bankId: string): Promise<IsoDate | undefined> {
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

/** The rates of one bank on one date, sorted by currency. */
export async function ratesOn(store: Store, bankId: string, date: IsoDate): Promise<StoredRate[]> {
  const rows = await store.db
    .selectFrom("rates")
    .select(["currency", "rate", "unit_multiplier", "derivation", "stored_at"])
    .where("bank_id", "=", bankId)
    .where("effective_date", "=", date)
    .orderBy("currency")
    .execute();
  return rows.map((r) => ({
    currency: r.currency,
    rate: r.rate,
    unitMultiplier: r.unit_multiplier,
    derivation: r.derivation,
    storedAt: r.stored_at,
  }));
}

/** The most recent fetch of a bank, successful or not. */
export async function lastFetch(store: Store, bankId: string, onlySuccessful = false) {
  let q = store.db.selectFrom("fetches").selectAll().where("bank_id", "=", bankId);
  if (onlySuccessful) q = q.where("error", "is", null);
  return q.orderBy("id", "desc").limit(1).executeTakeFirst();
}

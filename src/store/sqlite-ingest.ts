// The ingest path on SQLite: what screening reads and what an ingest writes, as synchronous
// better-sqlite3 statements run inside the ingest's immediate transaction (rates.ts opens it; nothing
// else runs inside it). Unchanged rows are left alone; a changed figure replaces the stored one and the
// trigger of migration 001 keeps the old one as a revision. postgres-ingest.ts is PostgreSQL's twin.
import type BetterSqlite3 from "better-sqlite3";

import type { BankQuoting, IsoDate, RateRecord } from "../types.js";
import { decidedFigures, quotingOfBanks, recordAnomalies, recordQuoting, type AnomalyInput } from "./anomalies.js";
import type { SqliteStore } from "./database.js";
import {
  changedRecords,
  emptySnapshot,
  inDateOrder,
  screeningWindows,
  sha256,
  type IngestBatch,
  type IngestResult,
  type Provenance,
  type ScreeningQuery,
  type ScreeningSnapshot,
  type StoredFigure,
} from "./ingest-data.js";

// The hot path is raw SQL prepared once per connection: an ingest of a multi-year history is
// hundreds of thousands of rows, and a kysely round trip per row costs several times more. Rows go up to
// ROWS_PER_STATEMENT at a time, and what every row of a batch shares (bank, fetch id, time stored) is
// bound once per statement as a named parameter; a row with no unit multiplier, derivation or validity
// end (most of them) binds only its date, currency and figure. Each costs about a fifth of the store's
// CPU on a large import (BENCHMARKS.md, import).
const ROWS_PER_STATEMENT = 64;
/** A row's own parameters: all of them, or a plain row's (date, currency, figure). */
const FULL_ROW = "(@bank, ?, ?, ?, ?, ?, @fetch, @storedAt, ?)";
const PLAIN_ROW = "(@bank, ?, ?, ?, 0, null, @fetch, @storedAt, null)";
/** Parameters per row of each. */
const FULL_W = 6;
const PLAIN_W = 3;
const upsertSql = (rows: number, row: string) => `
  insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, derivation, fetch_id, stored_at, valid_to)
  values ${Array(rows).fill(row).join(", ")}
  on conflict (bank_id, effective_date, currency) do update set
    rate = excluded.rate, unit_multiplier = excluded.unit_multiplier, derivation = excluded.derivation,
    fetch_id = excluded.fetch_id, stored_at = excluded.stored_at, valid_to = excluded.valid_to
  where rates.rate is not excluded.rate or rates.unit_multiplier is not excluded.unit_multiplier
     or rates.derivation is not excluded.derivation or rates.valid_to is not excluded.valid_to`;

const INSERT_FETCH = `
  insert into fetches (bank_id, kind, method, url, started_at, finished_at, http_status, bytes, sha256, error,
                       file_name, imported_by)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const FIGURES = `select bank_id as bankId, effective_date as effectiveDate, currency, rate,
  unit_multiplier as unitMultiplier from rates where bank_id = ? and effective_date between ? and ?`;

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<SqliteStore, Statements>();

function prepare(store: SqliteStore) {
  const { sqlite } = store;
  // Statements of n rows, prepared at first use (index n - 1): a daily answer of 30 rows is one statement too.
  const full: BetterSqlite3.Statement[] = [];
  const plain: BetterSqlite3.Statement[] = [];
  return {
    upsert(rows: number, isPlain: boolean): BetterSqlite3.Statement {
      const cache = isPlain ? plain : full;
      return (cache[rows - 1] ??= sqlite.prepare(upsertSql(rows, isPlain ? PLAIN_ROW : FULL_ROW)));
    },
    insertFetch: sqlite.prepare(INSERT_FETCH),
    figures: sqlite.prepare(FIGURES),
    figuresIn: sqlite.prepare(
      `${FIGURES} and currency in (select value from json_each(?)) order by effective_date, currency`,
    ),
    anyStored: sqlite
      .prepare("select 1 from rates where bank_id = ? and effective_date between ? and ? limit 1")
      .pluck(),
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
export function insertFetch(
  store: SqliteStore,
  bankId: string,
  p: Omit<Provenance, "body"> & { body?: Uint8Array },
  error: string | null,
): number {
  return Number(
    statements(store).insertFetch.run(
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
      p.file ?? null,
      p.importedBy ?? null,
    ).lastInsertRowid,
  );
}

/**
 * Everything screening needs for one ingest (see ScreeningQuery), read synchronously: call inside the
 * ingest's transaction, so what is read is what is written over.
 */
export function loadScreening(store: SqliteStore, query: ScreeningQuery): ScreeningSnapshot {
  const own = screeningWindows.own(query);
  if (!own) return emptySnapshot(query);
  const ownFigures = figuresOfBanks(store, [query.bankId], own.figures.from, own.figures.to);
  const changed = changedRecords(query, ownFigures);
  const decided = decidedFigures(store, query.bankId, own.decided.from, own.decided.to);
  const window = screeningWindows.others(query, changed, ownFigures);
  if (!window) return { own: ownFigures, changed, decided, banks: new Map(), others: [] };
  const banks = quotingOfBanks(store);
  banks.delete(query.bankId);
  const currencies = screeningWindows.othersCurrencies(query, ownFigures);
  const others = banks.size ? figuresOfBanks(store, banks.keys(), window.from, window.to, currencies) : [];
  return { own: ownFigures, changed, decided, banks, others };
}

/**
 * Stores one bank's batches, synchronously (the hot import path). Records must already be validated.
 * Outside a transaction it opens an immediate one of its own.
 */
export function ingestBatches(
  store: SqliteStore,
  bankId: string,
  batches: IngestBatch[],
  now: Date = new Date(),
  quoting?: BankQuoting,
): IngestResult {
  const s = statements(store);
  const row: RowFields = { bankId, fetchId: 0, storedAt: now.toISOString() };
  const run = () => {
    const revisionsBefore = s.lastRevisionId.get() as number;
    const fetchIds: number[] = [];
    let written = 0;
    let total = 0;
    let first: IsoDate | undefined;
    let last: IsoDate | undefined;
    /** The dates of a single batch every row of which was written: each of them changed. */
    let allDates: IsoDate[] | undefined;
    const newAnomalies: AnomalyInput[] = [];
    if (quoting) recordQuoting(store, bankId, quoting.baseCurrency, quoting.quoteType);
    for (const { provenance: p, records, anomalies } of batches) {
      row.fetchId = insertFetch(store, bankId, p, null);
      fetchIds.push(row.fetchId);
      if (anomalies?.length) newAnomalies.push(...recordAnomalies(store, bankId, row.fetchId, anomalies, now));
      total += records.length;
      const span = spanOf(records);
      if (!span) continue;
      if (first === undefined || span.from < first) first = span.from;
      if (last === undefined || span.to > last) last = span.to;
      const ordered = span.inOrder ? undefined : freshInDateOrder(s, row.bankId, records, span);
      const writtenHere = upsertRecords(s, ordered?.records ?? records, row);
      written += writtenHere;
      if (batches.length === 1 && writtenHere === records.length) allDates = ordered?.dates ?? datesOf(records, span);
    }
    const revised = (s.lastRevisionId.get() as number) - revisionsBefore;
    const changedDates =
      written > 0 && first !== undefined
        ? (allDates ?? (s.changedDates.all(bankId, first, last, fetchIds[0]) as IsoDate[]))
        : [];
    return { fetchIds, inserted: written - revised, revised, unchanged: total - written, changedDates, newAnomalies };
  };
  // Inside the caller's transaction (an ingest screens and stores in one) it runs as part of it: a
  // nested transaction would be a savepoint, which costs a quarter more on a large import.
  return store.sqlite.inTransaction ? run() : store.sqlite.transaction(run).immediate();
}

/** What every row of one batch shares. */
interface RowFields {
  bankId: string;
  fetchId: number;
  storedAt: string;
}

interface Span {
  from: IsoDate;
  to: IsoDate;
  /** Whether the records come in date order. */
  inOrder: boolean;
}

/** The first and last date of the records, and whether they come in date order. */
function spanOf(records: readonly RateRecord[]): Span | undefined {
  if (records.length === 0) return undefined;
  let from = records[0]!.effectiveDate;
  let to = from;
  let inOrder = true;
  let previous = from;
  for (let i = 1; i < records.length; i++) {
    const date = records[i]!.effectiveDate;
    if (date < previous) inOrder = false;
    if (date < from) from = date;
    else if (date > to) to = date;
    previous = date;
  }
  return { from, to, inOrder };
}

/** The distinct dates of records, sorted. */
function datesOf(records: readonly RateRecord[], span: Span): IsoDate[] {
  if (!span.inOrder) return [...new Set(records.map((r) => r.effectiveDate))].sort();
  const dates: IsoDate[] = [];
  for (const r of records) if (r.effectiveDate !== dates.at(-1)) dates.push(r.effectiveDate);
  return dates;
}

/**
 * The records in date order and their dates (inDateOrder) when nothing of the bank is stored over their
 * span and no date and currency comes twice: then every row is an insert and no revision is made, so the
 * order they go in changes nothing but the cost (a fifth less CPU than a history listed currency by
 * currency). Undefined otherwise: the records go in as given.
 */
function freshInDateOrder(
  s: Statements,
  bankId: string,
  records: readonly RateRecord[],
  span: Span,
): { records: RateRecord[]; dates: IsoDate[] } | undefined {
  if (s.anyStored.get(bankId, span.from, span.to) !== undefined) return undefined;
  return inDateOrder(records);
}

/** Whether a record binds only its date, currency and figure (PLAIN_ROW). */
const isPlain = (r: RateRecord) => !r.unitMultiplier && r.derivation === undefined && r.validTo === undefined;

/** Upserts the records up to ROWS_PER_STATEMENT at a time; the rows written. */
function upsertRecords(s: Statements, records: readonly RateRecord[], row: RowFields): number {
  const shared = { bank: row.bankId, fetch: row.fetchId, storedAt: row.storedAt };
  const args: unknown[] = [];
  let written = 0;
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const end = Math.min(start + ROWS_PER_STATEMENT, records.length);
    let plain = true;
    for (let i = start; i < end && plain; i++) plain = isPlain(records[i]!);
    args.length = (end - start) * (plain ? PLAIN_W : FULL_W);
    let at = 0;
    for (let i = start; i < end; i++) {
      const r = records[i]!;
      args[at++] = r.effectiveDate;
      args[at++] = r.currency;
      args[at++] = r.rate;
      if (plain) continue;
      args[at++] = r.unitMultiplier ?? 0;
      args[at++] = r.derivation ?? null;
      args[at++] = r.validTo ?? null;
    }
    written += s.upsert(end - start, plain).run(args, shared).changes;
  }
  return written;
}

/**
 * The stored figures of the given banks between two dates (inclusive), bank by bank in the order given.
 * One primary-key range per bank, so no index beyond the key is needed (another would slow every import).
 */
export function figuresOfBanks(
  store: SqliteStore,
  bankIds: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): StoredFigure[] {
  const { figures, figuresIn } = statements(store);
  const list = currencies && JSON.stringify(currencies);
  const read = (id: string) =>
    (list === undefined ? figures.all(id, from, to) : figuresIn.all(id, from, to, list)) as StoredFigure[];
  const out: StoredFigure[] = [];
  for (const id of bankIds) for (const f of read(id)) out.push(f);
  return out;
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
  return upsertRecords(statements(store), [record], { bankId, fetchId, storedAt: now.toISOString() }) > 0;
}

// The ingest path on PostgreSQL: the same reads and writes as sqlite-ingest.ts and anomalies.ts do on
// SQLite, as async statements inside the ingest's kysely transaction (rates.ts opens it). Rows go in large multi-row upserts built from
// arrays (`unnest`): one round trip per few thousand rows instead of one per row. Which rows were
// inserted and which revised comes back from the upsert itself (`xmax = 0` marks a fresh row), so
// concurrent ingests of other banks cannot skew the counts.
import { sql, type Kysely } from "./kysely.js";

import type { BankQuoting, IsoDate, QuoteType, RateRecord } from "../types.js";
import { fingerprintOf, figureKey, type AnomalyInput, type AnomalyStatus } from "./anomalies.js";
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
import type { Database } from "./schema.js";

type Db = Kysely<Database>;

/** The first key of the per-bank ingest locks (two-int advisory locks: apart from any bigint-keyed lock). */
const INGEST_LOCK_SPACE = 0x45585254; // "EXRT"

/**
 * Serialises ingests of one bank across instances for the rest of the transaction (a backfill and the
 * daemon, say), as SQLite's immediate transaction does for the whole file: what screening reads is then
 * still what the ingest writes over. Other banks are not held up.
 */
export async function lockBankForIngest(db: Db, bankId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${INGEST_LOCK_SPACE}::int, hashtext(${bankId}))`.execute(db);
}

/** Rows per upsert statement: large enough that round trips vanish, small enough to bound memory. */
const ROWS_PER_STATEMENT = 5000;

export async function insertFetchPg(
  db: Db,
  bankId: string,
  p: Omit<Provenance, "body"> & { body?: Uint8Array },
  error: string | null,
): Promise<number> {
  const row = await db
    .insertInto("fetches")
    .values({
      bank_id: bankId,
      kind: p.kind,
      method: p.method,
      url: p.url,
      started_at: p.startedAt.toISOString(),
      finished_at: p.finishedAt.toISOString(),
      http_status: p.httpStatus ?? null,
      bytes: p.body ? p.body.length : null,
      sha256: p.body ? sha256(p.body) : null,
      error,
      file_name: p.file ?? null,
      imported_by: p.importedBy ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

interface Columns {
  date: string[];
  currency: string[];
  rate: string[];
  unit: number[];
  derivation: (string | null)[];
  validTo: (string | null)[];
}

const emptyColumns = (): Columns => ({ date: [], currency: [], rate: [], unit: [], derivation: [], validTo: [] });

/** One upsert of many rows of one bank and fetch; returns the inserted and revised rows' dates. */
async function upsertRows(db: Db, bankId: string, fetchId: number, storedAt: string, c: Columns) {
  const { rows } = await sql<{ effective_date: string; inserted: boolean }>`
    insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, derivation, fetch_id, stored_at, valid_to)
    select ${bankId}, d, c, r, u, v, ${fetchId}, ${storedAt}, vt
    from unnest(${c.date}::text[], ${c.currency}::text[], ${c.rate}::text[], ${c.unit}::int[], ${c.derivation}::text[],
      ${c.validTo}::text[]) as t(d, c, r, u, v, vt)
    on conflict (bank_id, effective_date, currency) do update set
      rate = excluded.rate, unit_multiplier = excluded.unit_multiplier, derivation = excluded.derivation,
      fetch_id = excluded.fetch_id, stored_at = excluded.stored_at, valid_to = excluded.valid_to
    where rates.rate is distinct from excluded.rate or rates.unit_multiplier is distinct from excluded.unit_multiplier
       or rates.derivation is distinct from excluded.derivation or rates.valid_to is distinct from excluded.valid_to
    returning effective_date, (xmax = 0) as inserted`.execute(db);
  return rows;
}

/**
 * Inserts rows of one bank and fetch into a span where nothing of the bank is stored (no conflict to
 * resolve, no revision to tell apart, nothing to return). Rows without a unit multiplier, derivation or
 * validity end send only their date, currency and figure.
 */
async function insertFreshRows(db: Db, bankId: string, fetchId: number, storedAt: string, records: RateRecord[]) {
  const plain = records.every((r) => !r.unitMultiplier && r.derivation === undefined && r.validTo === undefined);
  const date = records.map((r) => r.effectiveDate);
  const currency = records.map((r) => r.currency);
  const rate = records.map((r) => r.rate);
  if (plain) {
    await sql`
      insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, derivation, fetch_id, stored_at, valid_to)
      select ${bankId}, d, c, r, 0, null, ${fetchId}, ${storedAt}, null
      from unnest(${date}::text[], ${currency}::text[], ${rate}::text[]) as t(d, c, r)`.execute(db);
    return;
  }
  await sql`
    insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, derivation, fetch_id, stored_at, valid_to)
    select ${bankId}, d, c, r, u, v, ${fetchId}, ${storedAt}, vt
    from unnest(${date}::text[], ${currency}::text[], ${rate}::text[], ${records.map((r) => r.unitMultiplier ?? 0)}::int[],
      ${records.map((r) => r.derivation ?? null)}::text[], ${records.map((r) => r.validTo ?? null)}::text[])
      as t(d, c, r, u, v, vt)`.execute(db);
}

/**
 * A batch in date order, with its dates, when it goes into a span where nothing of the bank is stored and
 * no date and currency comes twice: every row is then an insert (the ingest holds the bank's lock, so
 * no other ingest writes the bank's rows meanwhile). Undefined otherwise.
 */
async function freshInDateOrderPg(db: Db, bankId: string, records: readonly RateRecord[]) {
  if (records.length === 0) return undefined;
  let from = records[0]!.effectiveDate;
  let to = from;
  for (const r of records) {
    if (r.effectiveDate < from) from = r.effectiveDate;
    else if (r.effectiveDate > to) to = r.effectiveDate;
  }
  const { rows } = await sql`select 1 from rates where bank_id = ${bankId} and effective_date between ${from} and ${to}
    limit 1`.execute(db);
  return rows.length === 0 ? inDateOrder(records) : undefined;
}

/**
 * Everything screening needs for one ingest (see ScreeningQuery), read through the ingest's transaction
 * (which holds the bank's ingest lock, so what is read is what is written over).
 */
export async function loadScreeningPg(db: Db, query: ScreeningQuery): Promise<ScreeningSnapshot> {
  const own = screeningWindows.own(query);
  if (!own) return emptySnapshot(query);
  const ownFigures = await figuresOfBanksPg(db, [query.bankId], own.figures.from, own.figures.to);
  const changed = changedRecords(query, ownFigures);
  const decided = await decidedFiguresPg(db, query.bankId, own.decided.from, own.decided.to);
  const window = screeningWindows.others(query, changed, ownFigures);
  if (!window) return { own: ownFigures, changed, decided, banks: new Map(), others: [] };
  const banks = await quotingOfBanksPg(db);
  banks.delete(query.bankId);
  const currencies = screeningWindows.othersCurrencies(query, ownFigures);
  const others = banks.size ? await figuresOfBanksPg(db, banks.keys(), window.from, window.to, currencies) : [];
  return { own: ownFigures, changed, decided, banks, others };
}

/** Stores one bank's batches (call inside the ingest's transaction). */
export async function ingestBatchesPg(
  db: Db,
  bankId: string,
  batches: IngestBatch[],
  now: Date,
  quoting?: BankQuoting,
): Promise<IngestResult> {
  const storedAt = now.toISOString();
  const fetchIds: number[] = [];
  const newAnomalies: AnomalyInput[] = [];
  const changed = new Set<IsoDate>();
  let inserted = 0;
  let revised = 0;
  let total = 0;
  if (quoting) await recordQuotingPg(db, bankId, quoting.baseCurrency, quoting.quoteType);
  for (const { provenance: p, records, anomalies } of batches) {
    const fetchId = await insertFetchPg(db, bankId, p, null);
    fetchIds.push(fetchId);
    if (anomalies?.length) newAnomalies.push(...(await recordAnomaliesPg(db, bankId, fetchId, anomalies, now)));
    total += records.length;
    const fresh = await freshInDateOrderPg(db, bankId, records);
    if (fresh) {
      for (let i = 0; i < fresh.records.length; i += ROWS_PER_STATEMENT)
        await insertFreshRows(db, bankId, fetchId, storedAt, fresh.records.slice(i, i + ROWS_PER_STATEMENT));
      inserted += fresh.records.length;
      for (const date of fresh.dates) changed.add(date);
      continue;
    }
    let columns = emptyColumns();
    // One statement may not touch a key twice: a key seen again in this chunk starts the next one, so
    // the second figure lands after the first, as row-by-row upserts would have it.
    let keys = new Set<string>();
    const flush = async () => {
      if (columns.date.length === 0) return;
      for (const row of await upsertRows(db, bankId, fetchId, storedAt, columns)) {
        if (row.inserted) inserted++;
        else revised++;
        changed.add(row.effective_date);
      }
      columns = emptyColumns();
      keys = new Set();
    };
    for (const r of records) {
      const key = `${r.effectiveDate} ${r.currency}`;
      if (keys.has(key) || columns.date.length >= ROWS_PER_STATEMENT) await flush();
      keys.add(key);
      columns.date.push(r.effectiveDate);
      columns.currency.push(r.currency);
      columns.rate.push(r.rate);
      columns.unit.push(r.unitMultiplier ?? 0);
      columns.derivation.push(r.derivation ?? null);
      columns.validTo.push(r.validTo ?? null);
    }
    await flush();
  }
  return {
    fetchIds,
    inserted,
    revised,
    unchanged: total - inserted - revised,
    changedDates: [...changed].sort(),
    newAnomalies,
  };
}

/** The stored figures of the given banks between two dates, bank by bank in the order given. */
export async function figuresOfBanksPg(
  db: Db,
  bankIds: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
  currencies?: readonly string[],
): Promise<StoredFigure[]> {
  const ids = [...bankIds];
  if (ids.length === 0) return [];
  const inCurrencies = currencies ? sql`and currency = any(${[...currencies]}::text[])` : sql``;
  const { rows } = await sql<StoredFigure>`
    select bank_id as "bankId", effective_date as "effectiveDate", currency, rate, unit_multiplier as "unitMultiplier"
    from rates where bank_id = any(${ids}::text[]) and effective_date between ${from} and ${to} ${inCurrencies}
    order by array_position(${ids}::text[], bank_id), effective_date collate "C", currency collate "C"`.execute(db);
  return rows;
}

/** Stores one released figure as coming from the answer it was held from. */
export async function storeReleasedFigurePg(
  db: Db,
  bankId: string,
  record: RateRecord,
  fetchId: number,
  now: Date,
): Promise<boolean> {
  const rows = await upsertRows(db, bankId, fetchId, now.toISOString(), {
    date: [record.effectiveDate],
    currency: [record.currency],
    rate: [record.rate],
    unit: [record.unitMultiplier ?? 0],
    derivation: [record.derivation ?? null],
    validTo: [record.validTo ?? null],
  });
  return rows.length > 0;
}

/**
 * Stores the anomalies of one answer: new ones inserted, known ones counted as seen again, in one
 * statement. Returns the ones seen for the first time (once each, in the order given).
 */
export async function recordAnomaliesPg(
  db: Db,
  bankId: string,
  fetchId: number,
  inputs: readonly AnomalyInput[],
  now: Date,
): Promise<AnomalyInput[]> {
  const at = now.toISOString();
  const first = new Map<string, { input: AnomalyInput; times: number }>();
  for (const a of inputs) {
    const fingerprint = fingerprintOf(bankId, a);
    const seen = first.get(fingerprint);
    if (seen) seen.times++;
    else first.set(fingerprint, { input: a, times: 1 });
  }
  const fresh = new Set<string>();
  const entries = [...first.entries()];
  for (let i = 0; i < entries.length; i += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(i, i + ROWS_PER_STATEMENT);
    const col = <T>(f: (a: AnomalyInput) => T) => chunk.map(([, { input }]) => f(input));
    const { rows } = await sql<{ fingerprint: string; inserted: boolean }>`
      insert into anomalies (bank_id, effective_date, currency, rate, unit_multiplier, derivation, kind, reason,
        source, status, fingerprint, first_seen_at, last_seen_at, times_seen, fetch_id, valid_to)
      select ${bankId}, d, c, r, u, v, k, e, s, st, f, ${at}, ${at}, n, ${fetchId}, vt
      from unnest(${col((a) => a.effectiveDate ?? null)}::text[], ${col((a) => a.currency ?? null)}::text[],
        ${col((a) => a.rate ?? null)}::text[], ${col((a) => a.unitMultiplier ?? null)}::int[],
        ${col((a) => a.derivation ?? null)}::text[], ${col((a) => a.kind)}::text[], ${col((a) => a.reason)}::text[],
        ${col((a) => a.source ?? null)}::text[], ${col((a) => a.status)}::text[],
        ${chunk.map(([f]) => f)}::text[], ${chunk.map(([, { times }]) => times)}::int[],
        ${col((a) => a.validTo ?? null)}::text[])
        as t(d, c, r, u, v, k, e, s, st, f, n, vt)
      on conflict (fingerprint) do update set last_seen_at = excluded.last_seen_at,
        times_seen = anomalies.times_seen + excluded.times_seen
      returning fingerprint, (xmax = 0) as inserted`.execute(db);
    for (const row of rows) if (row.inserted) fresh.add(row.fingerprint);
  }
  return entries.filter(([f]) => fresh.has(f)).map(([, { input }]) => input);
}

/** Held and released figures of a bank between two dates, keyed by figureKey (a release wins). */
export async function decidedFiguresPg(
  db: Db,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
): Promise<Map<string, AnomalyStatus>> {
  const rows = await db
    .selectFrom("anomalies")
    .select(["effective_date", "currency", "rate", "unit_multiplier", "status"])
    .where("bank_id", "=", bankId)
    .where("effective_date", ">=", from)
    .where("effective_date", "<=", to)
    .where("status", "in", ["held", "released"])
    .where("rate", "is not", null)
    .orderBy("id")
    .execute();
  const out = new Map<string, AnomalyStatus>();
  for (const r of rows) {
    const key = figureKey(r.effective_date!, r.currency!, r.rate!, r.unit_multiplier ?? 0);
    if (out.get(key) !== "released") out.set(key, r.status as AnomalyStatus);
  }
  return out;
}

export async function recordQuotingPg(db: Db, bankId: string, baseCurrency: string, quoteType: QuoteType) {
  await db
    .insertInto("bank_quoting")
    .values({ bank_id: bankId, base_currency: baseCurrency, quote_type: quoteType })
    .onConflict((oc) => oc.column("bank_id").doUpdateSet({ base_currency: baseCurrency, quote_type: quoteType }))
    .execute();
}

export async function quotingOfBanksPg(db: Db): Promise<Map<string, BankQuoting>> {
  const rows = await db.selectFrom("bank_quoting").selectAll().orderBy("bank_id").execute();
  return new Map(rows.map((r) => [r.bank_id, { baseCurrency: r.base_currency, quoteType: r.quote_type as QuoteType }]));
}

export async function markReleasedPg(db: Db, id: number, by: string, now: Date): Promise<void> {
  await db
    .updateTable("anomalies")
    .set({ status: "released", released_at: now.toISOString(), released_by: by })
    .where("id", "=", id)
    .execute();
}

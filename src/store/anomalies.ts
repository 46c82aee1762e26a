// Held rows, held figures and warned figures (table `anomalies`, migration 004). One row per distinct
// figure and reason: an answer re-sent every day with the same bad row updates `last_seen_at` and
// `times_seen`, and adds nothing. A held figure is never published until a person releases it.
import type { AnomalyKind, IsoDate, QuoteType } from "../types.js";
import type { SqliteStore, Store } from "./database.js";
import type { Selectable } from "./kysely.js";

import type { AnomaliesTable } from "./schema.js";

export type AnomalyStatus = "held" | "released" | "warned";

/** An anomaly as ingest finds it, before it is stored. Fields are as the answer gave them. */
export interface AnomalyInput {
  kind: AnomalyKind;
  reason: string;
  status: "held" | "warned";
  source?: string;
  effectiveDate?: string;
  currency?: string;
  rate?: string;
  unitMultiplier?: number;
  derivation?: string;
  /** A period source's figure: the last day it is valid for (a release stores it with it). */
  validTo?: string;
}

/** A stored anomaly, as `exrates anomalies --json` prints it. */
export interface Anomaly {
  id: number;
  bankId: string;
  effectiveDate: string | null;
  currency: string | null;
  rate: string | null;
  unitMultiplier: number | null;
  derivation: string | null;
  /** A period source's figure: the last day it is valid for; null for a daily source. */
  validTo: string | null;
  kind: string;
  reason: string;
  source: string | null;
  status: AnomalyStatus;
  firstSeenAt: string;
  lastSeenAt: string;
  timesSeen: number;
  fetchId: number;
  releasedAt: string | null;
  releasedBy: string | null;
}

/**
 * The identity of an anomaly: the bank, the kind and the figure as sent. A row that carries no figure
 * at all is told apart by its reason.
 */
export function fingerprintOf(bankId: string, a: AnomalyInput): string {
  const figure = [a.effectiveDate ?? "", a.currency ?? "", a.rate ?? "", a.unitMultiplier ?? 0];
  return JSON.stringify([bankId, a.kind, ...figure, a.rate === undefined ? a.reason : ""]);
}

/** The key of a figure: what a held or released decision is remembered by. */
export function figureKey(date: string, currency: string, rate: string, unitMultiplier = 0): string {
  return `${date} ${currency} ${rate} ${unitMultiplier}`;
}

const prepared = new WeakMap<SqliteStore, ReturnType<typeof prepare>>();

function prepare(store: SqliteStore) {
  const { sqlite } = store;
  return {
    find: sqlite.prepare("select id from anomalies where fingerprint = ?").pluck(),
    seenAgain: sqlite.prepare(
      "update anomalies set last_seen_at = ?, times_seen = times_seen + 1 where fingerprint = ?",
    ),
    insert: sqlite.prepare(`
      insert into anomalies (bank_id, effective_date, currency, rate, unit_multiplier, derivation, kind, reason,
        source, status, fingerprint, first_seen_at, last_seen_at, fetch_id, valid_to)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    decisions: sqlite.prepare(`
      select effective_date, currency, rate, unit_multiplier, status from anomalies
      where bank_id = ? and effective_date between ? and ? and status in ('held', 'released') and rate is not null`),
    quoting: sqlite.prepare(`
      insert into bank_quoting (bank_id, base_currency, quote_type) values (?, ?, ?)
      on conflict (bank_id) do update set base_currency = excluded.base_currency, quote_type = excluded.quote_type`),
    // warnedFigures' query: a publish asks it of every bank, and building the kysely query cost more than running it.
    warned: sqlite.prepare(`
      select effective_date, currency, rate, unit_multiplier, reason from anomalies
      where bank_id = ? and status = 'warned' and effective_date >= ? and effective_date <= ?
      order by effective_date, currency, id`),
  };
}

function statements(store: SqliteStore) {
  let s = prepared.get(store);
  if (!s) prepared.set(store, (s = prepare(store)));
  return s;
}

/**
 * Stores anomalies found in one answer (call inside the ingest's transaction). Returns the ones seen for
 * the first time, so that they are logged once and not at every poll.
 */
export function recordAnomalies(
  store: SqliteStore,
  bankId: string,
  fetchId: number,
  inputs: readonly AnomalyInput[],
  now: Date,
): AnomalyInput[] {
  const s = statements(store);
  const at = now.toISOString();
  const fresh: AnomalyInput[] = [];
  for (const a of inputs) {
    const fingerprint = fingerprintOf(bankId, a);
    if (s.find.get(fingerprint) !== undefined) {
      s.seenAgain.run(at, fingerprint);
      continue;
    }
    s.insert.run(
      bankId,
      a.effectiveDate ?? null,
      a.currency ?? null,
      a.rate ?? null,
      a.unitMultiplier ?? null,
      a.derivation ?? null,
      a.kind,
      a.reason,
      a.source ?? null,
      a.status,
      fingerprint,
      at,
      at,
      fetchId,
      a.validTo ?? null,
    );
    fresh.push(a);
  }
  return fresh;
}

/**
 * Figures of a bank between two dates that a person or the check already decided on: `held` ones stay
 * held when sent again, `released` ones are taken without a new check. Keyed by figureKey.
 */
export function decidedFigures(
  store: SqliteStore,
  bankId: string,
  from: IsoDate,
  to: IsoDate,
): Map<string, AnomalyStatus> {
  const rows = statements(store).decisions.all(bankId, from, to) as Array<{
    effective_date: string;
    currency: string;
    rate: string;
    unit_multiplier: number | null;
    status: AnomalyStatus;
  }>;
  const out = new Map<string, AnomalyStatus>();
  for (const r of rows) {
    const key = figureKey(r.effective_date, r.currency, r.rate, r.unit_multiplier ?? 0);
    // A release wins over a hold of the same figure for another reason.
    if (out.get(key) !== "released") out.set(key, r.status);
  }
  return out;
}

/** Remembers how a bank quotes (call inside the ingest's transaction). */
export function recordQuoting(store: SqliteStore, bankId: string, baseCurrency: string, quoteType: QuoteType): void {
  statements(store).quoting.run(bankId, baseCurrency, quoteType);
}

/** How every bank that ingested quotes its rates. */
export function quotingOfBanks(store: SqliteStore): Map<string, { baseCurrency: string; quoteType: QuoteType }> {
  const rows = store.sqlite.prepare("select bank_id, base_currency, quote_type from bank_quoting").all() as Array<{
    bank_id: string;
    base_currency: string;
    quote_type: QuoteType;
  }>;
  return new Map(rows.map((r) => [r.bank_id, { baseCurrency: r.base_currency, quoteType: r.quote_type }]));
}

function toAnomaly(r: Selectable<AnomaliesTable>): Anomaly {
  return {
    id: r.id,
    bankId: r.bank_id,
    effectiveDate: r.effective_date,
    currency: r.currency,
    rate: r.rate,
    unitMultiplier: r.unit_multiplier,
    derivation: r.derivation,
    validTo: r.valid_to,
    kind: r.kind,
    reason: r.reason,
    source: r.source,
    status: r.status as AnomalyStatus,
    firstSeenAt: r.first_seen_at,
    lastSeenAt: r.last_seen_at,
    timesSeen: r.times_seen,
    fetchId: r.fetch_id,
    releasedAt: r.released_at,
    releasedBy: r.released_by,
  };
}

/** Anomalies, oldest first; of some banks only, or of some statuses only, when given. */
export async function listAnomalies(
  store: Store,
  filter: { banks?: readonly string[]; statuses?: readonly AnomalyStatus[] } = {},
): Promise<Anomaly[]> {
  let q = store.db.selectFrom("anomalies").selectAll();
  if (filter.banks?.length) q = q.where("bank_id", "in", [...filter.banks]);
  if (filter.statuses?.length) q = q.where("status", "in", [...filter.statuses]);
  const rows = await q.orderBy("id").execute();
  return rows.map(toAnomaly);
}

export async function getAnomaly(store: Store, id: number): Promise<Anomaly | undefined> {
  const row = await store.db.selectFrom("anomalies").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAnomaly(row) : undefined;
}

/** Held and warned counts per bank, for `exrates banks` and /v1/status. */
export async function anomalyCounts(store: Store): Promise<Map<string, { held: number; warned: number }>> {
  const rows = await store.db
    .selectFrom("anomalies")
    .select(["bank_id", "status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["held", "warned"])
    .groupBy(["bank_id", "status"])
    .execute();
  const out = new Map<string, { held: number; warned: number }>();
  for (const r of rows) {
    const counts = out.get(r.bank_id) ?? { held: 0, warned: 0 };
    counts[r.status as "held" | "warned"] = Number(r.n);
    out.set(r.bank_id, counts);
  }
  return out;
}

/** Marks an anomaly released by a person (call in the transaction that stores its figure). */
export function markReleased(store: SqliteStore, id: number, by: string, now: Date): void {
  store.sqlite
    .prepare("update anomalies set status = 'released', released_at = ?, released_by = ? where id = ?")
    .run(now.toISOString(), by, id);
}

/** A figure the check warned about, as it was warned about (src/store/history.ts's RateWarning matches it to the stored one). */
export interface WarnedFigure {
  effectiveDate: string;
  currency: string;
  rate: string;
  unitMultiplier: number;
  reason: string;
}

/** The warned figures of a bank from one date to another, by date, currency and when first seen. */
export async function warnedFigures(store: Store, bankId: string, from: IsoDate, to: IsoDate): Promise<WarnedFigure[]> {
  const rows =
    store.dialect === "sqlite"
      ? (statements(store).warned.all(bankId, from, to) as WarnedRow[])
      : await store.db
          .selectFrom("anomalies")
          .select(["effective_date", "currency", "rate", "unit_multiplier", "reason"])
          .where("bank_id", "=", bankId)
          .where("status", "=", "warned")
          .where("effective_date", ">=", from)
          .where("effective_date", "<=", to)
          .orderBy("effective_date")
          .orderBy("currency")
          .orderBy("id")
          .execute();
  return rows.flatMap((r) =>
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
}

interface WarnedRow {
  effective_date: string | null;
  currency: string | null;
  rate: string | null;
  unit_multiplier: number | null;
  reason: string;
}

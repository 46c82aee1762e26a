// `exrates backfill`: loads a bank's history chunk by chunk (each within what its API allows per
// call). Every chunk is one ingest (one transaction) and, once stored, is recorded in
// backfill_chunks, so a run killed at any point (kill -9, Ctrl-C, a crash) resumes where it stopped:
// stored chunks are skipped, the chunk in flight is fetched again, and re-storing is idempotent.
import { UserError, describeError } from "../errors.js";
import { addDays, chunkRange, isIsoDate, todayIn } from "../feed/dates.js";
import { fetchAndStore } from "../ingest/ingest.js";
import { asTreeTarget, type TreeTarget } from "../publish/target.js";
import { expectedNewestDate, publicationDaysBetween } from "../schedule/time.js";
import type { Insertable } from "kysely";

import type { Store } from "../store/database.js";
import type { BackfillChunksTable } from "../store/schema.js";
import type { BankAdapter, HttpClient, IsoDate } from "../types.js";
import { politeHttp } from "./polite.js";

export interface DateRange {
  from: IsoDate;
  to: IsoDate;
}

export interface BankBackfillPlan {
  adapter: BankAdapter;
  from: IsoDate;
  to: IsoDate;
  chunks: DateRange[];
}

export interface BackfillRequest {
  from?: string;
  to?: string;
  now?: Date;
}

/** Checks --from/--to and splits each bank's range into chunks. Throws UserError on bad input. */
export function planBackfill(adapters: BankAdapter[], request: BackfillRequest = {}): BankBackfillPlan[] {
  for (const [flag, value] of [
    ["--from", request.from],
    ["--to", request.to],
  ] as const) {
    if (value !== undefined && !isIsoDate(value)) throw new UserError(`${flag} "${value}" is not a date (YYYY-MM-DD)`);
  }
  if (request.from && request.to && request.from > request.to) {
    throw new UserError(`--from ${request.from} is after --to ${request.to}`);
  }
  const now = request.now ?? new Date();
  return adapters.map((adapter) => {
    const { bank } = adapter;
    const today = todayIn(bank.timeZone, now);
    const from = request.from && request.from > bank.coverageStart ? request.from : bank.coverageStart;
    const to = request.to && request.to < today ? request.to : today;
    return { adapter, from, to, chunks: from <= to ? chunkRange(from, to, bank.maxRangeDays) : [] };
  });
}

/** True when [from, to] lies inside the union of the given ranges. */
export function isCovered(done: DateRange[], from: IsoDate, to: IsoDate): boolean {
  let reach = from; // every day before `reach` is covered
  for (const r of [...done].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))) {
    if (r.from > reach) break;
    if (r.to >= reach) reach = addDays(r.to, 1);
    if (reach > to) return true;
  }
  return reach > to;
}

export interface ChunkEvent {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  status: "stored" | "skipped" | "failed";
  inserted: number;
  revised: number;
  unchanged: number;
  /** Publication days (by the bank's calendar) in the chunk with no rates stored: holidays, gaps. */
  daysWithoutPublication: number;
  error?: string;
  ms: number;
  /** Chunks handled so far, over all banks, and the total. */
  done: number;
  total: number;
}

export interface BankSummary {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  chunks: number;
  stored: number;
  skipped: number;
  failed: number;
  inserted: number;
  revised: number;
  unchanged: number;
  daysWithoutPublication: number;
  errors: string[];
}

export interface BackfillSummary {
  banks: BankSummary[];
  totals: Omit<BankSummary, "bankId" | "from" | "to" | "errors"> & { errors: number };
  interrupted: boolean;
}

export interface BackfillRunOptions {
  http: HttpClient;
  env?: Readonly<Record<string, string | undefined>>;
  /** Banks worked on at once (requests to one host are still one at a time). Default 2. */
  concurrency?: number;
  /** Pause between two requests to the same host, in ms. Default 250. */
  pauseMs?: number;
  /** Aborting stops starting new chunks; chunks in flight finish and are recorded. */
  signal?: AbortSignal;
  now?: () => Date;
  /** A bank is abandoned after this many failed chunks in a row. Default 3. */
  maxConsecutiveFailures?: number;
  /** A chunk is about to be fetched (skipped chunks are not). */
  onChunkStart?: (chunk: ChunkStart) => void;
  onChunk?: (event: ChunkEvent) => void;
}

export interface ChunkStart {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
}

/** Ranges already completed for a bank. */
export async function completedChunks(store: Store, bankId: string): Promise<DateRange[]> {
  const rows = await store.db
    .selectFrom("backfill_chunks")
    .select(["from_date", "to_date"])
    .where("bank_id", "=", bankId)
    .execute();
  return rows.map((r) => ({ from: r.from_date, to: r.to_date }));
}

async function storedDates(store: Store, bankId: string, from: IsoDate, to: IsoDate): Promise<Set<IsoDate>> {
  const rows = await store.db
    .selectFrom("rates")
    .select("effective_date")
    .distinct()
    .where("bank_id", "=", bankId)
    .where("effective_date", ">=", from)
    .where("effective_date", "<=", to)
    .execute();
  return new Set(rows.map((r) => r.effective_date));
}

/** Remembers a completed chunk (a later run skips it). */
async function recordChunk(store: Store, row: Insertable<BackfillChunksTable>): Promise<void> {
  const { completed_at, inserted, revised, unchanged, days_without } = row;
  await store.db
    .insertInto("backfill_chunks")
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(["bank_id", "from_date", "to_date"])
        .doUpdateSet({ completed_at, inserted, revised, unchanged, days_without }),
    )
    .execute();
}

export async function runBackfill(
  store: Store,
  plans: BankBackfillPlan[],
  options: BackfillRunOptions,
): Promise<BackfillSummary> {
  const http = politeHttp(options.http, options.pauseMs ?? 250);
  const now = options.now ?? (() => new Date());
  const maxFailures = options.maxConsecutiveFailures ?? 3;
  const total = plans.reduce((n, p) => n + p.chunks.length, 0);
  let done = 0;
  const summaries: BankSummary[] = plans.map((p) => ({
    bankId: p.adapter.bank.id,
    from: p.from,
    to: p.to,
    chunks: p.chunks.length,
    stored: 0,
    skipped: 0,
    failed: 0,
    inserted: 0,
    revised: 0,
    unchanged: 0,
    daysWithoutPublication: 0,
    errors: [],
  }));

  async function backfillBank(plan: BankBackfillPlan, summary: BankSummary): Promise<void> {
    const { bank } = plan.adapter;
    const completed = await completedChunks(store, bank.id);
    let failuresInARow = 0;
    for (const chunk of plan.chunks) {
      if (options.signal?.aborted) return;
      const started = Date.now();
      const event = (e: Partial<ChunkEvent> & Pick<ChunkEvent, "status">): ChunkEvent => ({
        bankId: bank.id,
        ...chunk,
        inserted: 0,
        revised: 0,
        unchanged: 0,
        daysWithoutPublication: 0,
        ms: Date.now() - started,
        done: ++done,
        total,
        ...e,
      });
      if (isCovered(completed, chunk.from, chunk.to)) {
        summary.skipped++;
        options.onChunk?.(event({ status: "skipped" }));
        continue;
      }
      options.onChunkStart?.({ bankId: bank.id, ...chunk });
      try {
        const result = await fetchAndStore(
          store,
          plan.adapter,
          { kind: "range", ...chunk },
          { http, env: options.env ?? process.env, signal: options.signal },
        );
        // Publication days up to what should exist by now, without any stored rate.
        const expected = expectedNewestDate(bank, now());
        const last = chunk.to < expected ? chunk.to : expected;
        const have = await storedDates(store, bank.id, chunk.from, last);
        const daysWithout = publicationDaysBetween(bank, addDays(chunk.from, -1), last).filter(
          (d) => !have.has(d),
        ).length;
        // A chunk reaching past the newest expected publication is not recorded: it is fetched again next time.
        if (chunk.to < expected) {
          await recordChunk(store, {
            bank_id: bank.id,
            from_date: chunk.from,
            to_date: chunk.to,
            completed_at: now().toISOString(),
            inserted: result.inserted,
            revised: result.revised,
            unchanged: result.unchanged,
            days_without: daysWithout,
          });
        }
        summary.stored++;
        summary.inserted += result.inserted;
        summary.revised += result.revised;
        summary.unchanged += result.unchanged;
        summary.daysWithoutPublication += daysWithout;
        failuresInARow = 0;
        options.onChunk?.(
          event({
            status: "stored",
            inserted: result.inserted,
            revised: result.revised,
            unchanged: result.unchanged,
            daysWithoutPublication: daysWithout,
          }),
        );
      } catch (error) {
        const message = describeError(error);
        summary.failed++;
        summary.errors.push(`${chunk.from}..${chunk.to}: ${message}`);
        options.onChunk?.(event({ status: "failed", error: message }));
        if (++failuresInARow >= maxFailures) {
          summary.errors.push(
            `gave up on ${bank.id} after ${failuresInARow} failed chunks in a row; run the backfill again to retry`,
          );
          return;
        }
      }
    }
  }

  const queue = plans.map((plan, i) => [plan, summaries[i]!] as const);
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, queue.length)) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (options.signal?.aborted) return;
      await backfillBank(...next);
    }
  });
  await Promise.all(workers);

  const totals = {
    chunks: 0,
    stored: 0,
    skipped: 0,
    failed: 0,
    inserted: 0,
    revised: 0,
    unchanged: 0,
    daysWithoutPublication: 0,
    errors: 0,
  };
  for (const s of summaries) {
    for (const key of [
      "chunks",
      "stored",
      "skipped",
      "failed",
      "inserted",
      "revised",
      "unchanged",
      "daysWithoutPublication",
    ] as const)
      totals[key] += s[key];
    totals.errors += s.failed;
  }
  return { banks: summaries, totals, interrupted: options.signal?.aborted === true };
}

/** Each bank's newest effective date and when its figures of that date were last stored. */
async function newestStored(
  store: Store,
  bankIds: string[],
): Promise<Map<string, { date: IsoDate | null; storedAt: string | null }>> {
  const out = new Map<string, { date: IsoDate | null; storedAt: string | null }>();
  for (const id of bankIds) {
    const row = await store.db
      .selectFrom("rates")
      .select(["effective_date as date", (eb) => eb.fn.max("stored_at").as("storedAt")])
      .where("bank_id", "=", id)
      .where("effective_date", "=", (eb) =>
        eb
          .selectFrom("rates")
          .select((e) => e.fn.max("effective_date").as("d"))
          .where("bank_id", "=", id),
      )
      .groupBy("effective_date")
      .executeTakeFirst();
    out.set(id, { date: row?.date ?? null, storedAt: row?.storedAt ?? null });
  }
  return out;
}

/**
 * The banks whose stored data the published tree does not show yet: a newer date than the tree's, or
 * figures of the tree's date stored after it was published (a run interrupted before its publish,
 * a run with --no-publish). The publisher re-renders only what really differs.
 */
export async function unpublishedBanks(
  store: Store,
  target: string | TreeTarget,
  bankIds: string[],
): Promise<string[]> {
  const tree = await asTreeTarget(target).current();
  const newest = await newestStored(store, bankIds);
  return bankIds.filter((id) => {
    const stored = newest.get(id) ?? { date: null, storedAt: null };
    if (stored.date === null) return false;
    const published = tree?.manifest.banks[id];
    if (!published) return true;
    return stored.date > published.effectiveDate || (stored.storedAt ?? "") > published.lastModified;
  });
}

// `exrates backfill`: loads a bank's history chunk by chunk (each within what its API allows per
// call). Every chunk is one ingest (one transaction) and, once stored, the dates its answer contained
// are recorded in backfill_chunks, so a run killed at any point (kill -9, Ctrl-C, a crash) resumes where
// it stopped: recorded ranges are skipped, the rest is fetched again, and re-storing is idempotent.
//
// A range is recorded done only as far as the answer contained it: from the chunk's first day to the
// last date the answer held rates for, with the days after it that are not publication days. An answer
// that holds none of the chunk's dates (another period, a 404 an adapter reads as "no publication") and
// the days after an answer's last date are not done: they wait for the next chunk's answer, whose dates
// show that the bank went on publishing (the gap was holidays), or, at the end, for a store that already
// holds every publication day of them; otherwise they are reported as not done and fetched again next
// time. A chunk without any publication day is done once fetched. Each chunk gets one verdict (done, not
// done, skipped, failed), and a not-done range is said from its first to its last publication day.
// `force` fetches recorded ranges again and forgets their records.
import { UserError, describeError } from "../errors.js";
import { addDays, chunkRange, isIsoDate, todayIn } from "../feed/dates.js";
import { asParsedAnswer } from "../feed/rows.js";
import { fetchAndStore } from "../ingest/ingest.js";
import { asTreeTarget, type TreeTarget } from "../publish/target.js";
import { expectedNewestDate, isPublicationDay, publicationDaysBetween } from "../schedule/time.js";
import type { Insertable } from "../store/kysely.js";

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
  /** Why the range asked for has nothing of this bank (before its coverage, after it, in the future). */
  outside?: string;
}

export interface BackfillRequest {
  from?: string;
  to?: string;
  now?: Date;
  /**
   * A bank whose coverage the range misses: `refuse` (a UserError naming it, the default: a bank asked
   * for by name) or `skip` (the plan has no chunks and says why: `--all`).
   */
  outside?: "refuse" | "skip";
}

/** What a bank's feed covers, in words: "ECB covers 1999-01-04 onward", "BBK covers 1948-06-21 to 1998-12-31". */
export function coverageText(bank: BankAdapter["bank"]): string {
  return `${bank.id} covers ${bank.coverageStart}${bank.coverageEnd ? ` to ${bank.coverageEnd}` : " onward"}`;
}

/** Why [from, to] asked of a bank holds nothing it can have, or undefined. */
function outsideCoverage(bank: BankAdapter["bank"], request: BackfillRequest, today: IsoDate): string | undefined {
  const asked =
    request.from && request.to
      ? `${request.from}..${request.to}`
      : request.from
        ? `--from ${request.from}`
        : `--to ${request.to}`;
  if (request.to && request.to < bank.coverageStart) return `${coverageText(bank)}: ${asked} is before it`;
  if (request.from && bank.coverageEnd && request.from > bank.coverageEnd)
    return `${coverageText(bank)} (its feed ends there): ${asked} is after it`;
  if (request.from && request.from > today)
    return `${bank.id}: ${asked} is in the future (today in ${bank.timeZone} is ${today})`;
  return undefined;
}

/**
 * Checks --from/--to and splits each bank's range (within its coverage, up to today in its zone) into
 * chunks. Throws UserError on bad input, and on a range outside a bank's coverage unless told to skip it.
 */
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
    const last = bank.coverageEnd && bank.coverageEnd < today ? bank.coverageEnd : today;
    const from = request.from && request.from > bank.coverageStart ? request.from : bank.coverageStart;
    const to = request.to && request.to < last ? request.to : last;
    const outside = outsideCoverage(bank, request, today);
    if (outside && request.outside !== "skip") throw new UserError(outside);
    if (outside) return { adapter, from, to, chunks: [], outside };
    return { adapter, from, to, chunks: from <= to ? chunkRange(from, to, bank.maxRangeDays) : [] };
  });
}

/** True when [from, to] lies inside the union of the given ranges. */
export function isCovered(done: DateRange[], from: IsoDate, to: IsoDate): boolean {
  return firstUncovered(done, from) > to;
}

/** The first day on or after `from` that no range covers. */
export function firstUncovered(done: DateRange[], from: IsoDate): IsoDate {
  let reach = from; // every day before `reach` is covered
  for (const r of [...done].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))) {
    if (r.from > reach) break;
    if (r.to >= reach) reach = addDays(r.to, 1);
  }
  return reach;
}

/**
 * How a chunk ended: `stored` (done: its answer contained its dates), `partial` (its answer stopped
 * before its end: done up to its last date), `empty` (its answer contained none of its dates),
 * `skipped` (recorded done by an earlier run), `failed`.
 */
export type ChunkStatus = "stored" | "partial" | "empty" | "skipped" | "failed";

export interface ChunkEvent {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  status: ChunkStatus;
  inserted: number;
  revised: number;
  unchanged: number;
  /** Publication days (by the bank's calendar) in the chunk with no rates stored: holidays, gaps. */
  daysWithoutPublication: number;
  /** The first and last date the answer contained (any period), when it contained rates. */
  answered?: DateRange;
  error?: string;
  ms: number;
  /** Chunks handled so far, over all banks, and the total. */
  done: number;
  total: number;
}

/** A range fetched without error whose answer did not contain it: not recorded as done. */
export interface NotDone extends DateRange {
  reason: string;
}

export interface BankSummary {
  bankId: string;
  from: IsoDate;
  to: IsoDate;
  chunks: number;
  /**
   * The chunk verdict, one per chunk handled: `stored` (fetched, and all of it done), `unfinished` (fetched,
   * but part of it is listed in `notDone`), `skipped` (recorded done by an earlier run) or `failed`. Chunks
   * not reached (interrupted, a bank given up) are in none.
   */
  stored: number;
  unfinished: number;
  skipped: number;
  failed: number;
  inserted: number;
  revised: number;
  unchanged: number;
  daysWithoutPublication: number;
  /** Ranges left not done although fetched: the next run fetches them again. */
  notDone: NotDone[];
  errors: string[];
}

type Counted =
  | "chunks"
  | "stored"
  | "unfinished"
  | "skipped"
  | "failed"
  | "inserted"
  | "revised"
  | "unchanged"
  | "daysWithoutPublication";

export interface BackfillSummary {
  banks: BankSummary[];
  totals: Pick<BankSummary, Counted> & { errors: number; notDone: number };
  interrupted: boolean;
}

export interface BackfillRunOptions {
  http: HttpClient;
  env?: Readonly<Record<string, string | undefined>>;
  /** Banks worked on at once (requests to one host are still one at a time). Default 2. */
  concurrency?: number;
  /** Pause between two requests to the same host, in ms. Default 250. */
  pauseMs?: number;
  /** Fetch ranges recorded as done again (their records are forgotten first). */
  force?: boolean;
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

/**
 * Forgets what is recorded done of a bank between two dates (`--force`): records inside are deleted,
 * records reaching outside keep their outside parts.
 */
export async function forgetChunks(store: Store, bankId: string, from: IsoDate, to: IsoDate): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("backfill_chunks")
      .selectAll()
      .where("bank_id", "=", bankId)
      .where("from_date", "<=", to)
      .where("to_date", ">=", from)
      .execute();
    for (const row of rows) {
      await tx
        .deleteFrom("backfill_chunks")
        .where("bank_id", "=", bankId)
        .where("from_date", "=", row.from_date)
        .where("to_date", "=", row.to_date)
        .execute();
      const kept: DateRange[] = [];
      if (row.from_date < from) kept.push({ from: row.from_date, to: addDays(from, -1) });
      if (row.to_date > to) kept.push({ from: addDays(to, 1), to: row.to_date });
      for (const part of kept)
        await tx
          .insertInto("backfill_chunks")
          .values({ ...row, from_date: part.from, to_date: part.to, inserted: 0, revised: 0, unchanged: 0 })
          .onConflict((oc) => oc.columns(["bank_id", "from_date", "to_date"]).doNothing())
          .execute();
    }
  });
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

/** Remembers a completed range (a later run skips it). */
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

/**
 * The adapter, noting every effective date its answers contain (rows taken or held alike): what a
 * chunk's answer covered, whatever the store already held.
 */
function noteDates(adapter: BankAdapter, dates: Set<IsoDate>): BankAdapter {
  return {
    ...adapter,
    async parse(body, ctx) {
      const output = await adapter.parse(body, ctx);
      const { records, held } = asParsedAnswer(output);
      for (const r of records) dates.add(r.effectiveDate);
      for (const h of held) if (h.effectiveDate && isIsoDate(h.effectiveDate)) dates.add(h.effectiveDate);
      return output;
    },
  };
}

/** What a fetched chunk's answer covered. */
interface Coverage {
  /** The done part, from the chunk's start; undefined when nothing of it is done. */
  done?: DateRange;
  /** The part of the chunk (up to the expected newest date) the answer did not contain. */
  missing?: NotDone;
  status: "stored" | "partial" | "empty";
  /** The answer contained a date of the chunk: the bank published in it. */
  contained: boolean;
  answered?: DateRange;
}

const span = (dates: Set<IsoDate>): DateRange | undefined => {
  if (dates.size === 0) return undefined;
  const sorted = [...dates].sort();
  return { from: sorted[0]!, to: sorted.at(-1)! };
};

const QUARTER_STARTS = ["01", "04", "07", "10"];

/**
 * Whether `date` is one a bank's answers are keyed by: a publication day for a daily bank; for a period
 * source (a cadence), the first or last day of the period its publications cover (HMRC's month start,
 * the US Treasury's quarter end), not the day it publishes, so a month stored at its 1st leaves none of
 * the month's other days "not done".
 */
function isExpectedDate(bank: BankAdapter["bank"], date: IsoDate): boolean {
  const covers = bank.cadence?.covers;
  const next = addDays(date, 1);
  switch (covers) {
    case undefined:
    case "runDay":
      return isPublicationDay(bank, date);
    case "nextMonthStart":
      return date.endsWith("-01");
    case "previousMonthEnd":
      return next.endsWith("-01");
    case "previousQuarterEnd":
      return next.endsWith("-01") && QUARTER_STARTS.includes(next.slice(5, 7));
    case "nextQuarterStart":
      return date.endsWith("-01") && QUARTER_STARTS.includes(date.slice(5, 7));
  }
}

/** The expected dates after `after` up to `last` (publicationDaysBetween for a daily bank). */
function expectedDatesBetween(bank: BankAdapter["bank"], after: IsoDate, last: IsoDate): IsoDate[] {
  if (!bank.cadence || bank.cadence.covers === "runDay") return publicationDaysBetween(bank, after, last);
  const dates: IsoDate[] = [];
  for (let d = addDays(after, 1); d <= last; d = addDays(d, 1)) if (isExpectedDate(bank, d)) dates.push(d);
  return dates;
}

/**
 * Which part of a chunk its answer covered. `expected`: the newest date the bank should have published by
 * now (later days cannot be missing yet).
 */
export function chunkCoverage(
  bank: BankAdapter["bank"],
  chunk: DateRange,
  answerDates: Set<IsoDate>,
  expected: IsoDate,
): Coverage {
  const answered = span(answerDates);
  const last = chunk.to < expected ? chunk.to : expected;
  const inChunk = [...answerDates].filter((d) => d >= chunk.from && d <= chunk.to).sort();
  if (inChunk.length === 0) {
    // Nothing could have been contained: done. Otherwise nothing is done.
    if (expectedDatesBetween(bank, addDays(chunk.from, -1), last).length === 0)
      return { done: { ...chunk }, status: "stored", contained: false, answered };
    const what = answered ? `it contained ${answered.from} to ${answered.to}` : "it contained no rates";
    return {
      status: "empty",
      contained: false,
      answered,
      missing: { from: chunk.from, to: last, reason: `the answer contained none of these dates (${what})` },
    };
  }
  // Done to the last date contained, and the days after it on which the bank does not publish.
  let doneTo = inChunk.at(-1)!;
  while (doneTo < chunk.to && !isExpectedDate(bank, addDays(doneTo, 1))) doneTo = addDays(doneTo, 1);
  const done = { from: chunk.from, to: doneTo };
  if (expectedDatesBetween(bank, doneTo, last).length === 0)
    return { done: { from: chunk.from, to: chunk.to }, status: "stored", contained: true, answered };
  return {
    done,
    status: "partial",
    contained: true,
    answered,
    missing: {
      from: addDays(doneTo, 1),
      to: last,
      reason: `the answer's last date in the range is ${inChunk.at(-1)!}`,
    },
  };
}

const COUNTED: Counted[] = [
  "chunks",
  "stored",
  "unfinished",
  "skipped",
  "failed",
  "inserted",
  "revised",
  "unchanged",
  "daysWithoutPublication",
];

type Counts = Pick<ChunkEvent, "inserted" | "revised" | "unchanged" | "daysWithoutPublication">;

/** What one run shares among its banks. */
interface Run {
  store: Store;
  options: BackfillRunOptions;
  http: HttpClient;
  now: () => Date;
  maxFailures: number;
  total: number;
  /** Chunks handled so far, over all banks. */
  done: number;
}

/** One bank's state during a run. */
interface BankRun {
  run: Run;
  plan: BankBackfillPlan;
  summary: BankSummary;
  /** Ranges recorded done (by earlier runs and this one). */
  completed: DateRange[];
  /** Fetched ranges the answers did not contain, waiting for a later answer to show the bank went on. */
  waiting: NotDone[];
  /** The ranges fetched without error, one per chunk: judged done or not once the bank is finished. */
  fetched: DateRange[];
  failuresInARow: number;
}

function emptySummary(plan: BankBackfillPlan): BankSummary {
  return {
    bankId: plan.adapter.bank.id,
    from: plan.from,
    to: plan.to,
    chunks: plan.chunks.length,
    stored: 0,
    unfinished: 0,
    skipped: 0,
    failed: 0,
    inserted: 0,
    revised: 0,
    unchanged: 0,
    daysWithoutPublication: 0,
    notDone: [],
    errors: [],
  };
}

function sumTotals(summaries: BankSummary[]): BackfillSummary["totals"] {
  const totals = {
    ...Object.fromEntries(COUNTED.map((k) => [k, 0])),
    errors: 0,
    notDone: 0,
  } as BackfillSummary["totals"];
  for (const s of summaries) {
    for (const key of COUNTED) totals[key] += s[key];
    totals.errors += s.failed;
    totals.notDone += s.notDone.length;
  }
  return totals;
}

/** Records a range done (a later run skips it). */
async function recordDone(b: BankRun, range: DateRange, counts: Partial<Counts> = {}): Promise<void> {
  await recordChunk(b.run.store, {
    bank_id: b.plan.adapter.bank.id,
    from_date: range.from,
    to_date: range.to,
    completed_at: b.run.now().toISOString(),
    inserted: counts.inserted ?? 0,
    revised: counts.revised ?? 0,
    unchanged: counts.unchanged ?? 0,
    days_without: counts.daysWithoutPublication ?? 0,
  });
  b.completed.push(range);
}

/** A later answer showed the bank went on publishing: what waited were days without rates, done. */
async function releaseWaiting(b: BankRun): Promise<void> {
  for (const w of b.waiting) await recordDone(b, w);
  b.waiting = [];
}

/** The event of a chunk handled, counted among those handled so far. */
function chunkEvent(
  b: BankRun,
  range: DateRange,
  started: number,
  e: Partial<ChunkEvent> & Pick<ChunkEvent, "status">,
): ChunkEvent {
  return {
    bankId: b.plan.adapter.bank.id,
    ...range,
    inserted: 0,
    revised: 0,
    unchanged: 0,
    daysWithoutPublication: 0,
    ms: Date.now() - started,
    done: ++b.run.done,
    total: b.run.total,
    ...e,
  };
}

/** Publication days of [from, to] up to what should exist by now, without any stored rate. */
async function daysWithoutRates(
  b: BankRun,
  todo: DateRange,
  expected: IsoDate,
): Promise<{ have: Set<IsoDate>; count: number }> {
  const { bank } = b.plan.adapter;
  const last = todo.to < expected ? todo.to : expected;
  const have = await storedDates(b.run.store, bank.id, todo.from, last);
  const count = expectedDatesBetween(bank, addDays(todo.from, -1), last).filter((d) => !have.has(d)).length;
  return { have, count };
}

/** Fetches and stores a chunk's range, records what its answer covered; returns the chunk's event fields. */
async function fetchChunk(b: BankRun, todo: DateRange): Promise<Partial<ChunkEvent> & Pick<ChunkEvent, "status">> {
  const { run, plan, summary } = b;
  const { bank } = plan.adapter;
  const answerDates = new Set<IsoDate>();
  const result = await fetchAndStore(
    run.store,
    noteDates(plan.adapter, answerDates),
    { kind: "range", ...todo },
    { http: run.http, env: run.options.env ?? process.env, signal: run.options.signal },
    run.now(),
  );
  const expected = expectedNewestDate(bank, run.now());
  const without = await daysWithoutRates(b, todo, expected);
  const counts: Counts = {
    inserted: result.inserted,
    revised: result.revised,
    unchanged: result.unchanged,
    daysWithoutPublication: without.count,
  };
  const coverage = chunkCoverage(bank, todo, answerDates, expected);
  // The chunk reaching the newest expected publication is never recorded: it is fetched again next time.
  const final = todo.to >= expected;
  if (coverage.contained) await releaseWaiting(b);
  if (coverage.done && !final) await recordDone(b, coverage.done, counts);
  if (coverage.missing) {
    if (!final) b.waiting.push(coverage.missing);
    // The newest chunk: not done when nothing of it is stored at all.
    else if (coverage.status === "empty" && without.have.size === 0) summary.notDone.push(coverage.missing);
  }
  b.fetched.push(todo);
  summary.inserted += result.inserted;
  summary.revised += result.revised;
  summary.unchanged += result.unchanged;
  summary.daysWithoutPublication += without.count;
  b.failuresInARow = 0;
  return { status: coverage.status, ...counts, answered: coverage.answered };
}

/** Counts a failed chunk; true when the bank is to be given up (too many failures in a row). */
function chunkFailed(b: BankRun, todo: DateRange, message: string): boolean {
  b.summary.failed++;
  b.summary.errors.push(`${todo.from}..${todo.to}: ${message}`);
  if (++b.failuresInARow < b.run.maxFailures) return false;
  b.summary.errors.push(
    `gave up on ${b.plan.adapter.bank.id} after ${b.failuresInARow} failed chunks in a row; run the backfill again to retry`,
  );
  return true;
}

/** Handles one chunk: skipped when recorded done, else fetched. Returns false when the bank is given up. */
async function backfillChunk(b: BankRun, chunk: DateRange): Promise<boolean> {
  const { options } = b.run;
  const started = Date.now();
  // What an earlier run recorded of this chunk is not fetched again (unless forced).
  const todo = { from: firstUncovered(b.completed, chunk.from), to: chunk.to };
  if (todo.from > todo.to) {
    // Recorded by an answer that contained its dates: what waited before it was days without rates.
    await releaseWaiting(b);
    b.summary.skipped++;
    options.onChunk?.(chunkEvent(b, chunk, started, { status: "skipped" }));
    return true;
  }
  options.onChunkStart?.({ bankId: b.plan.adapter.bank.id, ...todo });
  try {
    const fields = await fetchChunk(b, todo);
    options.onChunk?.(chunkEvent(b, todo, started, fields));
    return true;
  } catch (error) {
    const message = describeError(error);
    const giveUp = chunkFailed(b, todo, message);
    options.onChunk?.(chunkEvent(b, todo, started, { status: "failed", error: message }));
    return !giveUp;
  }
}

async function backfillBank(run: Run, plan: BankBackfillPlan, summary: BankSummary): Promise<void> {
  const { bank } = plan.adapter;
  if (run.options.force && plan.chunks.length) await forgetChunks(run.store, bank.id, plan.from, plan.to);
  const b: BankRun = {
    run,
    plan,
    summary,
    completed: await completedChunks(run.store, bank.id),
    waiting: [],
    fetched: [],
    failuresInARow: 0,
  };
  try {
    for (const chunk of plan.chunks) {
      if (run.options.signal?.aborted) return;
      if (!(await backfillChunk(b, chunk))) return;
    }
  } finally {
    await settleWaiting(b);
    judgeChunks(b);
  }
}

/**
 * What waits at the end with every publication day of it stored (by an earlier run, the daily ingest) is
 * done although no answer of this run contained it: everything the bank published there is stored.
 */
async function settleWaiting(b: BankRun): Promise<void> {
  const { bank } = b.plan.adapter;
  const left: NotDone[] = [];
  for (const w of b.waiting) {
    const have = await storedDates(b.run.store, bank.id, w.from, w.to);
    if (expectedDatesBetween(bank, addDays(w.from, -1), w.to).every((d) => have.has(d))) await recordDone(b, w);
    else left.push(w);
  }
  b.waiting = left;
}

/**
 * The verdict, one per fetched chunk: not done when a range of it stays not done (what no later answer
 * vouched for: the next run fetches it again), done otherwise. A not-done range is said without the days at
 * its ends on which the bank does not publish (it is recorded whole once a later answer vouches for it).
 */
function judgeChunks(b: BankRun): void {
  const { summary } = b;
  const { bank } = b.plan.adapter;
  const notDone = [...summary.notDone, ...b.waiting];
  for (const chunk of b.fetched) {
    if (notDone.some((n) => n.from <= chunk.to && n.to >= chunk.from)) summary.unfinished++;
    else summary.stored++;
  }
  summary.notDone = notDone.map((n) => {
    const days = expectedDatesBetween(bank, addDays(n.from, -1), n.to);
    return days.length ? { ...n, from: days[0]!, to: days.at(-1)! } : n;
  });
}

/** Runs `work` on each item, `concurrency` at a time, starting none after `signal` aborts. */
async function eachConcurrently<T>(
  items: T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (signal?.aborted) return;
      await work(next);
    }
  });
  await Promise.all(workers);
}

export async function runBackfill(
  store: Store,
  plans: BankBackfillPlan[],
  options: BackfillRunOptions,
): Promise<BackfillSummary> {
  const run: Run = {
    store,
    options,
    http: politeHttp(options.http, options.pauseMs ?? 250),
    now: options.now ?? (() => new Date()),
    maxFailures: options.maxConsecutiveFailures ?? 3,
    total: plans.reduce((n, p) => n + p.chunks.length, 0),
    done: 0,
  };
  const summaries = plans.map(emptySummary);
  const pairs = plans.map((plan, i) => [plan, summaries[i]!] as const);
  await eachConcurrently(pairs, options.concurrency ?? 2, options.signal, ([plan, summary]) =>
    backfillBank(run, plan, summary),
  );
  return { banks: summaries, totals: sumTotals(summaries), interrupted: options.signal?.aborted === true };
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

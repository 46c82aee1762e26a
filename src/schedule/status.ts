// The status of every bank, for `exrates banks`, `GET /v1/status`, the status page and /metrics: newest
// stored date, the date it should have by now (its calendar's last publication day), last successful
// fetch, last error, next run, and its state: up to date, holiday (named), waiting (inside its time
// today), late (by how much), failing or stale. Computed from the database (so any process can show it)
// plus what the running daemon knows.
import { frequencyOf } from "../feed/adapter.js";
import { publicIdOf } from "../feed/sources.js";
import { sql } from "../store/kysely.js";

import { closingOn, lateAfterMs } from "../calendar/calendar.js";
import { todayIn } from "../feed/dates.js";

import { alive } from "../publish/lock.js";
import { isPostgres, rawSqlite, type Store } from "../store/database.js";
import { newestDates } from "../store/rates.js";
import { latestRuns, type BankRunRow } from "../store/runs.js";
import { anomalyCounts } from "../store/anomalies.js";
import type { BankEntry, BankState, BankStatus, IsoDate } from "../types.js";
import {
  DEFAULT_POLL,
  expectedAfter,
  nextRun,
  previousRun,
  wallClock,
  type PollOptions,
  type RunSlot,
  type ScheduleSpec,
} from "./time.js";

// The status row's shape is part of the API (GET /v1/status): declared in src/types.ts, where the client reads it.
export type { BankState, BankStatus };

export interface StatusOptions {
  env?: Readonly<Record<string, string | undefined>>;
  now?: Date;
  poll?: PollOptions;
  /** Banks with a run in flight in this process. */
  running?: ReadonlySet<string>;
}

/** Why a bank is not scheduled, or undefined when it is. */
export function notScheduledBecause(
  adapter: BankEntry,
  env: Readonly<Record<string, string | undefined>>,
): { state: BankState; summary: string; needs?: string } | undefined {
  const { bank } = adapter;
  if (bank.historicalOnly)
    return { state: "historical only", summary: "historical only: loaded by `exrates backfill`, never scheduled" };
  if (bank.credential && !env[bank.credential.env]) {
    return {
      state: "needs credential",
      summary: `needs ${bank.credential.env} (${bank.credential.description})`,
      needs: bank.credential.env,
    };
  }
  return undefined;
}

interface FetchRow {
  bank_id: string;
  at: string;
  error: string | null;
}

/** The newest successful (or failed) fetch of every bank, in one pass (portable SQL: both dialects). */
async function lastFetches(store: Store, failed: boolean): Promise<Map<string, FetchRow>> {
  const query = `select f.bank_id, coalesce(f.finished_at, f.started_at) as at, f.error from fetches f
       join (select bank_id, max(id) as id from fetches where error is ${failed ? "not " : ""}null group by bank_id) m on m.id = f.id`;
  const sqlite = rawSqlite(store);
  const rows = sqlite
    ? (sqlite.prepare(query).all() as FetchRow[])
    : (await sql<FetchRow>`${sql.raw(query)}`.execute(store.db)).rows;
  return new Map(rows.map((r) => [r.bank_id, r]));
}

/**
 * Whether the run is fetching in a process that still lives (the row alone cannot tell a crash from a
 * run going on). A run waiting to poll again is not running: the bank shows what it waits for.
 */
const runAlive = (run: BankRunRow, localPids: boolean) =>
  run.state === "running" && run.finished_at === null && (!localPids || (run.pid !== null && alive(run.pid)));

/**
 * `localPids`: false on a shared database, where the run may be another host's (its pid means nothing
 * here), so an unfinished run is never called interrupted.
 */
function lastRunView(run: BankRunRow | undefined, runningHere: boolean, localPids: boolean): BankStatus["lastRun"] {
  if (!run) return null;
  // A run left unfinished by a process that is gone (kill -9, power cut) says so.
  const interrupted = localPids && run.finished_at === null && !(run.pid !== null && alive(run.pid)) && !runningHere;
  return {
    state: run.state,
    reason: run.reason,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    message: interrupted ? `interrupted: the process running it stopped (${run.message ?? run.state})` : run.message,
  };
}

export async function bankStatuses(
  store: Store,
  adapters: readonly BankEntry[],
  options: StatusOptions = {},
): Promise<BankStatus[]> {
  return adapters.map(await statusOfBank(store, options));
}

/**
 * The same rows as bankStatuses, one bank per turn of the event loop: a server computing them (its
 * banks' notices, src/serve/state/bank-notices.ts) answers its requests in between instead of waiting
 * for every bank's calendar at once (~5 ms a bank).
 */
export async function bankStatusesInTurns(
  store: Store,
  adapters: readonly BankEntry[],
  options: StatusOptions = {},
): Promise<BankStatus[]> {
  const statusOf = await statusOfBank(store, options);
  const rows: BankStatus[] = [];
  for (const adapter of adapters) {
    rows.push(statusOf(adapter));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

/** What the database says of every bank, read once, and the status row of one bank from it. */
async function statusOfBank(store: Store, options: StatusOptions): Promise<(adapter: BankEntry) => BankStatus> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  const poll = options.poll ?? DEFAULT_POLL;
  const localPids = !isPostgres(store);
  const newest = await newestDates(store);
  const successes = await lastFetches(store, false);
  const failures = await lastFetches(store, true);
  const runs = await latestRuns(store);
  const anomalies = await anomalyCounts(store);

  return (adapter): BankStatus => {
    const { bank } = adapter;
    const why = notScheduledBecause(adapter, env);
    const stored = newest.get(bank.id) ?? null;
    const success = successes.get(bank.id);
    const failure = failures.get(bank.id);
    const run = runs.get(bank.id);
    const base = {
      // A bank's second table (NBP's weekly) is a row of its bank, told apart by its frequency.
      id: publicIdOf(bank.id),
      name: bank.names[0]?.name ?? bank.id,
      timeZone: bank.timeZone,
      dailyUpdateTime: bank.dailyUpdateTime,
      publicationDays: [...bank.publicationDays],
      frequency: frequencyOf(bank),
      newestDate: stored,
      lastSuccessAt: success?.at ?? null,
      lastErrorAt: failure?.at ?? null,
      lastError: failure?.error ?? null,
      lastRun: lastRunView(run, options.running?.has(bank.id) ?? false, localPids),
      anomalies: anomalies.get(bank.id) ?? { held: 0, warned: 0 },
    };
    if (why) {
      return {
        ...base,
        scheduled: false,
        state: why.state,
        summary: why.summary,
        needs: why.needs ?? null,
        expectedDate: null,
        stale: false,
        holiday: null,
        lateByMinutes: null,
        running: false,
        nextRunAt: null,
        nextRunLocal: null,
      };
    }
    const previous = previousRun(bank, now);
    const next = nextRun(bank, now);
    const stale = isStale(bank, stored, previous, now, poll.windowMs);
    const running = options.running ? options.running.has(bank.id) : run !== undefined && runAlive(run, localPids);
    const holiday = closingOn(bank, todayIn(bank.timeZone, now)) ?? null;
    const view = scheduledState({
      bank,
      now,
      stored,
      previous,
      next,
      stale,
      holiday,
      windowMs: poll.windowMs,
      running,
      run,
      lastRunMessage: base.lastRun?.message ?? null,
      failing: stillFailing(failure, success, run),
      tried: run !== undefined || success !== undefined || failure !== undefined,
    });
    return {
      ...base,
      scheduled: true,
      ...view,
      holiday,
      running,
      needs: null,
      expectedDate: previous.date,
      stale,
      nextRunAt: next.at.toISOString(),
      nextRunLocal: `${wallClock(next.at, bank.timeZone).replace("T", " ")} ${bank.timeZone}`,
    };
  };
}

/**
 * Behind the date it should have by now: once the polling window of that date has closed, or at once
 * when it lacks an earlier publication too (a bank months behind is stale, not pending, while today's
 * window is open).
 */
function isStale(bank: ScheduleSpec, stored: IsoDate | null, previous: RunSlot, now: Date, windowMs: number): boolean {
  // A period source's run brings the period its cadence covers (a month's end, a quarter's end), not its own day.
  if (stored !== null && stored >= expectedAfter(bank, previous.date)) return false;
  if (now.getTime() >= previous.at.getTime() + windowMs) return true;
  if (stored === null) return false;
  const before = previousRun(bank, new Date(previous.at.getTime() - 1));
  return stored < expectedAfter(bank, before.date);
}

/**
 * The newest failed fetch, while it is the bank's latest word: not when a fetch succeeded after it, nor
 * when a run finished without an error after it (a run that found the bank up to date fetches nothing).
 */
function stillFailing(
  failure: FetchRow | undefined,
  success: FetchRow | undefined,
  run: BankRunRow | undefined,
): FetchRow | undefined {
  if (failure === undefined) return undefined;
  if (success !== undefined && iso(success.at) >= iso(failure.at)) return undefined;
  const ranWell = run?.finished_at && (run.state === "ok" || run.state === "gave-up");
  if (ranWell && iso(run.finished_at!) > iso(failure.at)) return undefined;
  return failure;
}

/** A time from either engine (text on SQLite, a Date or text on PostgreSQL) as ISO 8601 UTC. */
const iso = (at: string | Date): string => (at instanceof Date ? at.toISOString() : new Date(at).toISOString());

const localTime = (at: Date, timeZone: string) => wallClock(at, timeZone).slice(11, 16);

/** "2 h 05 min", "40 min". */
function duration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : `${h} h ${String(m).padStart(2, "0")} min`;
}

/** The state and one-line summary of a scheduled bank, the most pressing first. */
function scheduledState(facts: {
  bank: ScheduleSpec;
  now: Date;
  stored: IsoDate | null;
  /** The last run at or before now: its date is the publication that should be stored. */
  previous: RunSlot;
  next: RunSlot;
  stale: boolean;
  /** Today's closing, if the bank is closed today. */
  holiday: string | null;
  windowMs: number;
  running: boolean;
  run: BankRunRow | undefined;
  lastRunMessage: string | null;
  /** The newest failed fetch, when it is newer than the newest successful one. */
  failing: FetchRow | undefined;
  /** A run or a fetch of this bank has happened (nothing stored may still be the outcome). */
  tried: boolean;
}): { state: BankState; summary: string; lateByMinutes: number | null } {
  const { bank, stored, previous, stale } = facts;
  const fetching = facts.running
    ? ` (fetching now${facts.run ? `: ${facts.run.message ?? facts.run.state}` : ""})`
    : "";
  const plain = (state: BankState, summary: string) => ({ state, summary: summary + fetching, lateByMinutes: null });
  if (facts.failing && !facts.running) return plain("failing", `failing: ${facts.failing.error}`);
  const nextLocal = `${facts.next.date} ${localTime(facts.next.at, bank.timeZone)}`;
  if (stored !== null && stored >= expectedAfter(bank, previous.date)) {
    if (facts.holiday)
      return plain("holiday", `holiday: ${facts.holiday} (newest ${stored}; next publication ${nextLocal})`);
    return plain("up to date", "up to date");
  }
  const lastRun = facts.lastRunMessage && !facts.running ? ` (${facts.lastRunMessage})` : "";
  const newest = stored === null ? "nothing stored yet" : `newest ${stored}`;
  if (stored === null && !facts.tried)
    return plain("never fetched", stale ? "never fetched: nothing stored yet" : "nothing stored yet");
  if (stale) return plain("stale", `stale: ${newest}, expected ${expectedAfter(bank, previous.date)}${lastRun}`);
  const windowEnd = localTime(new Date(previous.at.getTime() + facts.windowMs), bank.timeZone);
  const late = facts.now.getTime() - previous.at.getTime();
  if (late >= lateAfterMs(bank)) {
    const minutes = Math.floor(late / 60_000);
    const summary = `late by ${duration(minutes)}: ${previous.date} due at ${localTime(previous.at, bank.timeZone)} local, ${newest}; polling until ${windowEnd} local`;
    return { state: "late", summary: summary + fetching, lateByMinutes: minutes };
  }
  return plain(
    "waiting",
    `waiting for ${previous.date} (due ${localTime(previous.at, bank.timeZone)} local, polling until ${windowEnd})`,
  );
}

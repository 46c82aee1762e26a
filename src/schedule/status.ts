// The status of every bank, for `exrates banks` and `GET /v1/status`: newest stored date, the date it
// should have by now, last successful fetch, last error, next run, and whether it is stale. Computed
// from the database (so any process can show it) plus what the running daemon knows.
import { sql } from "kysely";

import { alive } from "../publish/lock.js";
import { isPostgres, rawSqlite, type Store } from "../store/database.js";
import { newestDates } from "../store/rates.js";
import { latestRuns, type BankRunRow } from "../store/runs.js";
import { anomalyCounts } from "../store/anomalies.js";
import type { BankAdapter, BankState, BankStatus, IsoDate } from "../types.js";
import {
  DEFAULT_POLL,
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
  adapter: BankAdapter,
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
  adapters: BankAdapter[],
  options: StatusOptions = {},
): Promise<BankStatus[]> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  const poll = options.poll ?? DEFAULT_POLL;
  const localPids = !isPostgres(store);
  const newest = await newestDates(store);
  const successes = await lastFetches(store, false);
  const failures = await lastFetches(store, true);
  const runs = await latestRuns(store);
  const anomalies = await anomalyCounts(store);

  return adapters.map((adapter): BankStatus => {
    const { bank } = adapter;
    const why = notScheduledBecause(adapter, env);
    const stored = newest.get(bank.id) ?? null;
    const success = successes.get(bank.id);
    const failure = failures.get(bank.id);
    const run = runs.get(bank.id);
    const base = {
      id: bank.id,
      name: bank.names[0]?.name ?? bank.id,
      timeZone: bank.timeZone,
      dailyUpdateTime: bank.dailyUpdateTime,
      publicationDays: [...bank.publicationDays],
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
        nextRunAt: null,
        nextRunLocal: null,
      };
    }
    const previous = previousRun(bank, now);
    const next = nextRun(bank, now);
    const stale = isStale(bank, stored, previous, now, poll.windowMs);
    const [state, summary] = scheduledState({
      bank,
      stored,
      previous,
      stale,
      windowMs: poll.windowMs,
      running: options.running ? options.running.has(bank.id) : run !== undefined && runAlive(run, localPids),
      run,
      lastRunMessage: base.lastRun?.message ?? null,
      failing: stillFailing(failure, success, run),
      tried: run !== undefined || success !== undefined || failure !== undefined,
    });
    return {
      ...base,
      scheduled: true,
      state,
      summary,
      needs: null,
      expectedDate: previous.date,
      stale,
      nextRunAt: next.at.toISOString(),
      nextRunLocal: `${wallClock(next.at, bank.timeZone).replace("T", " ")} ${bank.timeZone}`,
    };
  });
}

/**
 * Behind the date it should have by now: once the polling window of that date has closed, or at once
 * when it lacks an earlier publication too (a bank months behind is stale, not pending, while today's
 * window is open).
 */
function isStale(bank: ScheduleSpec, stored: IsoDate | null, previous: RunSlot, now: Date, windowMs: number): boolean {
  if (stored !== null && stored >= previous.date) return false;
  if (now.getTime() >= previous.at.getTime() + windowMs) return true;
  if (stored === null) return false;
  const before = previousRun(bank, new Date(previous.at.getTime() - 1));
  return stored < before.date;
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

/** The state and one-line summary of a scheduled bank, the most pressing first. */
function scheduledState(facts: {
  bank: ScheduleSpec;
  stored: IsoDate | null;
  previous: RunSlot;
  stale: boolean;
  windowMs: number;
  running: boolean;
  run: BankRunRow | undefined;
  lastRunMessage: string | null;
  /** The newest failed fetch, when it is newer than the newest successful one. */
  failing: FetchRow | undefined;
  /** A run or a fetch of this bank has happened (nothing stored may still be the outcome). */
  tried: boolean;
}): [BankState, string] {
  const { bank, stored, previous, stale, run } = facts;
  if (facts.running) return ["running", run?.message ?? `running since ${run?.started_at ?? "now"}`];
  if (facts.failing) return ["failing", `failing: ${facts.failing.error}`];
  if (stored === null && !facts.tried)
    return ["never fetched", stale ? "never fetched: nothing stored yet" : "nothing stored yet"];
  const lastRun = facts.lastRunMessage ? ` (${facts.lastRunMessage})` : "";
  const newest = stored === null ? "nothing stored yet" : `newest ${stored}`;
  if (stale) return ["stale", `stale: ${newest}, expected ${previous.date}${lastRun}`];
  if (stored === null || stored < previous.date) {
    const windowEnd = wallClock(new Date(previous.at.getTime() + facts.windowMs), bank.timeZone).slice(11, 16);
    return ["pending", `waiting for ${previous.date} (polling until ${windowEnd} local)`];
  }
  return ["ok", "ok"];
}

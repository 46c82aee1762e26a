// The status of every bank, for `exrates banks` and `GET /v1/status`: newest stored date, the date it
// should have by now, last successful fetch, last error, next run, and whether it is stale. Computed
// from the database (so any process can show it) plus what the running daemon knows.
import { alive } from "../publish/lock.js";
import type { Store } from "../store/database.js";
import { newestDates } from "../store/rates.js";
import { latestRuns } from "../store/runs.js";
import type { BankAdapter, IsoDate } from "../types.js";
import { DEFAULT_POLL, nextRun, previousRun, wallClock, type PollOptions } from "./time.js";

export type BankState =
  "ok" | "pending" | "running" | "stale" | "failing" | "never fetched" | "needs credential" | "historical only";

export interface BankStatus {
  id: string;
  name: string;
  timeZone: string;
  dailyUpdateTime: string;
  publicationDays: number[];
  /** Whether the daemon runs this bank on its schedule. */
  scheduled: boolean;
  state: BankState;
  /** One line for people: "ok", "needs EXRATES_FRED_API_KEY (…)", "stale: …". */
  summary: string;
  /** The environment variable a missing credential would be read from. */
  needs: string | null;
  newestDate: IsoDate | null;
  /** The newest date that should be stored by now (scheduled banks). */
  expectedDate: IsoDate | null;
  stale: boolean;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  lastRun: {
    state: string;
    reason: string;
    startedAt: string;
    finishedAt: string | null;
    message: string | null;
  } | null;
  /** ISO 8601 UTC, and the bank's local time. */
  nextRunAt: string | null;
  nextRunLocal: string | null;
}

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

export async function bankStatuses(
  store: Store,
  adapters: BankAdapter[],
  options: StatusOptions = {},
): Promise<BankStatus[]> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  const poll = options.poll ?? DEFAULT_POLL;
  const newest = await newestDates(store);
  // The newest successful and the newest failed fetch of every bank, in one pass each.
  const lastOf = (failed: boolean) =>
    new Map(
      (
        store.sqlite
          .prepare(
            `select f.bank_id, coalesce(f.finished_at, f.started_at) as at, f.error from fetches f
             join (select bank_id, max(id) as id from fetches where error is ${failed ? "not " : ""}null group by bank_id) m on m.id = f.id`,
          )
          .all() as FetchRow[]
      ).map((r) => [r.bank_id, r]),
    );
  const successes = lastOf(false);
  const failures = lastOf(true);
  const runs = await latestRuns(store);

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
      lastRun: run
        ? {
            state: run.state,
            reason: run.reason,
            startedAt: run.started_at,
            finishedAt: run.finished_at,
            // A run left unfinished by a process that is gone (kill -9, power cut) says so.
            message:
              run.finished_at === null && !(run.pid !== null && alive(run.pid)) && !options.running?.has(bank.id)
                ? `interrupted: the process running it stopped (${run.message ?? run.state})`
                : run.message,
          }
        : null,
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
    const behind = stored === null || stored < previous.date;
    const stale = behind && now.getTime() >= previous.at.getTime() + poll.windowMs;
    const failing = failure !== undefined && (success === undefined || failure.at > success.at);
    const running = options.running
      ? options.running.has(bank.id)
      : run !== undefined && run.finished_at === null && run.pid !== null && alive(run.pid);
    let state: BankState;
    let summary: string;
    if (running) [state, summary] = ["running", run?.message ?? `running since ${run?.started_at ?? "now"}`];
    else if (failing) [state, summary] = ["failing", `failing: ${failure.error}`];
    else if (stored === null)
      [state, summary] = ["never fetched", stale ? "never fetched: nothing stored yet" : "nothing stored yet"];
    else if (stale)
      [state, summary] = [
        "stale",
        `stale: newest ${stored}, expected ${previous.date}${base.lastRun?.message ? ` (${base.lastRun.message})` : ""}`,
      ];
    else if (behind)
      [state, summary] = [
        "pending",
        `waiting for ${previous.date} (polling until ${wallClock(new Date(previous.at.getTime() + poll.windowMs), bank.timeZone).slice(11, 16)} local)`,
      ];
    else [state, summary] = ["ok", "ok"];
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

// The run log: one `bank_runs` row per bank, the state of its latest daemon run. The daemon writes it
// as a run starts, waits to poll and ends; `exrates banks` and `GET /v1/status` read it, from any
// process. Written rarely, so it goes through kysely like everything but the rates upsert.
import type { Selectable } from "./kysely.js";

import type { IsoDate } from "../types.js";
import type { Store } from "./database.js";
import type { BankRunsTable } from "./schema.js";

export type RunReason = "schedule" | "catch-up" | "manual";

/** What a run ended as (`stopped`: by shutdown). */
export type FinishedRunState = "ok" | "gave-up" | "failed" | "stopped";

export type RunState = "running" | "waiting" | FinishedRunState;

export type BankRunRow = Selectable<BankRunsTable>;

/** A change to a bank's row; fields left out keep their stored value unless said otherwise. */
interface RunUpdate {
  state: RunState;
  /** Only when a run starts: it becomes the row's reason and start time. */
  reason?: RunReason;
  /** Replaces the stored message (null when absent). */
  message?: string;
  expected?: IsoDate;
  /** Set: the run ended now. Absent: the row reads as unfinished. */
  finished?: boolean;
  error?: string;
}

async function writeRun(store: Store, bankId: string, update: RunUpdate, at: Date): Promise<void> {
  const iso = at.toISOString();
  const row = {
    bank_id: bankId,
    state: update.state,
    reason: update.reason ?? "schedule",
    started_at: iso,
    finished_at: update.finished ? iso : null,
    expected_date: update.expected ?? null,
    message: update.message ?? null,
    last_error: update.error ?? null,
    last_error_at: update.error ? iso : null,
    pid: process.pid,
  };
  await store.db
    .insertInto("bank_runs")
    .values(row)
    .onConflict((oc) =>
      oc.column("bank_id").doUpdateSet({
        state: row.state,
        finished_at: row.finished_at,
        message: row.message,
        pid: row.pid,
        ...(update.reason ? { reason: row.reason, started_at: row.started_at } : {}),
        ...(update.expected ? { expected_date: row.expected_date } : {}),
        // The last error outlives the runs after it, so that status can still show it.
        ...(update.error ? { last_error: row.last_error, last_error_at: row.last_error_at } : {}),
      }),
    )
    .execute();
}

export function recordRunStarted(store: Store, bankId: string, reason: RunReason, at: Date): Promise<void> {
  return writeRun(store, bankId, { state: "running", reason, message: `${reason} run started` }, at);
}

/** Between two polls: why the run waits, what it waits for, and the try's error if it failed. */
export function recordRunWaiting(
  store: Store,
  bankId: string,
  wait: { message: string; expected: IsoDate; error?: string },
  at: Date,
): Promise<void> {
  return writeRun(store, bankId, { state: "waiting", ...wait }, at);
}

export function recordRunFinished(
  store: Store,
  bankId: string,
  end: { state: FinishedRunState; message: string; expected?: IsoDate; error?: string },
  at: Date,
): Promise<void> {
  return writeRun(store, bankId, { ...end, finished: true }, at);
}

/** Every bank's latest run, by bank id. */
export async function latestRuns(store: Store): Promise<Map<string, BankRunRow>> {
  const rows = await store.db.selectFrom("bank_runs").selectAll().execute();
  return new Map(rows.map((r) => [r.bank_id, r]));
}

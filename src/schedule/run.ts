// One run of one bank from start to end: tries (attempt.ts) until one says the run is over, each try
// holding one of the shared fetch slots (slots.ts) only while it fetches and stores, and waiting
// between tries on a timer that holds none. Every state goes to the run log, the outcome to the
// process log.
import { lateAfterMs } from "../calendar/calendar.js";
import { pause } from "../feed/helpers.js";
import { recordLateEvent } from "../store/events.js";
import { frequencySourceOf, publicIdOf } from "../feed/sources.js";
import type { FinishedRunState, RunReason } from "../store/runs.js";
import type { BankAdapter, IsoDate } from "../types.js";
import { attemptRun, type AttemptDeps, type BankRun, type NextStep } from "./attempt.js";
import type { RunLog } from "./run-log.js";
import { PRIORITY, type Slots } from "./slots.js";
import { expectedNewestDate, previousRun, wallClock } from "./time.js";

export interface RunOutcome {
  bankId: string;
  /** `skipped`: another run of the bank was going on. */
  state: FinishedRunState | "skipped";
  message: string;
  expected?: IsoDate;
  newest?: IsoDate;
  inserted: number;
  revised: number;
  /** Figures sent again as stored, and rows held with a reason (absent: the run fetched nothing). */
  unchanged?: number;
  held?: number;
  tries: number;
}

export interface RunOptions {
  /** false: one try, no polling. */
  poll?: boolean;
  /** Fetch even when the bank is up to date. */
  force?: boolean;
  /** The scheduled instant this run belongs to. */
  slotAt?: Date;
}

/** The outcome of a run that made no try. */
export const notRun = (bankId: string, state: RunOutcome["state"], message: string): RunOutcome => ({
  bankId,
  state,
  message,
  inserted: 0,
  revised: 0,
  tries: 0,
});

/** Where a run is: waiting for a slot, trying (holding one), or waiting to poll again (holding none). */
export type RunPhase = "queued" | "trying" | "waiting";

export interface RunDeps extends AttemptDeps {
  runLog: RunLog;
  now: () => Date;
  slots: Slots;
  /** Waits `ms` (resolves true), or less when the signal aborts (resolves false). Tests pass a fake clock's. */
  sleep: (ms: number, signal: AbortSignal) => Promise<boolean>;
  /** The next number of the queue's order (first come, first served within a priority). */
  nextOrder: () => number;
  /** `error`: with "waiting", the failure the run will try again after (none: the publication is late). */
  onPhase?: (bankId: string, phase: RunPhase, error?: string) => void;
}

type FinalStep = Exclude<NextStep, { kind: "poll-again" }>;

const STATE_OF: Record<FinalStep["kind"], FinishedRunState> = {
  done: "ok",
  "give-up": "gave-up",
  failed: "failed",
  stopped: "stopped",
};

/** `order`: the run's place in the queue for its first try, taken when the run was asked for. */
export async function executeRun(
  deps: RunDeps,
  adapter: BankAdapter,
  reason: RunReason,
  opts: RunOptions,
  order: number,
): Promise<RunOutcome> {
  const run = beginRun(deps, adapter, reason, opts);
  const id = adapter.bank.id;
  const progress = { started: false };
  const step = await tryUntilOver(deps, run, order, progress);
  const state = STATE_OF[step.kind];
  const message = step.kind === "give-up" ? step.reason : step.message;
  const { expected, newest, inserted, revised, unchanged, held, tries } = run.tally;
  const error = step.kind === "failed" ? step.error : undefined;
  // A run stopped before its first try leaves the bank's row as the previous run left it.
  if (progress.started) await deps.runLog.finished(id, { state, message, expected, error });
  const outcome: RunOutcome = {
    bankId: id,
    state,
    message,
    expected,
    newest,
    inserted,
    revised,
    ...(unchanged !== undefined ? { unchanged } : {}),
    ...(held !== undefined ? { held } : {}),
    tries,
  };
  logOutcome(deps, reason, outcome);
  return outcome;
}

function beginRun(deps: RunDeps, adapter: BankAdapter, reason: RunReason, opts: RunOptions): BankRun {
  const { now } = deps;
  const { slotAt } = opts;
  // A timer firing a moment early still belongs to its slot: the clock never reads before it.
  const clock = () => (slotAt && now() < slotAt ? slotAt : now());
  const polling = opts.poll !== false;
  // Polling goes on until the window after the run the expected date belongs to has passed.
  const slot = previousRun(adapter.bank, clock());
  return {
    adapter,
    reason,
    polling,
    force: opts.force ?? false,
    clock,
    windowEnd: new Date(slot.at.getTime() + (polling ? deps.poll.windowMs : 0)),
    tally: { inserted: 0, revised: 0, tries: 0 },
  };
}

async function tryUntilOver(
  deps: RunDeps,
  run: BankRun,
  order: number,
  progress: { started: boolean },
): Promise<FinalStep> {
  const id = run.adapter.bank.id;
  const firstPriority = run.reason === "catch-up" ? PRIORITY.catchUp : PRIORITY.scheduled;
  for (let attempt = 1; ; attempt++) {
    deps.onPhase?.(id, "queued");
    const release = await deps.slots.acquire(
      attempt === 1 ? firstPriority : PRIORITY.retry,
      attempt === 1 ? order : deps.nextOrder(),
      deps.signal,
    );
    if (!release) return { kind: "stopped", message: "stopped by shutdown before its turn" };
    let step: NextStep;
    try {
      deps.onPhase?.(id, "trying");
      if (!progress.started) {
        progress.started = true;
        await deps.runLog.started(id, run.reason);
      }
      // The slot is for fetching and storing: publishing (one at a time, batched) waits without it.
      const republish = (bankIds: string[]) => {
        release();
        return deps.republish(bankIds);
      };
      step = await attemptRun({ ...deps, republish }, run, attempt);
    } finally {
      release();
    }
    if (step.kind !== "poll-again") return step;
    if (!step.error) await announceIfLate(deps, run);
    deps.onPhase?.(id, "waiting", step.error);
    const message = `${step.why}; polling again in ${Math.round(step.after / 60_000)} min`;
    await deps.runLog.waiting(id, { message, expected: step.expected, error: step.error });
    deps.log.info({ bank: id, delayMs: step.after, why: step.why }, "polling again later");
    if (!(await deps.sleep(step.after, deps.signal)))
      return { kind: "stopped", message: `stopped by shutdown while waiting (${step.why})` };
  }
}

/**
 * A publication still missing once its time and the bank's usual allowance have passed: a `rates.late`
 * event, once per bank and date (the store keeps it from being recorded twice).
 */
async function announceIfLate(deps: RunDeps, run: BankRun): Promise<void> {
  const { bank } = run.adapter;
  const now = run.clock();
  const slot = previousRun(bank, now);
  const late = now.getTime() - slot.at.getTime();
  // The date that run should bring: its own, or for a period source the start of the period it publishes.
  const expected = expectedNewestDate(bank, now);
  if (run.tally.expected !== expected || late < lateAfterMs(bank)) return;
  // A bank's second table (NBP's weekly, source NBPB) is named by its bank and the table's frequency.
  const second = frequencySourceOf(bank.id);
  const data = {
    bankId: publicIdOf(bank.id),
    ...(second ? { frequency: second.frequency } : {}),
    expectedDate: expected,
    dueAt: slot.at.toISOString(),
    dueLocal: `${wallClock(slot.at, bank.timeZone).replace("T", " ").slice(0, 16)} ${bank.timeZone}`,
    lateByMinutes: Math.floor(late / 60_000),
    newestDate: run.tally.newest ?? null,
  };
  try {
    if ((await recordLateEvent(deps.store, data, now)) !== undefined)
      deps.log.warn({ bank: bank.id, expected, lateByMinutes: data.lateByMinutes }, "publication late");
  } catch (error) {
    deps.log.warn({ bank: bank.id, err: (error as Error).message }, "could not record the late event");
  }
}

function logOutcome(deps: RunDeps, reason: RunReason, outcome: RunOutcome): void {
  const { bankId, state, tries, inserted, revised } = outcome;
  const level = state === "ok" || state === "stopped" ? "info" : "warn";
  deps.log[level]({ bank: bankId, reason, state, tries, inserted, revised }, `run ${state}: ${outcome.message}`);
}

/** An abortable sleep on the real clock: resolves false when aborted. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await pause(ms, signal);
    return true;
  } catch {
    return false; // aborted
  }
}

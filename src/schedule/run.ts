// One run of one bank from start to end: tries (attempt.ts) until one says the run is over, waiting
// between them as told, with every state written to the run log and the outcome to the process log.
import type { FinishedRunState, RunReason } from "../store/runs.js";
import type { BankAdapter, IsoDate } from "../types.js";
import { attemptRun, type AttemptDeps, type BankRun, type NextStep } from "./attempt.js";
import type { RunLog } from "./run-log.js";
import { previousRun } from "./time.js";

export interface RunOutcome {
  bankId: string;
  /** `skipped`: another run of the bank was going on. */
  state: FinishedRunState | "skipped";
  message: string;
  expected?: IsoDate;
  newest?: IsoDate;
  inserted: number;
  revised: number;
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

export interface RunDeps extends AttemptDeps {
  runLog: RunLog;
  now: () => Date;
}

type FinalStep = Exclude<NextStep, { kind: "poll-again" }>;

const STATE_OF: Record<FinalStep["kind"], FinishedRunState> = {
  done: "ok",
  "give-up": "gave-up",
  failed: "failed",
  stopped: "stopped",
};

export async function executeRun(
  deps: RunDeps,
  adapter: BankAdapter,
  reason: RunReason,
  opts: RunOptions,
): Promise<RunOutcome> {
  const run = beginRun(deps, adapter, reason, opts);
  const id = adapter.bank.id;
  await deps.runLog.started(id, reason);
  const step = await tryUntilOver(deps, run);
  const state = STATE_OF[step.kind];
  const message = step.kind === "give-up" ? step.reason : step.message;
  const { expected, newest, inserted, revised, tries } = run.tally;
  const error = step.kind === "failed" ? step.error : undefined;
  await deps.runLog.finished(id, { state, message, expected, error });
  const outcome: RunOutcome = { bankId: id, state, message, expected, newest, inserted, revised, tries };
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

async function tryUntilOver(deps: RunDeps, run: BankRun): Promise<FinalStep> {
  const id = run.adapter.bank.id;
  for (let attempt = 1; ; attempt++) {
    const step = await attemptRun(deps, run, attempt);
    if (step.kind !== "poll-again") return step;
    const message = `${step.why}; polling again in ${Math.round(step.after / 60_000)} min`;
    await deps.runLog.waiting(id, { message, expected: step.expected, error: step.error });
    deps.log.info({ bank: id, delayMs: step.after, why: step.why }, "polling again later");
    if (!(await sleep(step.after, deps.signal)))
      return { kind: "stopped", message: `stopped by shutdown while waiting (${step.why})` };
  }
}

function logOutcome(deps: RunDeps, reason: RunReason, outcome: RunOutcome): void {
  const { bankId, state, tries, inserted, revised } = outcome;
  const level = state === "ok" || state === "stopped" ? "info" : "warn";
  deps.log[level]({ bank: bankId, reason, state, tries, inserted, revised }, `run ${state}: ${outcome.message}`);
}

/** An abortable sleep: resolves false when aborted. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

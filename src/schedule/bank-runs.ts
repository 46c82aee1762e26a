// Each bank's run as a small state machine: idle (no entry) -> queued (waiting for a fetch slot) ->
// trying (holding one) -> waiting (to poll again, holding none) -> queued ... -> idle. One run per bank
// at a time; whatever a run throws stays that bank's: logged, recorded as failed, and its promise
// never rejects.
import { describeError } from "../errors.js";
import type { Logger } from "../log.js";
import type { RunReason } from "../store/runs.js";
import type { BankAdapter } from "../types.js";
import type { RunLog } from "./run-log.js";
import { executeRun, notRun, type RunDeps, type RunOptions, type RunOutcome, type RunPhase } from "./run.js";

/** Told of each phase a bank's run enters; `error` with "waiting": the failure it will try again after. */
export type PhaseListener = (phase: RunPhase, error?: string) => void;

export interface BankRuns {
  /**
   * Runs a bank now: "skipped" when a run of it is in flight, "stopped" when the daemon is stopping.
   * Its place in the queue for a fetch slot is taken at once (from `deps.nextOrder`).
   */
  start(adapter: BankAdapter, reason: RunReason, opts: RunOptions, deps: RunDeps): Promise<RunOutcome>;
  /** Tells `listener` of every phase the bank's runs enter, until the returned function is called. */
  watch(bankId: string, listener: PhaseListener): () => void;
  /** Banks with a run in flight (trying, waiting for a slot, or waiting to poll again). */
  running(): Set<string>;
  /** Where each run in flight is. */
  phases(): Map<string, RunPhase>;
  /** Banks whose run is fetching or storing right now. */
  trying(): Set<string>;
  /** Waits up to `graceMs` for the runs in flight and `also`; returns the banks whose run had not ended. */
  settle(graceMs: number, also: Promise<unknown>): Promise<string[]>;
}

export interface BankRunsOptions {
  log: Logger;
  runLog: RunLog;
  /** Called when a bank's run is over, whichever way it ended. */
  onIdle: (adapter: BankAdapter) => void;
}

export function createBankRuns({ log, runLog, onIdle }: BankRunsOptions): BankRuns {
  const inFlight = new Map<string, Promise<RunOutcome>>();
  const phases = new Map<string, RunPhase>();
  const listeners = new Map<string, Set<PhaseListener>>();

  function enter(bankId: string, phase: RunPhase, error?: string) {
    phases.set(bankId, phase);
    for (const listener of listeners.get(bankId) ?? []) listener(phase, error);
  }

  function start(adapter: BankAdapter, reason: RunReason, opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
    const bankId = adapter.bank.id;
    if (inFlight.has(bankId)) {
      log.info({ bank: bankId, reason }, "run skipped: the previous run of this bank is still going");
      return Promise.resolve(notRun(bankId, "skipped", "a run of this bank is in progress"));
    }
    if (deps.signal.aborted) return Promise.resolve(notRun(bankId, "stopped", "shutting down"));
    // Its place in the queue is taken now: runs asked for in a given order get their first try in it.
    const place = deps.nextOrder();
    phases.set(bankId, "queued");
    const run = executeRun({ ...deps, onPhase: enter }, adapter, reason, opts, place)
      .catch(async (error: unknown): Promise<RunOutcome> => {
        const message = describeError(error);
        log.error({ bank: bankId, err: message }, "run failed unexpectedly");
        await runLog.finished(bankId, { state: "failed", message, error: message });
        return notRun(bankId, "failed", message);
      })
      .finally(() => {
        inFlight.delete(bankId);
        phases.delete(bankId);
        onIdle(adapter);
      });
    inFlight.set(bankId, run);
    return run;
  }

  function watch(bankId: string, listener: PhaseListener): () => void {
    let set = listeners.get(bankId);
    if (!set) listeners.set(bankId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && listeners.get(bankId) === set) listeners.delete(bankId);
    };
  }

  async function settle(graceMs: number, also: Promise<unknown>): Promise<string[]> {
    const pending = [...inFlight.entries()];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), graceMs)));
    await Promise.race([Promise.all([...pending.map(([, p]) => p), also]), timeout]);
    clearTimeout(timer);
    return pending.map(([id]) => id).filter((id) => inFlight.has(id));
  }

  return {
    start,
    watch,
    settle,
    running: () => new Set(inFlight.keys()),
    phases: () => new Map(phases),
    trying: () => new Set([...phases].filter(([, phase]) => phase === "trying").map(([id]) => id)),
  };
}

// The scheduler of `exrates start`: one node-cron job per bank at its dailyUpdateTime in its own zone
// on its publication days; a catch-up run at start for every bank behind; bounded polling with
// backoff when a publication is late; one bank's runs never overlap and its failures stay its own;
// a bank whose data changed is re-published at once; stop() ends it all cleanly.
import cron, { type ScheduledTask } from "node-cron";

import { describeError } from "../errors.js";
import type { Logger } from "../log.js";
import { publish } from "../publish/publisher.js";
import type { Store } from "../store/database.js";
import { newestDate } from "../store/rates.js";
import type { RunReason } from "../store/runs.js";
import type { BankAdapter, HttpClient, IsoDate } from "../types.js";
import { planFetch } from "./catchup.js";
import { createRunLog } from "./run-log.js";
import { executeRun, type RunDeps, type RunOptions, type RunOutcome } from "./run.js";
import { bankStatuses, notScheduledBecause, type BankStatus } from "./status.js";
import { DEFAULT_POLL, cronExpression, nextRun, previousRun, type PollOptions } from "./time.js";

export type { RunReason } from "../store/runs.js";
export type { RunOptions, RunOutcome } from "./run.js";

export interface SchedulerOptions {
  store: Store;
  /** Every adapter (the publisher renders them all); only eligible ones are scheduled. */
  adapters: BankAdapter[];
  outDir: string;
  log: Logger;
  http: HttpClient;
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  poll?: PollOptions;
  /** Default: node-cron jobs. Tests pass false and call runNow. */
  cron?: boolean;
  /** Default: the publisher, for the given banks. */
  publish?: (bankIds: string[]) => Promise<unknown>;
  /** Banks caught up at once at start (the others wait their turn). Default 4. */
  catchUpConcurrency?: number;
}

export interface Scheduler {
  /** Publishes once, schedules every eligible bank, and starts the catch-up (not awaited). */
  start(): Promise<void>;
  /** Runs a bank now (no overlap with its other runs). `poll: false`: one try, no waiting. */
  runNow(bankId: string, reason?: RunReason, opts?: RunOptions): Promise<RunOutcome>;
  /** The catch-up runs started by start(). */
  catchUp(): Promise<RunOutcome[]>;
  /** Banks with a run in flight. */
  running(): Set<string>;
  status(): Promise<BankStatus[]>;
  /** Stops scheduling and polling; waits up to `graceMs` for runs in flight. Returns the banks abandoned. */
  stop(graceMs?: number): Promise<string[]>;
}

/**
 * When node-cron's next run is not the one computed here (it skips a time inside a spring-forward
 * gap), the delay until ours, for a one-shot timer; undefined when they agree.
 */
export function gapGuardDelay(ours: Date, theirs: Date | null, now: Date): number | undefined {
  if (theirs && Math.abs(theirs.getTime() - ours.getTime()) < 1000) return undefined;
  const delay = ours.getTime() - now.getTime();
  return delay > 2 ** 31 - 1 ? undefined : Math.max(0, delay);
}

/** Publishes one at a time (the publisher also locks out/ against other processes). */
function serialPublisher(publishBanks: (bankIds?: string[]) => Promise<unknown>) {
  let publishing: Promise<unknown> = Promise.resolve();
  return {
    /** Re-renders the given banks; without ids, every bank whose data changed since the last publish. */
    republish: (bankIds?: string[]): Promise<unknown> => {
      const run = publishing.then(() => publishBanks(bankIds));
      publishing = run.catch(() => undefined);
      return run;
    },
    /** Settles when the publishes started so far have. */
    idle: (): Promise<unknown> => publishing,
  };
}

/** The outcome of a run that made no try. */
const notRun = (bankId: string, state: RunOutcome["state"], message: string): RunOutcome => ({
  bankId,
  state,
  message,
  inserted: 0,
  revised: 0,
  tries: 0,
});

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, adapters, log } = options;
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const poll = options.poll ?? DEFAULT_POLL;
  const stopping = new AbortController();
  const inFlight = new Map<string, Promise<RunOutcome>>();
  const tasks: ScheduledTask[] = [];
  const gapTimers = new Map<string, NodeJS.Timeout>();
  /** The local date of the last scheduled run of each bank: node-cron and the gap guard never both run one slot. */
  const lastSlot = new Map<string, IsoDate>();
  let catchUps: Promise<RunOutcome[]> = Promise.resolve([]);

  const scheduled = adapters.filter((a) => !notScheduledBecause(a, env));
  const byId = new Map(adapters.map((a) => [a.bank.id, a]));
  const publisher = serialPublisher((bankIds) =>
    options.publish
      ? options.publish(bankIds ?? [])
      : publish(store, adapters, options.outDir, bankIds ? { only: bankIds } : {}),
  );
  const runLog = createRunLog(store, log, now);
  const runDeps: RunDeps = {
    store,
    log,
    http: options.http,
    env,
    poll,
    signal: stopping.signal,
    republish: publisher.republish,
    runLog,
    now,
  };

  function runNow(bankId: string, reason: RunReason = "manual", opts: RunOptions = {}): Promise<RunOutcome> {
    const adapter = byId.get(bankId);
    if (!adapter) return Promise.reject(new Error(`unknown bank ${bankId}`));
    if (inFlight.has(bankId)) {
      log.info({ bank: bankId, reason }, "run skipped: the previous run of this bank is still going");
      return Promise.resolve(notRun(bankId, "skipped", "a run of this bank is in progress"));
    }
    if (stopping.signal.aborted) return Promise.resolve(notRun(bankId, "stopped", "shutting down"));
    // Whatever happens inside, it stays this bank's: the promise never rejects.
    const run = executeRun(runDeps, adapter, reason, opts)
      .catch(async (error: unknown): Promise<RunOutcome> => {
        const message = describeError(error);
        log.error({ bank: bankId, err: message }, "run failed unexpectedly");
        await runLog.finished(bankId, { state: "failed", message, error: message });
        return notRun(bankId, "failed", message);
      })
      .finally(() => {
        inFlight.delete(bankId);
        armGapGuard(adapter);
      });
    inFlight.set(bankId, run);
    return run;
  }

  function scheduledRun(adapter: BankAdapter, source: string) {
    if (stopping.signal.aborted) return;
    const slot = previousRun(adapter.bank, new Date(now().getTime() + 1000)); // the slot firing now
    if (lastSlot.get(adapter.bank.id) === slot.date) return; // already run for this day
    lastSlot.set(adapter.bank.id, slot.date);
    log.info({ bank: adapter.bank.id, slot: slot.date, source }, "scheduled run");
    void runNow(adapter.bank.id, "schedule", { slotAt: slot.at });
  }

  /**
   * node-cron skips a day whose dailyUpdateTime falls in a spring-forward gap; the schedule here runs
   * it just after the gap. When the two disagree on the next run, a one-shot timer covers it.
   */
  function armGapGuard(adapter: BankAdapter) {
    const id = adapter.bank.id;
    clearTimeout(gapTimers.get(id));
    gapTimers.delete(id);
    const task = tasks.find((t) => t.name === id);
    if (!task || stopping.signal.aborted) return;
    const delay = gapGuardDelay(nextRun(adapter.bank, now()).at, task.getNextRun(), now());
    if (delay === undefined) return;
    const timer = setTimeout(() => scheduledRun(adapter, "gap-guard"), delay);
    timer.unref();
    gapTimers.set(id, timer);
  }

  function scheduleWithCron(adapter: BankAdapter) {
    const { bank } = adapter;
    const expression = cronExpression(bank);
    const task = cron.schedule(expression, () => scheduledRun(adapter, "cron"), {
      timezone: bank.timeZone,
      name: bank.id,
      noOverlap: false,
    });
    tasks.push(task);
    armGapGuard(adapter);
    const next = nextRun(bank, now()).at.toISOString();
    log.info({ bank: bank.id, cron: expression, timeZone: bank.timeZone, nextRun: next }, "scheduled");
  }

  /** Runs every scheduled bank that is behind, a few at a time; the outcomes sorted by bank. */
  async function catchUpAll(concurrency: number): Promise<RunOutcome[]> {
    // A few banks at a time: a start with a hundred banks behind is polite and keeps the process responsive.
    const queue = [...scheduled];
    const outcomes: RunOutcome[] = [];
    const worker = async () => {
      for (let adapter = queue.shift(); adapter && !stopping.signal.aborted; adapter = queue.shift()) {
        const { bank } = adapter;
        const plan = planFetch(bank, await newestDate(store, bank.id), now());
        if (plan.action === "none") {
          outcomes.push(notRun(bank.id, "ok", plan.reason));
          continue;
        }
        log.info({ bank: bank.id, expected: plan.expected, newest: plan.newest }, `catching up: ${plan.reason}`);
        outcomes.push(await runNow(bank.id, "catch-up"));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return outcomes.sort((a, b) => a.bankId.localeCompare(b.bankId));
  }

  return {
    async start() {
      // The tree exists (and carries every bank already stored) before anything else happens.
      await publisher
        .republish()
        .catch((error: unknown) => log.error({ err: describeError(error) }, "initial publish failed"));
      for (const a of adapters) {
        const why = notScheduledBecause(a, env);
        if (why) log.info({ bank: a.bank.id }, `not scheduled: ${why.summary}`);
      }
      if (options.cron !== false) for (const adapter of scheduled) scheduleWithCron(adapter);
      catchUps = catchUpAll(options.catchUpConcurrency ?? 4);
    },
    runNow,
    catchUp: () => catchUps,
    running: () => new Set(inFlight.keys()),
    status: () => bankStatuses(store, adapters, { env, now: now(), poll, running: new Set(inFlight.keys()) }),
    async stop(graceMs = 8000) {
      stopping.abort();
      for (const task of tasks) await task.destroy();
      for (const timer of gapTimers.values()) clearTimeout(timer);
      const pending = [...inFlight.entries()];
      if (pending.length) log.info({ banks: pending.map(([id]) => id) }, "waiting for runs in flight");
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), graceMs)));
      // A publish in flight is waited for within the same grace (it writes a new generation, then switches).
      await Promise.race([Promise.all([...pending.map(([, p]) => p), publisher.idle()]), timeout]);
      clearTimeout(timer);
      const abandoned = pending.map(([id]) => id).filter((id) => inFlight.has(id));
      if (abandoned.length) log.warn({ banks: abandoned }, "abandoned runs in flight (nothing of theirs was stored)");
      for (const id of abandoned)
        await runLog.finished(id, { state: "stopped", message: "abandoned at shutdown while fetching" });
      return abandoned;
    },
  };
}

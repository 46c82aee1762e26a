// The scheduler of `exrates start`: one node-cron job per bank at its dailyUpdateTime in its own zone
// on its publication days; a catch-up run at start for every bank behind (nothing stored first);
// bounded polling with backoff when a publication is late or a fetch fails. Every try takes one of a
// few shared fetch slots for as long as it fetches and stores, never while it waits (slots.ts), so a
// late or failing bank slows no other. One bank's runs never overlap and its failures stay its own;
// a bank whose data changed is re-published at once (publishes batched, one at a time); stop() ends it
// all cleanly.
import { setMaxListeners } from "node:events";

import cron, { type ScheduledTask } from "node-cron";

import { describeError } from "../errors.js";
import type { Logger } from "../log.js";
import { publish } from "../publish/publisher.js";
import type { Store } from "../store/database.js";
import { newestDates } from "../store/rates.js";
import type { RunReason } from "../store/runs.js";
import type { BankAdapter, HttpClient, IsoDate } from "../types.js";
import { planFetch } from "./catchup.js";
import { createRunLog } from "./run-log.js";
import { executeRun, sleep, type RunDeps, type RunOptions, type RunOutcome, type RunPhase } from "./run.js";
import { createSlots } from "./slots.js";
import { bankStatuses, notScheduledBecause, type BankStatus } from "./status.js";
import { DEFAULT_POLL, cronExpression, nextRun, previousRun, type PollOptions } from "./time.js";

export type { RunReason } from "../store/runs.js";
export type { RunOptions, RunOutcome, RunPhase } from "./run.js";

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
  /** Tries fetching and storing at once, all banks together (a wait to poll again holds none). Default 4. */
  concurrency?: number;
  /** The timer between two tries of a run. Default: setTimeout; tests pass a fake clock's. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

export interface Scheduler {
  /** Publishes once, schedules every eligible bank, and starts the catch-up (not awaited). */
  start(): Promise<void>;
  /** Runs a bank now (no overlap with its other runs). `poll: false`: one try, no waiting. */
  runNow(bankId: string, reason?: RunReason, opts?: RunOptions): Promise<RunOutcome>;
  /** The catch-up runs started by start(). */
  catchUp(): Promise<RunOutcome[]>;
  /** Banks with a run in flight (trying, waiting for a slot, or waiting to poll again). */
  running(): Set<string>;
  /** Where each run in flight is. */
  phases(): Map<string, RunPhase>;
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

/**
 * Publishes one at a time, and batches: the banks asked for while a publish is going on are rendered
 * together by the next one (at a catch-up, ninety banks stored within a minute make a few
 * generations, not ninety). Each caller's promise settles with the publish that covered its banks.
 */
export function batchingPublisher(publishBanks: (bankIds?: string[]) => Promise<unknown>) {
  interface Batch {
    /** undefined: every bank whose data changed. */
    ids: Set<string> | undefined;
    done: Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }
  let next: Batch | undefined;
  let current: Promise<void> | undefined;

  async function drain(): Promise<void> {
    for (let batch = next; batch; batch = next) {
      next = undefined;
      try {
        batch.resolve(await publishBanks(batch.ids ? [...batch.ids].sort() : undefined));
      } catch (error) {
        batch.reject(error);
      }
    }
    current = undefined;
  }

  return {
    /** Re-renders the given banks; without ids, every bank whose data changed since the last publish. */
    republish: (bankIds?: string[]): Promise<unknown> => {
      if (!next) {
        let resolve!: (value: unknown) => void;
        let reject!: (error: unknown) => void;
        const done = new Promise((res, rej) => ((resolve = res), (reject = rej)));
        next = { ids: new Set(), done, resolve, reject };
      }
      if (!bankIds) next.ids = undefined;
      else if (next.ids) for (const id of bankIds) next.ids.add(id);
      const { done } = next;
      current ??= drain();
      return done;
    },
    /** Settles when the publishes asked for so far have. */
    idle: (): Promise<void> => current ?? Promise.resolve(),
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

/** The same logger with info and warn lowered to debug: a catch-up's lines per bank, summed up at its end. */
function quieter(log: Logger): Logger {
  const quiet = log.child({});
  quiet.info = quiet.debug.bind(quiet);
  quiet.warn = quiet.debug.bind(quiet);
  return quiet;
}

/** Who goes first at a catch-up: banks with nothing stored, then the furthest behind, then by id. */
export function catchUpOrder(
  a: { id: string; newest: IsoDate | undefined },
  b: { id: string; newest: IsoDate | undefined },
): number {
  if ((a.newest === undefined) !== (b.newest === undefined)) return a.newest === undefined ? -1 : 1;
  if (a.newest !== b.newest) return (a.newest ?? "") < (b.newest ?? "") ? -1 : 1;
  return a.id.localeCompare(b.id);
}

/** Where the catch-up stands: the runs over, and those waiting to poll again (with their failure, if any). */
export interface CatchUpProgress {
  over: RunOutcome[];
  waiting: Array<{ bankId: string; error?: string }>;
}

/**
 * One line once every bank behind has had its first try (`firstPass`), or once the catch-up is over:
 * how many banks ended how, which failed, and which are still polling or retrying.
 */
export function catchUpSummary({ over, waiting }: CatchUpProgress, ms: number, firstPass: boolean): string {
  const count = (state: RunOutcome["state"]) => over.filter((o) => o.state === state).length;
  const failed = over.filter((o) => o.state === "failed").map((o) => o.bankId);
  const retrying = waiting.filter((w) => w.error).map((w) => w.bankId);
  const polling = waiting.length - retrying.length;
  const parts = [
    `${count("ok")} up to date`,
    polling && `${polling} polling for a late publication`,
    count("gave-up") && `${count("gave-up")} not published yet`,
    retrying.length && `${retrying.length} retrying after a failure (${retrying.join(", ")})`,
    failed.length && `${failed.length} failed (${failed.join(", ")})`,
    count("stopped") && `${count("stopped")} stopped`,
  ].filter(Boolean);
  const head = firstPass
    ? `catch-up: every bank behind tried once in ${Math.round(ms / 1000)} s`
    : `catch-up done in ${Math.round(ms / 1000)} s`;
  return `${head}: ${parts.join(", ")}; \`exrates banks\` shows each bank's state`;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, adapters, log } = options;
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const poll = options.poll ?? DEFAULT_POLL;
  const stopping = new AbortController();
  // Every run in flight listens for the stop (ninety banks at a catch-up): not a leak.
  setMaxListeners(0, stopping.signal);
  const inFlight = new Map<string, Promise<RunOutcome>>();
  const phases = new Map<string, RunPhase>();
  const tasks: ScheduledTask[] = [];
  const gapTimers = new Map<string, NodeJS.Timeout>();
  /** The local date of the last scheduled run of each bank: node-cron and the gap guard never both run one slot. */
  const lastSlot = new Map<string, IsoDate>();
  let catchUps: Promise<RunOutcome[]> = Promise.resolve([]);
  /** For each bank of the catch-up's first pass, what to call when its first try is over. */
  const firstTried = new Map<string, (end: { error?: string } | RunOutcome) => void>();
  let stopped: Promise<string[]> | undefined;
  let order = 0;

  const scheduled = adapters.filter((a) => !notScheduledBecause(a, env));
  const byId = new Map(adapters.map((a) => [a.bank.id, a]));
  const publisher = batchingPublisher((bankIds) =>
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
    slots: createSlots(options.concurrency ?? 4),
    sleep: options.sleep ?? sleep,
    nextOrder: () => order++,
    onPhase: (bankId, phase, error) => {
      phases.set(bankId, phase);
      if (phase === "waiting") firstTried.get(bankId)?.({ error });
    },
  };
  const catchUpDeps: RunDeps = { ...runDeps, log: quieter(log) };

  function runNow(bankId: string, reason: RunReason = "manual", opts: RunOptions = {}): Promise<RunOutcome> {
    const adapter = byId.get(bankId);
    if (!adapter) return Promise.reject(new Error(`unknown bank ${bankId}`));
    if (inFlight.has(bankId)) {
      log.info({ bank: bankId, reason }, "run skipped: the previous run of this bank is still going");
      return Promise.resolve(notRun(bankId, "skipped", "a run of this bank is in progress"));
    }
    if (stopping.signal.aborted) return Promise.resolve(notRun(bankId, "stopped", "shutting down"));
    // Its place in the queue is taken now: runs asked for in a given order get their first try in it.
    const place = runDeps.nextOrder();
    phases.set(bankId, "queued");
    // Whatever happens inside, it stays this bank's: the promise never rejects.
    const run = executeRun(reason === "catch-up" ? catchUpDeps : runDeps, adapter, reason, opts, place)
      .catch(async (error: unknown): Promise<RunOutcome> => {
        const message = describeError(error);
        log.error({ bank: bankId, err: message }, "run failed unexpectedly");
        await runLog.finished(bankId, { state: "failed", message, error: message });
        return notRun(bankId, "failed", message);
      })
      .finally(() => {
        inFlight.delete(bankId);
        phases.delete(bankId);
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
    log.debug({ bank: bank.id, cron: expression, timeZone: bank.timeZone, nextRun: next }, "scheduled");
  }

  /**
   * Every scheduled bank that is behind, asked for at once in catch-up order; the shared slots bound
   * how many fetch at a time. The outcomes sorted by bank.
   */
  async function catchUpAll(behind: Array<{ id: string; reason: string }>): Promise<RunOutcome[]> {
    const started = Date.now();
    const firstTries: Array<Promise<unknown>> = [];
    const over: RunOutcome[] = [];
    const waiting = new Map<string, { bankId: string; error?: string }>();
    const runs = behind.map(({ id, reason }) => {
      log.debug({ bank: id }, `catching up: ${reason}`);
      firstTries.push(
        new Promise((resolve) =>
          firstTried.set(id, (end) => {
            firstTried.delete(id);
            if (!("state" in end)) waiting.set(id, { bankId: id, error: end.error });
            resolve(undefined);
          }),
        ),
      );
      return runNow(id, "catch-up").then((outcome) => {
        over.push(outcome);
        waiting.delete(id);
        firstTried.get(id)?.(outcome);
        return outcome;
      });
    });
    if (!behind.length) return [];
    await Promise.all(firstTries);
    const stillPolling = waiting.size > 0;
    log.info(catchUpSummary({ over, waiting: [...waiting.values()] }, Date.now() - started, true));
    const outcomes = await Promise.all(runs);
    // The banks that were still polling have ended too: how.
    if (stillPolling) log.info(catchUpSummary({ over: outcomes, waiting: [] }, Date.now() - started, false));
    return outcomes.sort((a, b) => a.bankId.localeCompare(b.bankId));
  }

  /** The scheduled banks that are behind, in catch-up order; those up to date as outcomes. */
  async function planCatchUp(): Promise<{
    behind: Array<{ id: string; newest: IsoDate | undefined; reason: string }>;
    upToDate: RunOutcome[];
  }> {
    const stored = await newestDates(store);
    const plans = scheduled.map((a) => {
      const newest = stored.get(a.bank.id);
      return { id: a.bank.id, newest, plan: planFetch(a.bank, newest, now()) };
    });
    return {
      behind: plans
        .filter((p) => p.plan.action !== "none")
        .sort(catchUpOrder)
        .map((p) => ({ id: p.id, newest: p.newest, reason: p.plan.reason })),
      upToDate: plans.filter((p) => p.plan.action === "none").map((p) => notRun(p.id, "ok", p.plan.reason)),
    };
  }

  return {
    async start() {
      // The tree exists (and carries every bank already stored) before anything else happens.
      await publisher
        .republish()
        .catch((error: unknown) => log.error({ err: describeError(error) }, "initial publish failed"));
      const notScheduled = new Map<string, string[]>();
      for (const a of adapters) {
        const why = notScheduledBecause(a, env);
        if (!why) continue;
        log.debug({ bank: a.bank.id }, `not scheduled: ${why.summary}`);
        notScheduled.set(why.state, [...(notScheduled.get(why.state) ?? []), a.bank.id]);
      }
      if (options.cron !== false) for (const adapter of scheduled) scheduleWithCron(adapter);
      const { behind, upToDate } = await planCatchUp();
      const nothingStored = behind.filter((b) => b.newest === undefined).length;
      const skipped = [...notScheduled].map(([state, ids]) => `${ids.length} ${state} (${ids.join(", ")})`);
      log.info(
        {
          scheduled: scheduled.length,
          catchingUp: behind.length,
          nothingStored,
          upToDate: upToDate.length,
          notScheduled: Object.fromEntries(notScheduled),
        },
        `scheduled ${scheduled.length} of ${adapters.length} banks` +
          (skipped.length ? ` (not scheduled: ${skipped.join("; ")})` : "") +
          `; catching up ${behind.length} (${nothingStored} with nothing stored first), ${upToDate.length} up to date`,
      );
      catchUps = catchUpAll(behind).then((outcomes) =>
        [...outcomes, ...upToDate].sort((a, b) => a.bankId.localeCompare(b.bankId)),
      );
    },
    runNow,
    catchUp: () => catchUps,
    running: () => new Set(inFlight.keys()),
    phases: () => new Map(phases),
    status: () => bankStatuses(store, adapters, { env, now: now(), poll, running: trying() }),
    stop(graceMs = 8000) {
      // A second stop (a second signal, a test's cleanup) waits for the first.
      stopped ??= stopAll(graceMs);
      return stopped;
    },
  };

  async function stopAll(graceMs: number): Promise<string[]> {
    stopping.abort();
    for (const task of tasks) await task.destroy();
    for (const timer of gapTimers.values()) clearTimeout(timer);
    // Runs waiting for a slot or to poll again end at once; those trying get the grace.
    const busy = [...trying()];
    if (busy.length) log.info({ banks: busy }, "waiting for runs in flight");
    const pending = [...inFlight.entries()];
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
    return abandoned;
  }

  /** Banks whose run is fetching or storing right now. */
  function trying(): Set<string> {
    return new Set([...phases].filter(([, phase]) => phase === "trying").map(([id]) => id));
  }
}

// The scheduler of `exrates start`, put together from its parts: the timetable (timetable.ts: one
// node-cron job per bank at its dailyUpdateTime in its own zone on its publication days), the fetch
// slots every try shares while it fetches and stores, never while it waits (slots.ts), each bank's run
// state (bank-runs.ts: one run per bank at a time, its failures its own), the catch-up at start of every
// bank behind (catch-up-queue.ts), and the publishes, one at a time and batched (publish-batches.ts).
// stop() ends it all cleanly.
import { setMaxListeners } from "node:events";

import { describeError } from "../errors.js";
import type { Logger } from "../log.js";
import { publish } from "../publish/publisher.js";
import type { PublicationSigning } from "../publish/signing.js";
import type { Store } from "../store/database.js";
import type { RunReason } from "../store/runs.js";
import type { BankAdapter, HttpClient } from "../types.js";
import { createBankRuns } from "./bank-runs.js";
import { planCatchUp, quieter, runCatchUp, type CatchUpPlan } from "./catch-up-queue.js";
import { batchingPublisher } from "./publish-batches.js";
import { createRunLog } from "./run-log.js";
import { sleep, type RunDeps, type RunOptions, type RunOutcome, type RunPhase } from "./run.js";
import { createSlots } from "./slots.js";
import { bankStatuses, notScheduledBecause, type BankStatus } from "./status.js";
import { DEFAULT_POLL, type PollOptions } from "./time.js";
import { createTimetable } from "./timetable.js";

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
  /**
   * The publication keys the default publisher signs each generation with, read at each publish (a
   * rotation needs no restart); UNSIGNED only when the operator turned signing off
   * (`publicationSigning(config)`). Required unless `publish` is given (refused at creation).
   */
  signing?: () => Promise<PublicationSigning>;
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

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, adapters, log } = options;
  const signing = options.signing;
  if (!options.publish && !signing) throw new Error("createScheduler: no `signing` for its publisher");
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const poll = options.poll ?? DEFAULT_POLL;
  const stopping = new AbortController();
  // Every run in flight listens for the stop (ninety banks at a catch-up): not a leak.
  setMaxListeners(0, stopping.signal);
  const scheduled = adapters.filter((a) => !notScheduledBecause(a, env));
  const byId = new Map(adapters.map((a) => [a.bank.id, a]));
  const publisher = batchingPublisher((bankIds) =>
    options.publish ? options.publish(bankIds ?? []) : publishSigned(bankIds),
  );
  async function publishSigned(bankIds: string[] | undefined) {
    return publish(store, adapters, options.outDir, {
      ...(bankIds ? { only: bankIds } : {}),
      signing: await signing!(),
    });
  }
  const runLog = createRunLog(store, log, now);
  let order = 0;
  const runDeps: RunDeps = {
    store,
    log,
    http: options.http,
    env,
    poll,
    now,
    runLog,
    signal: stopping.signal,
    republish: publisher.republish,
    slots: createSlots(options.concurrency ?? 4),
    sleep: options.sleep ?? sleep,
    nextOrder: () => order++,
  };
  const catchUpDeps: RunDeps = { ...runDeps, log: quieter(log) };
  const timetable = createTimetable({
    now,
    log,
    signal: stopping.signal,
    onSlot: (adapter, slotAt) => void runNow(adapter.bank.id, "schedule", { slotAt }),
  });
  const runs = createBankRuns({ log, runLog, onIdle: (adapter) => timetable.rearm(adapter) });
  let catchUps: Promise<RunOutcome[]> = Promise.resolve([]);
  let stopped: Promise<string[]> | undefined;

  function runNow(bankId: string, reason: RunReason = "manual", opts: RunOptions = {}): Promise<RunOutcome> {
    const adapter = byId.get(bankId);
    if (!adapter) return Promise.reject(new Error(`unknown bank ${bankId}`));
    return runs.start(adapter, reason, opts, reason === "catch-up" ? catchUpDeps : runDeps);
  }

  async function start() {
    // The tree exists (and carries every bank already stored) before anything else happens.
    await publisher
      .republish()
      .catch((error: unknown) => log.error({ err: describeError(error) }, "initial publish failed"));
    const notScheduled = notScheduledBanks(adapters, env, log);
    if (options.cron !== false) for (const adapter of scheduled) timetable.add(adapter);
    const plan = await planCatchUp(store, scheduled, now());
    logSchedule(log, { adapters: adapters.length, scheduled: scheduled.length, notScheduled, plan });
    catchUps = runCatchUp(plan.behind, {
      log,
      run: (id) => runNow(id, "catch-up"),
      watch: (id, listener) => runs.watch(id, listener),
    }).then((outcomes) => [...outcomes, ...plan.upToDate].sort((a, b) => a.bankId.localeCompare(b.bankId)));
  }

  async function stopAll(graceMs: number): Promise<string[]> {
    stopping.abort();
    await timetable.stop();
    // Runs waiting for a slot or to poll again end at once; those trying get the grace.
    const busy = [...runs.trying()];
    if (busy.length) log.info({ banks: busy }, "waiting for runs in flight");
    // A publish in flight is waited for within the same grace (it writes a new generation, then switches).
    const abandoned = await runs.settle(graceMs, publisher.idle());
    if (abandoned.length) log.warn({ banks: abandoned }, "abandoned runs in flight (nothing of theirs was stored)");
    for (const id of abandoned)
      await runLog.finished(id, { state: "stopped", message: "abandoned at shutdown while fetching" });
    return abandoned;
  }

  return {
    start,
    runNow,
    catchUp: () => catchUps,
    running: () => runs.running(),
    phases: () => runs.phases(),
    status: () => bankStatuses(store, adapters, { env, now: now(), poll, running: runs.trying() }),
    // A second stop (a second signal, a test's cleanup) waits for the first.
    stop: (graceMs = 8000) => (stopped ??= stopAll(graceMs)),
  };
}

/** The banks left off the schedule, by why (each logged at debug). */
function notScheduledBanks(
  adapters: readonly BankAdapter[],
  env: Readonly<Record<string, string | undefined>>,
  log: Logger,
): Map<string, string[]> {
  const notScheduled = new Map<string, string[]>();
  for (const a of adapters) {
    const why = notScheduledBecause(a, env);
    if (!why) continue;
    log.debug({ bank: a.bank.id }, `not scheduled: ${why.summary}`);
    notScheduled.set(why.state, [...(notScheduled.get(why.state) ?? []), a.bank.id]);
  }
  return notScheduled;
}

/** The one line of the start: how many banks are scheduled, which are not and why, and the catch-up ahead. */
function logSchedule(
  log: Logger,
  s: { adapters: number; scheduled: number; notScheduled: Map<string, string[]>; plan: CatchUpPlan },
): void {
  const { behind, upToDate } = s.plan;
  const nothingStored = behind.filter((b) => b.newest === undefined).length;
  const skipped = [...s.notScheduled].map(([state, ids]) => `${ids.length} ${state} (${ids.join(", ")})`);
  log.info(
    {
      scheduled: s.scheduled,
      catchingUp: behind.length,
      nothingStored,
      upToDate: upToDate.length,
      notScheduled: Object.fromEntries(s.notScheduled),
    },
    `scheduled ${s.scheduled} of ${s.adapters} banks` +
      (skipped.length ? ` (not scheduled: ${skipped.join("; ")})` : "") +
      `; catching up ${behind.length} (${nothingStored} with nothing stored first), ${upToDate.length} up to date`,
  );
}

// The scheduler of `exrates start`: one node-cron job per bank at its dailyUpdateTime in its own zone
// on its publication days; a catch-up run at start for every bank behind; bounded polling with
// backoff when a publication is late; one bank's runs never overlap and its failures stay its own;
// a bank whose data changed is re-published at once; stop() ends it all cleanly.
import cron, { type ScheduledTask } from "node-cron";

import { describeError } from "../errors.js";
import { fetchAndStore } from "../ingest/ingest.js";
import type { Logger } from "../log.js";
import { publish } from "../publish/publisher.js";
import type { Store } from "../store/database.js";
import { newestDate } from "../store/rates.js";
import type { BankAdapter, FetchRange, HttpClient, IsoDate } from "../types.js";
import { planFetch } from "./catchup.js";
import { bankStatuses, notScheduledBecause, type BankStatus } from "./status.js";
import { DEFAULT_POLL, cronExpression, nextRun, pollDelay, previousRun, wallClock, type PollOptions } from "./time.js";

export type RunReason = "schedule" | "catch-up" | "manual";

export interface RunOutcome {
  bankId: string;
  state: "ok" | "gave-up" | "failed" | "stopped" | "skipped";
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

/**
 * When node-cron's next run is not the one computed here (it skips a time inside a spring-forward
 * gap), the delay until ours, for a one-shot timer; undefined when they agree.
 */
export function gapGuardDelay(ours: Date, theirs: Date | null, now: Date): number | undefined {
  if (theirs && Math.abs(theirs.getTime() - ours.getTime()) < 1000) return undefined;
  const delay = ours.getTime() - now.getTime();
  return delay > 2 ** 31 - 1 ? undefined : Math.max(0, delay);
}

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

  // One publish at a time (the publisher also locks out/ against other processes).
  let publishing: Promise<unknown> = Promise.resolve();
  /** Re-renders the given banks; without ids, every bank whose data changed since the last publish. */
  const republish = (bankIds?: string[]) => {
    const run = publishing.then(() =>
      options.publish
        ? options.publish(bankIds ?? [])
        : publish(store, adapters, options.outDir, bankIds ? { only: bankIds } : {}),
    );
    publishing = run.catch(() => undefined);
    return run;
  };

  function record(
    bankId: string,
    fields: {
      state: string;
      reason?: RunReason;
      message?: string | null;
      expected?: IsoDate;
      finished?: boolean;
      error?: string;
    },
  ) {
    const at = now().toISOString();
    try {
      store.sqlite
        .prepare(
          `insert into bank_runs (bank_id, state, reason, started_at, finished_at, expected_date, message, last_error, last_error_at, pid)
           values (@bankId, @state, @reason, @at, @finishedAt, @expected, @message, @error, @errorAt, @pid)
           on conflict (bank_id) do update set state = excluded.state,
             reason = coalesce(@reasonOrNull, bank_runs.reason),
             started_at = case when @reasonOrNull is null then bank_runs.started_at else excluded.started_at end,
             finished_at = excluded.finished_at, expected_date = coalesce(excluded.expected_date, bank_runs.expected_date),
             message = excluded.message,
             last_error = coalesce(excluded.last_error, bank_runs.last_error),
             last_error_at = coalesce(excluded.last_error_at, bank_runs.last_error_at), pid = excluded.pid`,
        )
        .run({
          bankId,
          state: fields.state,
          reason: fields.reason ?? "schedule",
          reasonOrNull: fields.reason ?? null,
          at,
          finishedAt: fields.finished ? at : null,
          expected: fields.expected ?? null,
          message: fields.message ?? null,
          error: fields.error ?? null,
          errorAt: fields.error ? at : null,
          pid: process.pid,
        });
    } catch (error) {
      // The database may already be closed at shutdown; the run's outcome is in the log.
      log.debug({ bank: bankId, err: (error as Error).message }, "could not record the run state");
    }
  }

  async function execute(adapter: BankAdapter, reason: RunReason, opts: RunOptions): Promise<RunOutcome> {
    const { bank } = adapter;
    const id = bank.id;
    // A timer firing a moment early still belongs to its slot: the clock never reads before it.
    const clock = () => (opts.slotAt && now() < opts.slotAt ? opts.slotAt : now());
    const started = clock();
    // Polling goes on until the window after the run the expected date belongs to has passed.
    const windowEnd = new Date(previousRun(bank, started).at.getTime() + (opts.poll === false ? 0 : poll.windowMs));
    const outcome: RunOutcome = { bankId: id, state: "ok", message: "", inserted: 0, revised: 0, tries: 0 };
    let lastError: string | undefined;
    record(id, { state: "running", reason, message: `${reason} run started` });
    for (let attempt = 1; ; attempt++) {
      if (stopping.signal.aborted) {
        Object.assign(outcome, { state: "stopped", message: "stopped by shutdown" });
        break;
      }
      const stored = await newestDate(store, id);
      const plan = planFetch(bank, stored, clock());
      outcome.expected = plan.expected;
      outcome.newest = stored;
      if (plan.action === "none" && !(opts.force && attempt === 1)) {
        outcome.message = attempt === 1 ? plan.reason : `${plan.expected} stored after ${outcome.tries} tries`;
        break;
      }
      outcome.tries++;
      const fetches: FetchRange[] = plan.action === "range" ? plan.ranges : [{ kind: "latest" }];
      log.info(
        { bank: id, reason, attempt, plan: plan.action, expected: plan.expected, newest: stored },
        plan.action === "none" ? "fetching (forced)" : plan.reason,
      );
      lastError = undefined;
      let changed = false;
      try {
        for (const [i, range] of fetches.entries()) {
          const result = await fetchAndStore(store, adapter, range, {
            http: options.http,
            env,
            signal: stopping.signal,
          });
          outcome.inserted += result.inserted;
          outcome.revised += result.revised;
          if (result.inserted + result.revised > 0) changed = true;
          // After a gap is filled, the newest publication itself, unless the range already brought it.
          if (i === fetches.length - 1 && range.kind === "range") {
            const after = await newestDate(store, id);
            if (!after || after < plan.expected) fetches.push({ kind: "latest" });
          }
        }
      } catch (error) {
        lastError = describeError(error);
        log.warn({ bank: id, reason, attempt, err: lastError }, "fetch failed");
      }
      if (stopping.signal.aborted && lastError) {
        Object.assign(outcome, { state: "stopped", message: `stopped by shutdown during a fetch (${lastError})` });
        break;
      }
      if (changed) {
        try {
          await republish([id]);
          log.info({ bank: id, inserted: outcome.inserted, revised: outcome.revised }, "re-published");
        } catch (error) {
          lastError = `publish failed: ${describeError(error)}`;
          log.error({ bank: id, err: lastError }, "publish failed");
        }
      }
      const after = await newestDate(store, id);
      outcome.newest = after;
      if (!lastError && after !== undefined && after >= plan.expected) {
        outcome.message = `${after} stored${outcome.inserted + outcome.revised ? ` (${outcome.inserted} added, ${outcome.revised} revised)` : ""}`;
        break;
      }
      const delay = pollDelay(attempt, clock(), windowEnd, poll);
      const why = lastError ?? `${plan.expected} not published yet (newest ${after ?? "none"})`;
      if (delay === undefined) {
        const local = (d: Date) => wallClock(d, bank.timeZone).replace("T", " ").slice(0, 16);
        const next = local(nextRun(bank, clock()).at);
        const tries = `${outcome.tries} ${outcome.tries === 1 ? "try" : "tries"}`;
        Object.assign(outcome, {
          state: lastError ? "failed" : "gave-up",
          message:
            opts.poll === false
              ? why
              : `${why}; gave up after ${tries} (polling window until ${local(windowEnd)} local); next run ${next} local`,
        });
        break;
      }
      record(id, {
        state: "waiting",
        message: `${why}; polling again in ${Math.round(delay / 60_000)} min`,
        expected: plan.expected,
        error: lastError,
      });
      log.info({ bank: id, delayMs: delay, why }, "polling again later");
      if (!(await sleep(delay, stopping.signal))) {
        Object.assign(outcome, { state: "stopped", message: `stopped by shutdown while waiting (${why})` });
        break;
      }
    }
    record(id, {
      state: outcome.state,
      message: outcome.message,
      expected: outcome.expected,
      finished: true,
      error: outcome.state === "failed" ? lastError : undefined,
    });
    const level = outcome.state === "ok" ? "info" : outcome.state === "stopped" ? "info" : "warn";
    log[level](
      {
        bank: id,
        reason,
        state: outcome.state,
        tries: outcome.tries,
        inserted: outcome.inserted,
        revised: outcome.revised,
      },
      `run ${outcome.state}: ${outcome.message}`,
    );
    return outcome;
  }

  function runNow(bankId: string, reason: RunReason = "manual", opts: RunOptions = {}): Promise<RunOutcome> {
    const adapter = byId.get(bankId);
    if (!adapter) return Promise.reject(new Error(`unknown bank ${bankId}`));
    const current = inFlight.get(bankId);
    if (current) {
      log.info({ bank: bankId, reason }, "run skipped: the previous run of this bank is still going");
      return Promise.resolve({
        bankId,
        state: "skipped",
        message: "a run of this bank is in progress",
        inserted: 0,
        revised: 0,
        tries: 0,
      });
    }
    if (stopping.signal.aborted)
      return Promise.resolve({ bankId, state: "stopped", message: "shutting down", inserted: 0, revised: 0, tries: 0 });
    // Whatever happens inside, it stays this bank's: the promise never rejects.
    const run = execute(adapter, reason, opts)
      .catch((error: unknown): RunOutcome => {
        const message = describeError(error);
        log.error({ bank: bankId, err: message }, "run failed unexpectedly");
        record(bankId, { state: "failed", message, finished: true, error: message });
        return { bankId, state: "failed", message, inserted: 0, revised: 0, tries: 0 };
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

  return {
    async start() {
      // The tree exists (and carries every bank already stored) before anything else happens.
      await republish().catch((error: unknown) => log.error({ err: describeError(error) }, "initial publish failed"));
      for (const a of adapters) {
        const why = notScheduledBecause(a, env);
        if (why) log.info({ bank: a.bank.id }, `not scheduled: ${why.summary}`);
      }
      if (options.cron !== false) {
        for (const adapter of scheduled) {
          const { bank } = adapter;
          const task = cron.schedule(cronExpression(bank), () => scheduledRun(adapter, "cron"), {
            timezone: bank.timeZone,
            name: bank.id,
            noOverlap: false,
          });
          tasks.push(task);
          armGapGuard(adapter);
          log.info(
            {
              bank: bank.id,
              cron: cronExpression(bank),
              timeZone: bank.timeZone,
              nextRun: nextRun(bank, now()).at.toISOString(),
            },
            "scheduled",
          );
        }
      }
      // A few banks at a time: a start with a hundred banks behind is polite and keeps the process responsive.
      const queue = [...scheduled];
      const outcomes: RunOutcome[] = [];
      const worker = async () => {
        for (let adapter = queue.shift(); adapter && !stopping.signal.aborted; adapter = queue.shift()) {
          const plan = planFetch(adapter.bank, await newestDate(store, adapter.bank.id), now());
          if (plan.action === "none") {
            outcomes.push({
              bankId: adapter.bank.id,
              state: "ok",
              message: plan.reason,
              inserted: 0,
              revised: 0,
              tries: 0,
            });
            continue;
          }
          log.info(
            { bank: adapter.bank.id, expected: plan.expected, newest: plan.newest },
            `catching up: ${plan.reason}`,
          );
          outcomes.push(await runNow(adapter.bank.id, "catch-up"));
        }
      };
      catchUps = Promise.all(Array.from({ length: Math.max(1, options.catchUpConcurrency ?? 4) }, worker)).then(() =>
        outcomes.sort((a, b) => a.bankId.localeCompare(b.bankId)),
      );
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
      const abandoned: string[] = [];
      // A publish in flight is waited for within the same grace (it writes a new generation, then switches).
      await Promise.race([Promise.all([...pending.map(([, p]) => p), publishing]), timeout]);
      clearTimeout(timer);
      for (const [id] of pending) if (inFlight.has(id)) abandoned.push(id);
      if (abandoned.length) log.warn({ banks: abandoned }, "abandoned runs in flight (nothing of theirs was stored)");
      for (const id of abandoned)
        record(id, { state: "stopped", message: "abandoned at shutdown while fetching", finished: true });
      return abandoned;
    },
  };
}

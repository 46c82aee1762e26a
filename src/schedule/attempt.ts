// One try of a bank's run: plan the fetch from what is stored, fetch and store, re-publish the bank if
// its data changed, and say what the run does next. The loop over tries is run.ts's.
import { describeError } from "../errors.js";
import { fetchAndStore, logNewAnomalies } from "../ingest/ingest.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { newestDate } from "../store/rates.js";
import type { RunReason } from "../store/runs.js";
import type { BankAdapter, FetchRange, HttpClient, IsoDate } from "../types.js";
import { planFetch, type FetchPlan } from "./catchup.js";
import { nextRun, pollDelay, wallClock, type PollOptions } from "./time.js";

/** What every try needs from the scheduler. */
export interface AttemptDeps {
  store: Store;
  log: Logger;
  http: HttpClient;
  env: Readonly<Record<string, string | undefined>>;
  poll: PollOptions;
  /** Aborted at shutdown: fetches end and waits are cut short. */
  signal: AbortSignal;
  /** Re-renders these banks' files (one publish at a time). */
  republish: (bankIds: string[]) => Promise<unknown>;
}

/** What a run's tries so far found and did. */
export interface RunTally {
  expected?: IsoDate;
  newest?: IsoDate;
  inserted: number;
  revised: number;
  /** Figures sent again as stored, and rows held (left out with a reason), over the run's tries. */
  unchanged?: number;
  held?: number;
  tries: number;
}

/** One run of one bank, across its tries. */
export interface BankRun {
  adapter: BankAdapter;
  reason: RunReason;
  /** false: one try, then the run ends whatever it found. */
  polling: boolean;
  /** Fetch on the first try even when the bank is up to date. */
  force: boolean;
  /** The run's clock, which never reads before the run's slot. */
  clock: () => Date;
  /** No poll is scheduled after this instant. */
  windowEnd: Date;
  tally: RunTally;
}

export type NextStep =
  | { kind: "done"; message: string }
  | { kind: "poll-again"; after: number; why: string; expected: IsoDate; error?: string }
  | { kind: "give-up"; reason: string }
  | { kind: "failed"; error: string; message: string }
  | { kind: "stopped"; message: string };

/** Try number `attempt` (from 1) of a run; updates the run's tally. Never throws for a feed's failure. */
export async function attemptRun(deps: AttemptDeps, run: BankRun, attempt: number): Promise<NextStep> {
  if (deps.signal.aborted) return { kind: "stopped", message: "stopped by shutdown" };
  const { bank } = run.adapter;
  const stored = await newestDate(deps.store, bank.id);
  const plan = planFetch(bank, stored, run.clock());
  run.tally.expected = plan.expected;
  run.tally.newest = stored;
  if (plan.action === "none" && !(run.force && attempt === 1)) {
    const message = attempt === 1 ? plan.reason : `${plan.expected} stored after ${run.tally.tries} tries`;
    return { kind: "done", message };
  }

  run.tally.tries++;
  deps.log.info(
    { bank: bank.id, reason: run.reason, attempt, plan: plan.action, expected: plan.expected, newest: stored },
    plan.action === "none" ? "fetching (forced)" : plan.reason,
  );
  const fetched = await fetchPlanned(deps, run, plan, attempt);
  if (deps.signal.aborted && fetched.error)
    return { kind: "stopped", message: `stopped by shutdown during a fetch (${fetched.error})` };
  // A failed publish is the try's error: the data is stored but not served yet.
  const error = (fetched.changed ? await republishBank(deps, run) : undefined) ?? fetched.error;

  const newest = await newestDate(deps.store, bank.id);
  run.tally.newest = newest;
  if (!error && newest !== undefined && newest >= plan.expected)
    return { kind: "done", message: storedMessage(newest, run.tally) };
  const why = error ?? `${plan.expected} not published yet (newest ${newest ?? "none"})`;
  const delay = pollDelay(attempt, run.clock(), run.windowEnd, deps.poll);
  if (delay !== undefined) return { kind: "poll-again", after: delay, why, expected: plan.expected, error };
  const message = run.polling ? givingUpMessage(run, why) : why;
  return error ? { kind: "failed", error, message } : { kind: "give-up", reason: message };
}

/** Fetches and stores what the plan says; the first failure ends the try. */
async function fetchPlanned(
  deps: AttemptDeps,
  run: BankRun,
  plan: FetchPlan,
  attempt: number,
): Promise<{ changed: boolean; error?: string }> {
  const { adapter, tally } = run;
  let changed = false;
  const fetchOne = async (range: FetchRange) => {
    const result = await fetchAndStore(deps.store, adapter, range, {
      http: deps.http,
      env: deps.env,
      signal: deps.signal,
    });
    logNewAnomalies(deps.log, adapter.bank.id, result);
    tally.inserted += result.inserted;
    tally.revised += result.revised;
    tally.unchanged = (tally.unchanged ?? 0) + result.unchanged;
    tally.held = (tally.held ?? 0) + result.held;
    if (result.inserted + result.revised > 0) changed = true;
  };
  try {
    if (plan.action !== "range") await fetchOne({ kind: "latest" });
    else if (plan.ranges.length > 0) {
      for (const range of plan.ranges) await fetchOne(range);
      // After a gap is filled, the newest publication itself, unless the ranges already brought it.
      const after = await newestDate(deps.store, adapter.bank.id);
      if (!after || after < plan.expected) await fetchOne({ kind: "latest" });
    }
    return { changed };
  } catch (error) {
    const message = describeError(error);
    deps.log.warn({ bank: adapter.bank.id, reason: run.reason, attempt, err: message }, "fetch failed");
    return { changed, error: message };
  }
}

/** Re-publishes the run's bank; the error, if it failed. */
async function republishBank(deps: AttemptDeps, run: BankRun): Promise<string | undefined> {
  const id = run.adapter.bank.id;
  try {
    await deps.republish([id]);
    deps.log.info({ bank: id, inserted: run.tally.inserted, revised: run.tally.revised }, "re-published");
    return undefined;
  } catch (error) {
    const message = `publish failed: ${describeError(error)}`;
    deps.log.error({ bank: id, err: message }, "publish failed");
    return message;
  }
}

function storedMessage(newest: IsoDate, { inserted, revised }: RunTally): string {
  return `${newest} stored${inserted + revised ? ` (${inserted} added, ${revised} revised)` : ""}`;
}

function givingUpMessage(run: BankRun, why: string): string {
  const { bank } = run.adapter;
  const local = (d: Date) => wallClock(d, bank.timeZone).replace("T", " ").slice(0, 16);
  const tries = `${run.tally.tries} ${run.tally.tries === 1 ? "try" : "tries"}`;
  const next = local(nextRun(bank, run.clock()).at);
  return `${why}; gave up after ${tries} (polling window until ${local(run.windowEnd)} local); next run ${next} local`;
}

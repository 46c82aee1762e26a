// The catch-up at start: every scheduled bank that is behind is asked for at once, in catch-up order
// (nothing stored first, then the furthest behind, then by id); the shared fetch slots (slots.ts) bound
// how many fetch at a time. The runs' lines per bank are lowered to debug; one line sums up when every
// bank has had its first try, and one more at the end if some were still polling then.
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { newestDates } from "../store/rates.js";
import type { BankAdapter, IsoDate } from "../types.js";
import type { PhaseListener } from "./bank-runs.js";
import { planFetch } from "./catchup.js";
import { notRun, type RunOutcome } from "./run.js";

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

/** The same logger with info and warn lowered to debug: a catch-up's lines per bank, summed up at its end. */
export function quieter(log: Logger): Logger {
  const quiet = log.child({});
  quiet.info = quiet.debug.bind(quiet);
  quiet.warn = quiet.debug.bind(quiet);
  return quiet;
}

export interface CatchUpPlan {
  /** The banks behind, in catch-up order, with why. */
  behind: Array<{ id: string; newest: IsoDate | undefined; reason: string }>;
  /** The banks up to date, as outcomes. */
  upToDate: RunOutcome[];
}

/** Which scheduled banks are behind, from every bank's newest stored date (one read) and the clock. */
export async function planCatchUp(store: Store, scheduled: readonly BankAdapter[], now: Date): Promise<CatchUpPlan> {
  const stored = await newestDates(store);
  const plans = scheduled.map((a) => {
    const newest = stored.get(a.bank.id);
    return { id: a.bank.id, newest, plan: planFetch(a.bank, newest, now) };
  });
  return {
    behind: plans
      .filter((p) => p.plan.action !== "none")
      .sort(catchUpOrder)
      .map((p) => ({ id: p.id, newest: p.newest, reason: p.plan.reason })),
    upToDate: plans.filter((p) => p.plan.action === "none").map((p) => notRun(p.id, "ok", p.plan.reason)),
  };
}

export interface CatchUpDeps {
  log: Logger;
  /** Starts a bank's catch-up run. */
  run: (bankId: string) => Promise<RunOutcome>;
  /** Follows a bank's run from phase to phase (bank-runs.ts). */
  watch: (bankId: string, listener: PhaseListener) => () => void;
}

/**
 * Settles when a bank's first try is over: when its run first waits to poll again (`onWaiting` is
 * told why) or when `end` is called (the run is over), whichever comes first.
 */
function firstTryOf(deps: CatchUpDeps, bankId: string, onWaiting: (error?: string) => void) {
  let resolve!: () => void;
  const over = new Promise<void>((r) => (resolve = r));
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    unwatch();
    resolve();
  };
  const unwatch = deps.watch(bankId, (phase, error) => {
    if (phase !== "waiting" || done) return;
    onWaiting(error);
    end();
  });
  return { over, end };
}

/** Runs the catch-up of the banks behind, all asked for at once in the order given. Outcomes sorted by bank. */
export async function runCatchUp(behind: CatchUpPlan["behind"], deps: CatchUpDeps): Promise<RunOutcome[]> {
  const started = Date.now();
  const firstTries: Array<Promise<void>> = [];
  const over: RunOutcome[] = [];
  const waiting = new Map<string, { bankId: string; error?: string }>();
  const runs = behind.map(({ id, reason }) => {
    deps.log.debug({ bank: id }, `catching up: ${reason}`);
    const first = firstTryOf(deps, id, (error) => waiting.set(id, { bankId: id, error }));
    firstTries.push(first.over);
    return deps.run(id).then((outcome) => {
      over.push(outcome);
      waiting.delete(id);
      first.end();
      return outcome;
    });
  });
  if (!behind.length) return [];
  await Promise.all(firstTries);
  const stillPolling = waiting.size > 0;
  deps.log.info(catchUpSummary({ over, waiting: [...waiting.values()] }, Date.now() - started, true));
  const outcomes = await Promise.all(runs);
  // The banks that were still polling have ended too: how.
  if (stillPolling) deps.log.info(catchUpSummary({ over: outcomes, waiting: [] }, Date.now() - started, false));
  return outcomes.sort((a, b) => a.bankId.localeCompare(b.bankId));
}

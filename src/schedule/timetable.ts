// When each bank runs on its own: one node-cron job per bank at its dailyUpdateTime in its own zone on
// its publication days, and a one-shot timer where node-cron would skip a slot (a time inside a
// spring-forward gap). Each slot fires once, however many of the two see it.
import cron, { type ScheduledTask } from "node-cron";

import { closingOn } from "../calendar/calendar.js";
import { todayIn } from "../feed/dates.js";
import type { Logger } from "../log.js";
import type { BankAdapter, IsoDate } from "../types.js";
import { cronExpression, nextRun, previousRun, type RunSlot, type ScheduleSpec } from "./time.js";

/**
 * The slot a timer firing at `now` runs: today's, or none on a day the bank is closed (node-cron fires
 * on every working day; the calendar's holidays are told apart here), with the closing's name.
 */
export function dueSlot(spec: ScheduleSpec, now: Date): { slot: RunSlot } | { closed: string } {
  const slot = previousRun(spec, new Date(now.getTime() + 1000)); // the slot firing now
  if (slot.date === todayIn(spec.timeZone, now) || slot.date === todayIn(spec.timeZone, new Date(now.getTime() + 1000)))
    return { slot };
  return { closed: closingOn(spec, todayIn(spec.timeZone, now)) ?? "not a publication day" };
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

export interface TimetableOptions {
  now: () => Date;
  log: Logger;
  /** Aborted at shutdown: no slot fires after it. */
  signal: AbortSignal;
  /** A bank's slot has come: run it (`slotAt` is the slot's instant). */
  onSlot: (adapter: BankAdapter, slotAt: Date) => void;
}

export interface Timetable {
  /** Puts a bank on the timetable. */
  add(adapter: BankAdapter): void;
  /** Looks again at a bank's next slot (after each of its runs): arms the gap guard where needed. */
  rearm(adapter: BankAdapter): void;
  /** Takes every bank off. */
  stop(): Promise<void>;
}

export function createTimetable({ now, log, signal, onSlot }: TimetableOptions): Timetable {
  const tasks = new Map<string, ScheduledTask>();
  const gapTimers = new Map<string, NodeJS.Timeout>();
  /** The local date of the last slot fired for each bank: node-cron and the gap guard never both run one. */
  const lastSlot = new Map<string, IsoDate>();

  function fire(adapter: BankAdapter, source: string) {
    if (signal.aborted) return;
    const due = dueSlot(adapter.bank, now());
    if ("closed" in due) {
      log.info({ bank: adapter.bank.id, closed: due.closed }, "closed today: no scheduled run");
      return;
    }
    const { slot } = due;
    if (lastSlot.get(adapter.bank.id) === slot.date) return; // already run for this day
    lastSlot.set(adapter.bank.id, slot.date);
    log.info({ bank: adapter.bank.id, slot: slot.date, source }, "scheduled run");
    onSlot(adapter, slot.at);
  }

  /**
   * node-cron skips a day whose dailyUpdateTime falls in a spring-forward gap; the schedule here runs
   * it just after the gap. When the two disagree on the next run, a one-shot timer covers it.
   */
  function rearm(adapter: BankAdapter) {
    const id = adapter.bank.id;
    clearTimeout(gapTimers.get(id));
    gapTimers.delete(id);
    const task = tasks.get(id);
    if (!task || signal.aborted) return;
    const delay = gapGuardDelay(nextRun(adapter.bank, now()).at, task.getNextRun(), now());
    if (delay === undefined) return;
    const timer = setTimeout(() => fire(adapter, "gap-guard"), delay);
    timer.unref();
    gapTimers.set(id, timer);
  }

  function add(adapter: BankAdapter) {
    const { bank } = adapter;
    const expression = cronExpression(bank);
    const task = cron.schedule(expression, () => fire(adapter, "cron"), {
      timezone: bank.timeZone,
      name: bank.id,
      noOverlap: false,
    });
    tasks.set(bank.id, task);
    rearm(adapter);
    const next = nextRun(bank, now()).at.toISOString();
    log.debug({ bank: bank.id, cron: expression, timeZone: bank.timeZone, nextRun: next }, "scheduled");
  }

  async function stop() {
    for (const task of tasks.values()) await task.destroy();
    for (const timer of gapTimers.values()) clearTimeout(timer);
  }

  return { add, rearm, stop };
}

// The scheduler's clock arithmetic, as pure functions of `now`: when a bank's daily run falls (its
// dailyUpdateTime on its publication days (working days minus closings, src/calendar/), in its IANA zone, across daylight-saving changes), which
// effective date should be stored by now, and how long to wait before polling again.
import { CADENCE_LOOKAHEAD_DAYS, coveredBy } from "../calendar/cadence.js";
import { isPublicationDay } from "../calendar/calendar.js";
import { addDays, todayIn, zonedFormatter } from "../feed/dates.js";
import type { BankDescriptor, IsoDate } from "../types.js";

/** What the schedule of a bank depends on (its calendar: src/calendar/). */
export type ScheduleSpec = Pick<BankDescriptor, "timeZone" | "dailyUpdateTime" | "publicationDays"> &
  Partial<Pick<BankDescriptor, "countryCode" | "calendar" | "cadence">>;

export { isPublicationDay };

/** One daily run: the local publication date and the instant it falls on. */
export interface RunSlot {
  date: IsoDate;
  at: Date;
}

const DAY_MS = 86_400_000;

/** How far a run is looked for: a week of working days plus a long holiday (China's Golden Week). */
const LOOKAHEAD_DAYS = 21;
/** The same for a period source's cadence (a quarter and room). */
const lookahead = (spec: ScheduleSpec) => (spec.cadence ? CADENCE_LOOKAHEAD_DAYS : LOOKAHEAD_DAYS);

/** The wall-clock reading of an instant in a zone: `YYYY-MM-DDTHH:MM:SS`. */
export function wallClock(instant: Date, timeZone: string): string {
  const p: Record<string, string> = {};
  for (const part of zonedFormatter(timeZone, true).formatToParts(instant)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The zone's offset from UTC at an instant, in ms (Prague in winter: +3_600_000). */
export function offsetMs(instant: Date, timeZone: string): number {
  const wall = Date.parse(`${wallClock(instant, timeZone)}Z`);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `timeZone` reads `date time`. On a fall-back day a time that
 * occurs twice resolves to its first occurrence; on a spring-forward day a time inside the gap (which
 * never occurs) resolves to the same distance after the gap's start, so 02:30 becomes 03:30 in Prague
 * (as Temporal's "compatible" disambiguation does). Either way the run happens exactly once that day.
 */
export function zonedInstant(date: IsoDate, time: string, timeZone: string): Date {
  const naive = Date.parse(`${date}T${time}Z`);
  if (Number.isNaN(naive)) throw new Error(`not a date and time: ${date} ${time}`);
  const before = offsetMs(new Date(naive - DAY_MS / 2), timeZone);
  const after = offsetMs(new Date(naive + DAY_MS / 2), timeZone);
  const wanted = `${date}T${time}`;
  const valid = [...new Set([naive - before, naive - after])].filter(
    (t) => wallClock(new Date(t), timeZone) === wanted,
  );
  if (valid.length) return new Date(Math.min(...valid));
  return new Date(naive - before); // inside a spring-forward gap
}

/** The first run strictly after `now`. */
export function nextRun(spec: ScheduleSpec, now: Date): RunSlot {
  const today = todayIn(spec.timeZone, now);
  for (let i = -1; i <= lookahead(spec); i++) {
    const date = addDays(today, i);
    if (!isPublicationDay(spec, date)) continue;
    const at = zonedInstant(date, spec.dailyUpdateTime, spec.timeZone);
    if (at.getTime() > now.getTime()) return { date, at };
  }
  throw new Error("a bank without publication days has no next run");
}

/** The latest run at or before `now`: its date is the newest publication that should exist by now. */
export function previousRun(spec: ScheduleSpec, now: Date): RunSlot {
  const today = todayIn(spec.timeZone, now);
  for (let i = 1; i >= -lookahead(spec); i--) {
    const date = addDays(today, i);
    if (!isPublicationDay(spec, date)) continue;
    const at = zonedInstant(date, spec.dailyUpdateTime, spec.timeZone);
    if (at.getTime() <= now.getTime()) return { date, at };
  }
  throw new Error("a bank without publication days has no previous run");
}

/** The next `count` runs after `now`. */
export function nextRuns(spec: ScheduleSpec, now: Date, count: number): RunSlot[] {
  const runs: RunSlot[] = [];
  let from = now;
  while (runs.length < count) {
    const run = nextRun(spec, from);
    runs.push(run);
    from = run.at;
  }
  return runs;
}

/**
 * The newest effective date a bank should have published by `now`: its last run's date, or for a period
 * source the start of the period that run published (HMRC's run of the penultimate Thursday: the 1st of
 * the next month).
 */
export function expectedNewestDate(spec: ScheduleSpec, now: Date): IsoDate {
  return expectedAfter(spec, previousRun(spec, now).date);
}

/** The effective date a run on `run` should leave stored: the run's day, or the period its cadence covers. */
export function expectedAfter(spec: ScheduleSpec, run: IsoDate): IsoDate {
  return spec.cadence ? coveredBy(spec.cadence.covers, run) : run;
}

/** Publication days d with from < d <= to. */
export function publicationDaysBetween(spec: ScheduleSpec, from: IsoDate, to: IsoDate): IsoDate[] {
  const days: IsoDate[] = [];
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isPublicationDay(spec, d)) days.push(d);
  return days;
}

/** The node-cron expression (with seconds) of a bank's daily run; pass the bank's zone as `timezone`. */
export function cronExpression(spec: ScheduleSpec): string {
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(spec.dailyUpdateTime);
  if (!m) throw new Error(`dailyUpdateTime "${spec.dailyUpdateTime}" is not HH:MM:SS`);
  const days = [...new Set(spec.publicationDays)].sort((a, b) => a - b).map((d) => d % 7); // cron: Sunday is 0
  return `${Number(m[3])} ${Number(m[2])} ${Number(m[1])} * * ${days.sort((a, b) => a - b).join(",")}`;
}

export interface PollOptions {
  /** First wait after a run that found no new publication. */
  initialDelayMs: number;
  /** Longest wait between two polls. */
  maxDelayMs: number;
  /** How long after the scheduled time polling goes on before giving up until the next run. */
  windowMs: number;
}

export const DEFAULT_POLL: PollOptions = {
  initialDelayMs: 5 * 60_000,
  maxDelayMs: 30 * 60_000,
  windowMs: 4 * 3_600_000,
};

/**
 * How long to wait before poll number `attempt` (1 = the first poll after the first try), doubling
 * from initialDelayMs up to maxDelayMs; undefined when that poll would fall after the window's end.
 */
export function pollDelay(
  attempt: number,
  now: Date,
  windowEnd: Date,
  options: PollOptions = DEFAULT_POLL,
): number | undefined {
  const delay = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return now.getTime() + delay <= windowEnd.getTime() ? delay : undefined;
}

// A period source's cadence (BankDescriptor.cadence): which of its publication days it publishes on (the
// penultimate Thursday of a month, the last days of a month, the first days after a quarter ends, every
// week), and the effective date a run's figures start. Pure date arithmetic over a "working day"
// predicate (its weekdays minus its closings, from src/calendar/calendar.ts), so the scheduler, the
// status and the publisher's nextPublication all follow the same rule.
import { addDays, weekday } from "../feed/dates.js";
import type { Cadence, CadenceCovers, IsoDate, Weekday } from "../types.js";

/** How far the scheduler looks for the next or previous run of a source with a cadence (a quarter and room). */
export const CADENCE_LOOKAHEAD_DAYS = 100;

const monthStart = (date: IsoDate): IsoDate => `${date.slice(0, 8)}01`;
const nextMonthStart = (date: IsoDate): IsoDate => addDays(monthStart(date), 32).slice(0, 8) + "01";
const monthEnd = (date: IsoDate): IsoDate => addDays(nextMonthStart(date), -1);
const quarterStartMonth = (date: IsoDate) => Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1;
const quarterStart = (date: IsoDate): IsoDate =>
  `${date.slice(0, 5)}${String(quarterStartMonth(date)).padStart(2, "0")}-01`;

/** The days of `date`'s month, from its last backwards. */
function daysOfMonthFromEnd(date: IsoDate): IsoDate[] {
  const days: IsoDate[] = [];
  for (let d = monthEnd(date); d >= monthStart(date); d = addDays(d, -1)) days.push(d);
  return days;
}

/**
 * Whether `date` is one of the cadence's days. `workingDay` says whether a date is a publication day
 * of the bank (one of its weekdays and no closing); `weekdays` are its publicationDays.
 */
export function onCadence(
  cadence: Cadence,
  date: IsoDate,
  weekdays: readonly Weekday[],
  workingDay: (date: IsoDate) => boolean,
): boolean {
  const days = cadence.days;
  switch (days.kind) {
    case "weekly":
      return workingDay(date);
    case "nthLastInMonth": {
      // Counted on the weekdays alone: a holiday on that Thursday does not move the rule to another one.
      const ofWeekday = daysOfMonthFromEnd(date).filter((d) => weekdays.includes(weekday(d)));
      return ofWeekday[days.n - 1] === date && workingDay(date);
    }
    case "lastInMonth":
      return daysOfMonthFromEnd(date).filter(workingDay).slice(0, days.count).includes(date);
    case "afterQuarterEnd": {
      const first: IsoDate[] = [];
      for (let d = quarterStart(date); first.length < days.count && d <= date; d = addDays(d, 1))
        if (workingDay(d)) first.push(d);
      return first.includes(date);
    }
  }
}

/** The effective date the figures of a run on `runDate` start (what is expected stored after it). */
export function coveredBy(covers: CadenceCovers, runDate: IsoDate): IsoDate {
  switch (covers) {
    case "runDay":
      return runDate;
    case "nextMonthStart":
      return nextMonthStart(runDate);
    case "previousMonthEnd":
      return addDays(monthStart(runDate), -1);
    case "previousQuarterEnd":
      return addDays(quarterStart(runDate), -1);
    case "nextQuarterStart":
      // A quarter is 90 to 92 days: 95 days after its start is inside the next one.
      return quarterStart(addDays(quarterStart(runDate), 95));
  }
}

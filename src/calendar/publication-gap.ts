// How far a dated lookup may reach back: the set in force on a date is the bank's previous set only
// while the days between are a normal gap of that bank, never because the loaded history has a hole.
// Until the banks' publication calendars are known, a normal gap is the longest stretch between two of
// the bank's publication weekdays plus a bounded allowance for holidays (7 days for a Monday-to-Friday
// bank). This module is the one place the rule lives: exact closings replace `bridges` when calendars exist.
import { addDays, daysBetween, weekday } from "../feed/dates.js";
import type { BankDescriptor, IsoDate, Weekday } from "../types.js";

/** What the rule reads of a bank. */
export type GapSpec = Pick<BankDescriptor, "publicationDays">;

/** Days of holidays a lookup bridges beyond the bank's weekly pattern (Easter's four days, Christmas). */
export const HOLIDAY_ALLOWANCE_DAYS = 4;
/** The weekly pattern of a bank the server does not know (an adapter removed since): Monday to Friday. */
const WORKING_WEEK: readonly Weekday[] = [1, 2, 3, 4, 5];
/** The publication days a 404 lists at most. */
const LISTED = 10;

/** The longest stretch in days from one publication weekday to the next (3 for Monday to Friday). */
export function longestWeeklyGap(days: readonly Weekday[]): number {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 0) return 7;
  let longest = sorted[0]! + 7 - sorted[sorted.length - 1]!;
  for (let i = 1; i < sorted.length; i++) longest = Math.max(longest, sorted[i]! - sorted[i - 1]!);
  return longest;
}

/** The most days a lookup bridges from the previous stored set: the weekly gap plus the holiday allowance. */
export function maxBridgeDays(spec: GapSpec | undefined): number {
  return longestWeeklyGap(spec?.publicationDays ?? WORKING_WEEK) + HOLIDAY_ALLOWANCE_DAYS;
}

/** Whether the set of `before` is still the one in force on `date` (before <= date). */
export function bridges(spec: GapSpec | undefined, before: IsoDate, date: IsoDate): boolean {
  return daysBetween(before, date) <= maxBridgeDays(spec);
}

/** The publication days after `before` up to `date` with no set: how many, and the first few. */
export function missingPublicationDays(
  spec: GapSpec | undefined,
  before: IsoDate,
  date: IsoDate,
): { count: number; listed: IsoDate[] } {
  const days = spec?.publicationDays ?? WORKING_WEEK;
  const isPublicationDay = (d: IsoDate) => days.includes(weekday(d));
  const listed: IsoDate[] = [];
  for (let d = addDays(before, 1); d <= date && listed.length < LISTED; d = addDays(d, 1))
    if (isPublicationDay(d)) listed.push(d);
  // Whole weeks counted at once: a hole of years costs a few steps, not one per day.
  const weeks = Math.floor(daysBetween(before, date) / 7);
  let count = weeks * new Set(days).size;
  for (let d = addDays(before, 1 + 7 * weeks); d <= date; d = addDays(d, 1)) if (isPublicationDay(d)) count++;
  return { count, listed };
}

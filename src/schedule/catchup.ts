// What a run of one bank should fetch, given what is stored and the clock: nothing (up to date), the
// newest publication (one day behind, or nothing stored yet), or a date range (behind by several
// publication days: fetching only the newest would leave a hole). Pure, so tests use fake clocks.
import { addDays, chunkRange, todayIn } from "../feed/dates.js";
import type { BankDescriptor, FetchRange, IsoDate } from "../types.js";
import { expectedNewestDate, publicationDaysBetween, type ScheduleSpec } from "./time.js";

/** How far back a daemon run fills a gap; older holes are `exrates backfill`'s job. */
export const MAX_CATCH_UP_DAYS = 31;

export interface FetchPlan {
  action: "none" | "latest" | "range";
  /** The newest effective date that should be stored by now. */
  expected: IsoDate;
  newest: IsoDate | undefined;
  /** Publication days after `newest` up to `expected` (what is missing; holidays included). */
  missing: IsoDate[];
  /** For `range`: the fetches to make, in order, each within the bank's maxRangeDays. */
  ranges: FetchRange[];
  reason: string;
}

export function planFetch(
  bank: ScheduleSpec & Pick<BankDescriptor, "maxRangeDays" | "coverageStart">,
  newest: IsoDate | undefined,
  now: Date,
  maxCatchUpDays = MAX_CATCH_UP_DAYS,
): FetchPlan {
  const expected = expectedNewestDate(bank, now);
  if (newest === undefined) {
    return { action: "latest", expected, newest, missing: [expected], ranges: [], reason: "nothing stored yet" };
  }
  if (newest >= expected) {
    return {
      action: "none",
      expected,
      newest,
      missing: [],
      ranges: [],
      reason: `up to date (newest ${newest}, expected ${expected})`,
    };
  }
  const missing = publicationDaysBetween(bank, newest, expected);
  if (missing.length <= 1) {
    return {
      action: "latest",
      expected,
      newest,
      missing,
      ranges: [],
      reason: `${expected} not stored yet (newest ${newest})`,
    };
  }
  const today = todayIn(bank.timeZone, now);
  const earliest = addDays(expected, -maxCatchUpDays);
  let from = addDays(newest, 1);
  let reason = `behind by ${missing.length} publication days (newest ${newest}, expected ${expected})`;
  if (from < earliest) {
    from = earliest;
    reason += `; fetching from ${from} (run \`exrates backfill\` for older gaps)`;
  }
  if (from < bank.coverageStart) from = bank.coverageStart;
  // A period source's newest period may start after today (HMRC's next month, out before it begins).
  const until = expected > today ? expected : today;
  const ranges = chunkRange(from, until, bank.maxRangeDays).map((c): FetchRange => ({ kind: "range", ...c }));
  return { action: "range", expected, newest, missing, ranges, reason };
}

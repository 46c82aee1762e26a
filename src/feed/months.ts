// Calendar months for the period sources (a month's file, a month's last day, a range's months).
import { addDays, isoFromParts } from "./dates.js";
import type { IsoDate } from "../types.js";

/** The last day of a month (1-12): the day before the next month's first. */
export function lastDayOfMonth(year: number, month: number): IsoDate {
  return addDays(month === 12 ? `${year + 1}-01-01` : isoFromParts(year, month + 1, 1)!, -1);
}

/** The month after [year, month]. */
export function nextMonth(year: number, month: number): [number, number] {
  return month === 12 ? [year + 1, 1] : [year, month + 1];
}

/** Every month from `from`'s to `to`'s, as [year, month], oldest first. */
export function monthsBetween(from: IsoDate, to: IsoDate): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const endKey = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7));
  while (y * 12 + m <= endKey) {
    out.push([y, m]);
    [y, m] = nextMonth(y, m);
  }
  return out;
}

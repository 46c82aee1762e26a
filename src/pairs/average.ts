// Averages of a period: `group=week|month|quarter|year` on a daily range. Per period and series (a
// currency of a bank's table, or a bank's figure of a pair), the exact arithmetic mean of the figures
// published in the period within the range, per one unit, with the count of days, the first and last
// dates, min, max and the end-of-period figure (the last one published in it). Weeks are ISO weeks
// (Monday to Sunday, named by their ISO year). A period the range cuts is marked partial.
// The sum is exact (decimal.js on the published text); the mean keeps AVERAGE_DIGITS significant
// digits, half away from zero, and says whether that is the exact mean.
import { Decimal } from "decimal.js";

import { addDays } from "../feed/dates.js";
import { Exact } from "../feed/decimal.js";
import type { AverageGroup, IsoDate, PeriodAverageFigures } from "../types.js";
import { roundDerived, shiftPoint } from "./pair.js";

export type Group = AverageGroup;
export const GROUPS: readonly Group[] = ["week", "month", "quarter", "year"];
export const AVERAGE_DIGITS = 10;
export const AVERAGE_ROUNDING = "half away from zero";

/** The mean's quotient, truncated far beyond AVERAGE_DIGITS (then rounded once: never across a half). */
const Bounded = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN, toExpNeg: -100, toExpPos: 100 });

/** A period: its name (2026-W05, 2026-03, 2026-Q1, 2026) and its first and last days. */
export interface Period {
  name: string;
  start: IsoDate;
  end: IsoDate;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const utc = (date: IsoDate) => new Date(`${date}T00:00:00Z`);
const isoOf = (d: Date) => d.toISOString().slice(0, 10);

/** The period of `group` holding `date`. */
export function periodOf(group: Group, date: IsoDate): Period {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  switch (group) {
    case "year":
      return { name: `${year}`, start: `${year}-01-01`, end: `${year}-12-31` };
    case "quarter": {
      const q = Math.ceil(month / 3);
      const last = isoOf(new Date(Date.UTC(year, q * 3, 0)));
      return { name: `${year}-Q${q}`, start: `${year}-${pad(q * 3 - 2)}-01`, end: last };
    }
    case "month": {
      const last = isoOf(new Date(Date.UTC(year, month, 0)));
      return { name: date.slice(0, 7), start: `${date.slice(0, 7)}-01`, end: last };
    }
    case "week": {
      const weekday = (utc(date).getUTCDay() + 6) % 7; // Monday 0
      const start = addDays(date, -weekday);
      const thursday = addDays(start, 3);
      const isoYear = Number(thursday.slice(0, 4));
      const week = Math.floor((utc(thursday).getTime() - Date.UTC(isoYear, 0, 1)) / 86_400_000 / 7) + 1;
      return { name: `${isoYear}-W${pad(week)}`, start, end: addDays(start, 6) };
    }
  }
}

/** One period's average of one series (the figures as answered, api-types.ts, with the series and the rounding). */
export interface PeriodAverage extends PeriodAverageFigures {
  /** The currency (a bank's table) or bank (a pair) the figures are of. */
  key: string;
  digits: number;
  rounding: string;
}

interface Accumulator {
  period: Period;
  key: string;
  sum: Decimal;
  days: number;
  first: IsoDate;
  last: IsoDate;
  min: Decimal;
  minText: string;
  max: Decimal;
  maxText: string;
  endText: string;
}

/** Figures added day by day (oldest first), averaged per period and series. */
export class Averager {
  private readonly open = new Map<string, Accumulator>();
  private readonly done: PeriodAverage[] = [];
  private current: Period | undefined;

  constructor(
    readonly group: Group,
    readonly from: IsoDate,
    readonly to: IsoDate,
  ) {}

  /** A figure `rate` for 10^unitMultiplier units (as stored), of `key` on `date`. */
  add(date: IsoDate, key: string, rate: string, unitMultiplier = 0): void {
    if (!this.current || date > this.current.end || date < this.current.start) {
      this.flush();
      this.current = periodOf(this.group, date);
    }
    const text = shiftPoint(rate, unitMultiplier);
    const value = new Exact(text);
    const a = this.open.get(key);
    if (!a) {
      const period = this.current;
      this.open.set(key, {
        period,
        key,
        sum: value,
        days: 1,
        first: date,
        last: date,
        min: value,
        minText: text,
        max: value,
        maxText: text,
        endText: text,
      });
      return;
    }
    a.sum = a.sum.plus(value);
    a.days++;
    if (date < a.first) a.first = date;
    if (date >= a.last) {
      a.last = date;
      a.endText = text;
    }
    if (value.lt(a.min)) [a.min, a.minText] = [value, text];
    if (value.gt(a.max)) [a.max, a.maxText] = [value, text];
  }

  /** The averages of the periods passed, oldest first, series in order of their names. */
  finish(): PeriodAverage[] {
    this.flush();
    return this.done;
  }

  private flush(): void {
    const closing = [...this.open.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    for (const a of closing) this.done.push(averageOf(a, this.from, this.to));
    this.open.clear();
  }
}

function averageOf(a: Accumulator, from: IsoDate, to: IsoDate): PeriodAverage {
  const quotient = new Bounded(a.sum).div(a.days);
  const rounded = quotient.toSignificantDigits(AVERAGE_DIGITS, Decimal.ROUND_HALF_UP);
  const exact = rounded.times(a.days).eq(a.sum);
  return {
    period: a.period.name,
    start: a.period.start,
    end: a.period.end,
    partial: a.period.start < from || a.period.end > to,
    key: a.key,
    mean: exact ? rounded.toFixed() : roundDerived(rounded, AVERAGE_DIGITS),
    exact,
    digits: AVERAGE_DIGITS,
    rounding: AVERAGE_ROUNDING,
    sum: a.sum.toFixed(),
    days: a.days,
    first: a.first,
    last: a.last,
    min: a.minText,
    max: a.maxText,
    endOfPeriod: a.endText,
  };
}

/** `group=`: one of GROUPS, any case; throws a RangeError naming them otherwise. */
export function readGroup(value: string): Group {
  const group = value.trim().toLowerCase();
  if (!(GROUPS as readonly string[]).includes(group))
    throw new RangeError(`group: "${value}" is not one of ${GROUPS.join(", ")}`);
  return group as Group;
}

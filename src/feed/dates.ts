// Calendar dates as YYYY-MM-DD strings: validation, conversion from feed formats, arithmetic in UTC.
import type { IsoDate, Weekday } from "../types.js";

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True for a real calendar date written YYYY-MM-DD (proleptic Gregorian; rejects 2026-02-30). The one
 * check of a date in the project: feeds, the ingest gate, the CLI's options and the API's dates and
 * ranges all ask it. Years before 0100 are refused: a two-digit year padded to four digits (0025) is a
 * misread year, not a date anyone means.
 */
export function isIsoDate(text: string): boolean {
  if (!ISO.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  return day <= DAYS_IN_MONTH[month - 1]! || (month === 2 && day === 29 && isLeapYear(year));
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Builds an ISO date from parts, or undefined when they are not a real date. */
export function isoFromParts(year: number | string, month: number | string, day: number | string): IsoDate | undefined {
  const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return isIsoDate(text) ? text : undefined;
}

/** `DD.MM.YYYY`, `DD/MM/YYYY` or `DD-MM-YYYY` to ISO. */
export function fromDayMonthYear(text: string): IsoDate | undefined {
  const m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text.trim());
  return m ? isoFromParts(m[3]!, m[2]!, m[1]!) : undefined;
}

function toUtc(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The date of a day number (civil_from_days), as YYYY-MM-DD; undefined outside the years 0000-9999. */
function fromDayNumber(n: number): IsoDate | undefined {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return undefined;
  return `${String(year).padStart(4, "0")}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  // Arithmetic on day numbers: the cross-bank check steps back through days for every figure it judges,
  // and parsing and printing a Date each time was a fifth of a large import's time. Anything else (not
  // a real date, a fraction of a day, a year beyond four digits) goes through Date as before.
  if (Number.isInteger(days) && isIsoDate(date)) {
    const moved = fromDayNumber(
      dayNumber(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))) + days,
    );
    if (moved !== undefined) return moved;
  }
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: IsoDate, b: IsoDate): number {
  return Math.round((toUtc(b).getTime() - toUtc(a).getTime()) / 86_400_000);
}

export function weekday(date: IsoDate): Weekday {
  const day = toUtc(date).getUTCDay();
  return (day === 0 ? 7 : day) as Weekday;
}

/** Formatters by zone and form: making one costs far more than formatting with it (the daemon asks often). */
const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The `en-CA` formatter of a zone (`YYYY-MM-DD`), with the 24-hour time of day when `withTime`; made once
 * per zone and form. The one place the project keeps such formatters (src/schedule/time.ts reads clocks
 * with it).
 */
export function zonedFormatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${withTime ? "T" : "D"}${timeZone}`;
  let format = zonedFormatters.get(key);
  if (!format) {
    const time = withTime ? ({ hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit" } as const) : {};
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", ...time });
    zonedFormatters.set(key, format);
  }
  return format;
}

/** Today's date in an IANA zone. */
export function todayIn(timeZone: string, now: Date = new Date()): IsoDate {
  return zonedFormatter(timeZone, false).format(now);
}

/** Splits an inclusive range into chunks of at most `maxDays` days. */
export function chunkRange(from: IsoDate, to: IsoDate, maxDays: number): Array<{ from: IsoDate; to: IsoDate }> {
  const chunks: Array<{ from: IsoDate; to: IsoDate }> = [];
  for (let start = from; start <= to; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    chunks.push({ from: start, to: end < to ? end : to });
  }
  return chunks;
}

/** The dates of an inclusive range that fall on the given ISO weekdays (Monday to Friday by default). */
export function weekdaysBetween(from: IsoDate, to: IsoDate, days: readonly Weekday[] = [1, 2, 3, 4, 5]): IsoDate[] {
  const out: IsoDate[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (days.includes(weekday(d))) out.push(d);
  return out;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * The milliseconds since the epoch of an RFC 3339 instant (`2026-03-03T15:00:00Z`, an offset or a
 * fraction allowed), or undefined when the text is not one. Strict: the date must be a real calendar
 * date and each field in its range (2026-02-30, hour 24 or an offset of +25:00 are refused), where
 * Date.parse alone would roll 2026-02-30 over to 2026-03-02. A leap second (:60) is refused too.
 */
export function rfc3339Millis(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m || !isIsoDate(m[1]!)) return undefined;
  const [hour, minute, second] = [m[2], m[3], m[4]].map(Number) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (m[6] !== undefined && (Number(m[6]) > 23 || Number(m[7]) > 59)) return undefined;
  const ms = Date.parse(text.replace(/[ t]/, "T").replace(/z$/, "Z"));
  return Number.isFinite(ms) ? ms : undefined;
}

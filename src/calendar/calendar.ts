// A bank's publication calendar: the days it publishes are its working days (`publicationDays`) minus
// its closings, which are the public holidays of its country (date-holidays) and any closing days of
// its own declared in its adapter (`calendar.closings`: TARGET2's for the ECB). The scheduler, the
// status and the API all ask this module, so they agree on what a holiday is.
import { createRequire } from "node:module";

import { addDays, weekday } from "../feed/dates.js";
import type { BankDescriptor, ClosingRule, IsoDate } from "../types.js";
import { CADENCE_LOOKAHEAD_DAYS, coveredBy, onCadence } from "./cadence.js";
import { ownRulesKey, tabledClosings, tabledOwnClosings } from "./closings-table.js";
import type Holidays from "./date-holidays.js";

/** What a bank's calendar depends on (a test may leave out the country and the rules: working days only). */
export type CalendarSpec = Pick<BankDescriptor, "publicationDays"> &
  Partial<Pick<BankDescriptor, "countryCode" | "timeZone" | "calendar" | "cadence">>;

/** A working day on which the bank does not publish, and why. */
export interface Closing {
  date: IsoDate;
  name: string;
}

/** The default allowance after the publication time before a missing publication is late. */
export const DEFAULT_LATE_AFTER_MINUTES = 60;

/** Holiday types that close a bank for the day (not "optional", "school" or "observance"). */
const CLOSING_TYPES = ["public", "bank"] as const;

/** The zones of a country, from ICU (`new Intl.Locale("und-CH").timeZones`), asked once per country. */
function zonesOf(country: string): readonly string[] {
  let zones = zonesByCountry.get(country);
  if (!zones) zonesByCountry.set(country, (zones = icuZonesOf(country)));
  return zones;
}

/** The euro area's banks name the same twenty countries: ICU is asked once for each. */
const zonesByCountry = new Map<string, readonly string[]>();

function icuZonesOf(country: string): readonly string[] {
  const locale = new Intl.Locale(`und-${country}`) as Intl.Locale & {
    timeZones?: string[];
    getTimeZones?: () => string[];
  };
  return locale.getTimeZones?.() ?? locale.timeZones ?? [];
}

/**
 * The date-holidays country of a bank: the one it declares, else the country of its `countryCode`
 * whose zones include its `timeZone` (Banca d'Italia's EUR area gives IT, BCEAO's franc zone SN), else
 * its only country. Undefined: working days only.
 */
export function holidayCountry(spec: CalendarSpec): string | undefined {
  if (countries.has(spec)) return countries.get(spec);
  const country = findHolidayCountry(spec);
  countries.set(spec, country);
  return country;
}

/** Each descriptor's country, found once (ICU's zone lists are not free). */
const countries = new WeakMap<CalendarSpec, string | undefined>();

function findHolidayCountry(spec: CalendarSpec): string | undefined {
  const declared = spec.calendar?.holidays;
  if (declared === false) return undefined;
  if (declared) return declared;
  const codes = spec.countryCode ?? [];
  if (spec.timeZone) {
    const home = codes.find((c) => zonesOf(c).includes(spec.timeZone!));
    if (home) return home;
  }
  return codes.length === 1 ? codes[0] : undefined;
}

/** One year's closings of one set of rules, by date (built once per bank, rule set and year). */
const closingsCache = new Map<string, ReadonlyMap<IsoDate, string>>();

/** A country's closings of a year: from the build's table (src/calendar/closings-table.ts), else live. */
function holidaysOf(country: string | undefined, year: number): Map<IsoDate, string> {
  if (!country) return new Map();
  return tabledClosings(country, year) ?? liveHolidaysOf(country, year);
}

/** A country's closings of a year as date-holidays works them out (the build's table holds these). */
export function liveHolidaysOf(country: string, year: number): Map<IsoDate, string> {
  const days = new Map<IsoDate, string>();
  for (const h of countryLibrary(country).getHolidays(year) || []) {
    // A half day (Christmas Eve from 14:00) is still a publication day.
    if (!h.date.endsWith("00:00:00") || !CLOSING_TYPES.includes(h.type as never)) continue;
    const date = h.date.slice(0, 10);
    if (!days.has(date)) days.set(date, h.name);
  }
  return days;
}

/**
 * date-holidays' class, loaded at the first closing the build's table does not hold: most processes find
 * every closing they ask in the table and never load it (2 MB of code, about 0.2 s of CPU and 16 MiB
 * resident). The calendar answers synchronously, so it is required, not imported: built, the bundle beside
 * this module (an ES module, which Node's require loads since 20.19); from source, or on an older Node, the
 * package's CommonJS build. The same package either way.
 */
function holidaysClass(): typeof Holidays {
  if (!loadedClass) {
    const require = createRequire(import.meta.url);
    try {
      loadedClass = (require("./date-holidays.js") as { default: typeof Holidays }).default;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "MODULE_NOT_FOUND" && code !== "ERR_REQUIRE_ESM") throw error;
      loadedClass = require("date-holidays") as typeof Holidays;
    }
  }
  return loadedClass;
}

let loadedClass: typeof Holidays | undefined;

/** date-holidays set up for a country once: setting up reads and merges the country's rules. */
function countryLibrary(country: string): Holidays {
  let library = libraries.get(country);
  if (!library) {
    const [code, state] = country.split("-");
    const Library = holidaysClass();
    library = new Library(code!, state ?? "", { languages: ["en"], types: [...CLOSING_TYPES] });
    libraries.set(country, library);
  }
  return library;
}

const libraries = new Map<string, Holidays>();

/** A bank's own closings of a year (its `calendar.closings` rules): from the build's table, else live. */
function ownClosingsOf(spec: CalendarSpec, year: number): Map<IsoDate, string> {
  const rules = spec.calendar?.closings ?? [];
  if (rules.length === 0) return new Map();
  return tabledOwnClosings(rules, year) ?? liveOwnClosingsOf(rules, year);
}

/** The closings a bank's own rules give for a year, as date-holidays works them out (the build's table holds these). */
export function liveOwnClosingsOf(rules: readonly ClosingRule[], year: number): Map<IsoDate, string> {
  const days = new Map<IsoDate, string>();
  const Library = holidaysClass();
  const library = new Library();
  for (const { rule, name } of rules) library.setHoliday(rule, { name, type: "public" });
  for (const h of library.getHolidays(year) || []) days.set(h.date.slice(0, 10), h.name);
  return days;
}

/** Every closing of a year, weekends included (the days the bank would not work anyway). */
function closingsOfYear(spec: CalendarSpec, year: number): ReadonlyMap<IsoDate, string> {
  const country = holidayCountry(spec);
  const key = `${country ?? ""}|${ownRulesKey(spec.calendar?.closings ?? [])}|${year}`;
  let days = closingsCache.get(key);
  if (!days) {
    // The bank's own closings name the day first (TARGET2's "Labour Day" over a national name).
    const merged = ownClosingsOf(spec, year);
    for (const [date, name] of holidaysOf(country, year)) if (!merged.has(date)) merged.set(date, name);
    days = merged;
    closingsCache.set(key, days);
  }
  return days;
}

/** The name of the closing that keeps the bank from publishing on a working day, or undefined. */
export function closingOn(spec: CalendarSpec, date: IsoDate): string | undefined {
  if (!spec.publicationDays.includes(weekday(date))) return undefined;
  return closingsOfYear(spec, Number(date.slice(0, 4))).get(date);
}

/** Whether `date` is one of the bank's working days (its weekdays) and no closing. */
function isWorkingDay(spec: CalendarSpec, date: IsoDate): boolean {
  return (
    spec.publicationDays.includes(weekday(date)) &&
    closingsOfYear(spec, Number(date.slice(0, 4))).get(date) === undefined
  );
}

/**
 * Whether the bank publishes on `date`: one of its working days and no closing, and, for a period
 * source with a cadence, one of the cadence's days (src/calendar/cadence.ts).
 */
export function isPublicationDay(spec: CalendarSpec, date: IsoDate): boolean {
  if (!spec.cadence) return isWorkingDay(spec, date);
  return onCadence(spec.cadence, date, spec.publicationDays, (d) => isWorkingDay(spec, d));
}

/** The last publication day on or before `date` (within a month; undefined past that). */
export function lastPublicationDay(spec: CalendarSpec, date: IsoDate): IsoDate | undefined {
  for (let i = 0; i <= 31; i++) {
    const d = addDays(date, -i);
    if (isPublicationDay(spec, d)) return d;
  }
  return undefined;
}

/** A year of a bank's calendar: the days it publishes and the working days it is closed. */
export interface CalendarYear {
  year: number;
  /** The date-holidays country whose holidays apply, if any. */
  country: string | null;
  /**
   * The days it publishes: its working days, or for a period source those its cadence names (the
   * scheduler's own rule, src/calendar/cadence.ts).
   */
  publicationDays: IsoDate[];
  /** The closings that keep it from publishing: on a working day, or on a day its cadence would name. */
  closings: Closing[];
}

/**
 * Whether the cadence would name `date` if the bank had no closings (every day its cadence would
 * publish, so a closing there is one that matters); true for a bank without a cadence.
 */
function cadenceWouldName(spec: CalendarSpec, date: IsoDate): boolean {
  if (!spec.cadence) return true;
  return onCadence(spec.cadence, date, spec.publicationDays, (d) => spec.publicationDays.includes(weekday(d)));
}

export function calendarYear(spec: CalendarSpec, year: number): CalendarYear {
  const publicationDays: IsoDate[] = [];
  const closings: Closing[] = [];
  const last = `${year}-12-31`;
  for (let d = `${year}-01-01`; d <= last; d = addDays(d, 1)) {
    if (isPublicationDay(spec, d)) {
      publicationDays.push(d);
      continue;
    }
    const name = closingOn(spec, d);
    if (name !== undefined && cadenceWouldName(spec, d)) closings.push({ date: d, name });
  }
  return { year, country: holidayCountry(spec) ?? null, publicationDays, closings };
}

/** What the service saw that the calendar did not foresee. */
export interface ObservedExceptions {
  /** Dates stored although the calendar called them closed (a publication on a holiday). */
  publishedOnClosing: Closing[];
  /** Publication days with nothing stored, between the first stored date and `upTo`. */
  notPublished: IsoDate[];
}

/**
 * The exceptions of one year, from the stored effective dates (sorted ascending) up to `upTo` (the
 * newest date that should be stored by now): kept with the rates themselves, so nothing else records them.
 */
export function observedExceptions(
  spec: CalendarSpec,
  storedDates: readonly IsoDate[],
  year: number,
  upTo: IsoDate,
): ObservedExceptions {
  if (spec.cadence) return observedPeriods(spec, storedDates, year, upTo);
  const stored = new Set(storedDates);
  const publishedOnClosing: Closing[] = [];
  for (const date of storedDates) {
    if (!date.startsWith(`${year}-`)) continue;
    const name = closingOn(spec, date);
    if (name !== undefined) publishedOnClosing.push({ date, name });
  }
  const first = storedDates[0];
  const notPublished: IsoDate[] = [];
  if (first !== undefined) {
    const from = first > `${year}-01-01` ? first : `${year}-01-01`;
    const to = upTo < `${year}-12-31` ? upTo : `${year}-12-31`;
    for (let d = from; d <= to; d = addDays(d, 1))
      if (isPublicationDay(spec, d) && !stored.has(d)) notPublished.push(d);
  }
  return { publishedOnClosing, notPublished };
}

/**
 * The same for a period source: its stored dates are the periods' first days (a month's start, a
 * quarter's end), not the days it published them, so a publication day is "not published" when the
 * period its cadence covers is not stored, and no stored period is a publication on a closing.
 */
function observedPeriods(
  spec: CalendarSpec & Pick<BankDescriptor, "cadence">,
  storedDates: readonly IsoDate[],
  year: number,
  upTo: IsoDate,
): ObservedExceptions {
  const stored = new Set(storedDates);
  const first = storedDates[0];
  const notPublished: IsoDate[] = [];
  if (first !== undefined) {
    // Each publication day of the year whose period should be stored by `upTo` (a quarter's end is
    // published after it, a month's start before it: the period decides, not the day).
    for (let d = `${year}-01-01`; d <= `${year}-12-31`; d = addDays(d, 1)) {
      if (!isPublicationDay(spec, d)) continue;
      const period = coveredBy(spec.cadence!.covers, d);
      if (period >= first && period <= upTo && !stored.has(period)) notPublished.push(d);
    }
  }
  return { publishedOnClosing: [], notPublished };
}

/** How long after the publication time a missing publication is late, in ms. */
export function lateAfterMs(spec: CalendarSpec): number {
  return (spec.calendar?.lateAfterMinutes ?? DEFAULT_LATE_AFTER_MINUTES) * 60_000;
}

/** The first publication day after `date` (within a month; undefined past that, or for a bank that never publishes). */
export function nextPublicationDay(spec: CalendarSpec, date: IsoDate): IsoDate | undefined {
  for (let i = 1; i <= (spec.cadence ? CADENCE_LOOKAHEAD_DAYS : 31); i++) {
    const d = addDays(date, i);
    if (isPublicationDay(spec, d)) return d;
  }
  return undefined;
}

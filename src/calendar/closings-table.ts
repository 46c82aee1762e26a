// The closings date-holidays gives for each bank's country, worked out once by the build for the years
// around it (scripts/build-tables.mjs) instead of by every process that starts. date-holidays works a
// year out from its rules, lunar and solar calendars included: about half a second for the banks'
// hundred countries, a second and more in a process that has just started, paid again by every command
// and server that asks for a bank's calendar (the scheduler, the status, `exrates banks`, a publish).
//
// The table is the same function's answers (calendar.ts's liveHolidaysOf, run by the build over the
// built code), so a year it holds and a year worked out live agree; a year or country it lacks is worked
// out live. It lives beside the built module (dist/src/calendar/closings-table.json): run from source,
// there is none, and every year is worked out live.
import { readFileSync } from "node:fs";

import type { ClosingRule, IsoDate } from "../types.js";

/** The table's file name, beside this module. */
export const CLOSINGS_TABLE_FILE = "closings-table.json";

/** What the build writes: each country's closings by year, each a date and its name. */
export interface ClosingsTable {
  /** The years it holds (the build's year, the one before and the one after). */
  years: number[];
  /** By date-holidays country ("CZ", "US-NY"), by year: date → name, in date-holidays' order. */
  countries: Record<string, Record<string, Record<IsoDate, string>>>;
  /** A bank's own closing rules (the ECB's TARGET2 days), by `ownRulesKey`, by year: date → name. */
  rules: Record<string, Record<string, Record<IsoDate, string>>>;
}

/** The table's key of a bank's own closing rules: the rules themselves, as JSON. */
export function ownRulesKey(rules: readonly ClosingRule[]): string {
  return JSON.stringify(rules);
}

let table: ClosingsTable | null | undefined;

/**
 * The table, read once; null when there is none (run from source) or it cannot be read, in which case
 * every year is worked out live (the same answers, only slower).
 */
function closingsTable(): ClosingsTable | null {
  if (table !== undefined) return table;
  try {
    table = JSON.parse(readFileSync(new URL(`./${CLOSINGS_TABLE_FILE}`, import.meta.url), "utf8")) as ClosingsTable;
  } catch {
    table = null;
  }
  return table;
}

/** A country's closings of a year from the table, or undefined when the table does not hold them. */
export function tabledClosings(country: string, year: number): Map<IsoDate, string> | undefined {
  const days = closingsTable()?.countries[country]?.[String(year)];
  return days === undefined ? undefined : new Map(Object.entries(days));
}

/** The closings a bank's own rules give for a year, from the table, or undefined when it does not hold them. */
export function tabledOwnClosings(rules: readonly ClosingRule[], year: number): Map<IsoDate, string> | undefined {
  const days = closingsTable()?.rules?.[ownRulesKey(rules)]?.[String(year)];
  return days === undefined ? undefined : new Map(Object.entries(days));
}

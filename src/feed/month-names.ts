// Dates written with English month names, as several banks' pages and files do:
// `19 Mar 2026`, `5 Mar 2026`, `01-Mar-2026`, `02 March 2026`.
import type { IsoDate } from "../types.js";
import { isoFromParts } from "./dates.js";

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** The month number of an English month name or abbreviation (`Mar`, `March`, `Sept.`); undefined otherwise. */
export function monthNumber(name: string): number | undefined {
  const key = name.trim().toLowerCase().replace(/\.$/, "");
  if (key in MONTHS) return MONTHS[key];
  const full = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ];
  const i = full.indexOf(key);
  return i >= 0 ? i + 1 : undefined;
}

/** `19 Mar 2026`, `5-Mar-2026` or `02 March 2026` to ISO; undefined when it is not such a real date. */
export function fromDayMonthName(text: string): IsoDate | undefined {
  const m = /^(\d{1,2})[\s-]+([A-Za-z]+\.?)[\s-]+(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const month = monthNumber(m[2]!);
  return month ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

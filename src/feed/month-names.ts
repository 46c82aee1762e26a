// Dates written with month names, in the languages the banks use: `19 Mar 2026`, `01-Mar-2026`,
// `02 March 2026`, `2 mars 2026`, `Février 2026`. The names come from ICU (Intl.DateTimeFormat) for any
// locale, long and short, standalone and in-date forms (Russian `февраль` and `февраля`), not from
// tables written by hand.
import type { IsoDate } from "../types.js";
import { isoFromParts } from "./dates.js";
import { foldName } from "./fold.js";

const byLocale = new Map<string, Map<string, number>>();

/** Folded month name -> month number, for one locale (built once). */
function monthsOf(locale: string): Map<string, number> {
  let months = byLocale.get(locale);
  if (months) return months;
  months = new Map();
  const formats = [
    new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" }),
    new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" }),
    new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" }),
    new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }),
  ];
  for (let month = 1; month <= 12; month++) {
    const date = new Date(Date.UTC(2001, month - 1, 15));
    for (const format of formats) {
      const name = format.formatToParts(date).find((part) => part.type === "month")?.value;
      if (name === undefined) continue;
      const key = foldName(name);
      if (!months.has(key)) months.set(key, month);
      // Three- and four-letter abbreviations ("sep" and "sept", "dec" beside "déc") are common in files.
      for (const length of [3, 4]) {
        if (key.length > length && /^\p{L}+$/u.test(key) && !months.has(key.slice(0, length))) {
          months.set(key.slice(0, length), month);
        }
      }
    }
  }
  byLocale.set(locale, months);
  return months;
}

/**
 * The month number of a month name or abbreviation in the given locales (English by default):
 * `Mar`, `March`, `Sept.`, with `["fr"]` `février` or `Fevrier`; undefined otherwise.
 */
export function monthNumber(name: string, locales: readonly string[] = ["en"]): number | undefined {
  const key = foldName(name);
  for (const locale of locales) {
    const month = monthsOf(locale).get(key);
    if (month !== undefined) return month;
  }
  return undefined;
}

/**
 * `19 Mar 2026`, `5-Mar-2026`, `02 March 2026` (with `["fr"]`, `2 mars 2026`) to ISO; undefined when it
 * is not such a real date.
 */
export function fromDayMonthName(text: string, locales: readonly string[] = ["en"]): IsoDate | undefined {
  const m = /^(\d{1,2})(?:er)?[\s-]+(\p{L}+\.?)[\s-]+(\d{4})$/u.exec(text.trim());
  if (!m) return undefined;
  const month = monthNumber(m[2]!, locales);
  return month ? isoFromParts(m[3]!, month, m[1]!) : undefined;
}

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

// ---- Month banners: the headings of month blocks in whole-history workbooks ----

/** Footnote marks and decorations around a banner: asterisks, daggers, superscripts, `(1)`, `[a]`. */
const DECORATION = /[*†‡§¶#¹²³⁰-⁹]+|\(\s*[\p{L}\d]{1,2}\s*\)|\[\s*[\p{L}\d]{1,2}\s*\]/gu;

/** Full month names (wide, format and stand-alone) of one locale, folded: name -> month. */
const wideByLocale = new Map<string, Map<string, number>>();

function wideNamesOf(locale: string): Map<string, number> {
  let names = wideByLocale.get(locale);
  if (names) return names;
  names = new Map();
  const formats = [
    new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" }),
    new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" }),
  ];
  for (let month = 1; month <= 12; month++) {
    const date = new Date(Date.UTC(2001, month - 1, 15));
    for (const format of formats) {
      const name = format.formatToParts(date).find((part) => part.type === "month")?.value;
      if (name !== undefined && /^\p{L}+$/u.test(foldName(name))) names.set(foldName(name), month);
    }
  }
  wideByLocale.set(locale, names);
  return names;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The English name of a month (1-12), to name candidates in reasons. */
const englishName = (month: number) =>
  new Intl.DateTimeFormat("en", { month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2001, month - 1, 15)));

/** How a month word was read: exactly, as a misspelling of one month, or not (candidates when several). */
type NameReading = { month: number; how: "name" | "misspelling" } | { candidates: number[] } | undefined;

/**
 * A month word in the locales: a name or abbreviation (any case, diacritics folded, final period
 * dropped), else a misspelling within a small edit distance (1 up to five letters, 2 beyond) of
 * exactly one month; several months within reach make it ambiguous. A lone word is compared with full
 * names only, from four letters (`Avg` is no August); a word written with a year (a banner's shape)
 * also with the abbreviations, from three letters (`Mai 2026` could be March or May).
 */
function readMonthWord(word: string, locales: readonly string[], withYear: boolean): NameReading {
  const exact = monthNumber(word.replace(/\.$/, ""), locales);
  if (exact !== undefined) return { month: exact, how: "name" };
  const key = foldName(word);
  if (key.length < (withYear ? 3 : 4) || !/^\p{L}+$/u.test(key)) return undefined;
  const reach = key.length <= 5 ? 1 : 2;
  const near = new Set<number>();
  for (const locale of locales)
    for (const [name, month] of withYear ? monthsOf(locale) : wideNamesOf(locale))
      if (editDistance(key, name) <= reach) near.add(month);
  if (near.size === 0) return undefined;
  if (near.size === 1) return { month: [...near][0]!, how: "misspelling" };
  return { candidates: [...near].sort((a, b) => a - b) };
}

/** What a banner says: a month (with its year when written), or an ambiguous name with its candidates. */
export type MonthBanner =
  | { kind: "month"; month: number; year?: number; how: "name" | "misspelling" | "date" | "year" }
  | { kind: "ambiguous"; candidates: string[] }
  /** A word written with a year, in a banner's shape, that is no month in the locales. */
  | { kind: "unreadable" };

/** Excel serials of 1950-01-01 to 2099-12-31: a number cell in a banner's place that is a date. */
const SERIALS = [18264, 73050] as const;

const yearOf = (text: string | undefined) =>
  text === undefined ? undefined : text.length === 4 ? Number(text) : Number(text) + (Number(text) < 70 ? 2000 : 1900);

function bannerOfDate(iso: string | undefined): MonthBanner | undefined {
  if (iso === undefined) return undefined;
  return { kind: "month", year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), how: "date" };
}

function serialDate(serial: number): string | undefined {
  if (!Number.isInteger(serial) || serial < SERIALS[0] || serial > SERIALS[1]) return undefined;
  return new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000).toISOString().slice(0, 10);
}

/** A banner written as text: `Sept. 2024`, `*Febuary 2026¹`, `2024 Mar`, `Jan-24`, `2026`, a date or serial. */
function bannerOfText(raw: string, locales: readonly string[]): MonthBanner | undefined {
  const text = raw.replace(DECORATION, " ").replace(/\s+/g, " ").trim();
  if (/^\d{4}$/.test(text)) {
    const year = Number(text);
    return year >= 1900 && year <= 2100 ? { kind: "month", year, month: 1, how: "year" } : undefined;
  }
  if (/^\d{5}(\.0+)?$/.test(text)) return bannerOfDate(serialDate(Number(text)));
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+Z?)?$/.exec(text);
  if (iso) return bannerOfDate(isoFromParts(iso[1]!, iso[2]!, iso[3]!));
  const m = /^(\p{L}+\.?)(?:[\s,./'-]*(\d{4}|\d{2}))?$/u.exec(text) ?? /^(\d{4})[\s,./-]*(\p{L}+\.?)$/u.exec(text);
  if (!m) return undefined;
  const [word, yearText] = /^\d/.test(m[1]!) ? [m[2]!, m[1]] : [m[1]!, m[2]];
  const reading = readMonthWord(word, locales, yearText !== undefined);
  if (reading === undefined)
    return yearText !== undefined && yearText.length === 4 ? { kind: "unreadable" } : undefined;
  if ("candidates" in reading) return { kind: "ambiguous", candidates: reading.candidates.map(englishName) };
  const year = yearOf(yearText);
  return { kind: "month", month: reading.month, how: reading.how, ...(year !== undefined && { year }) };
}

/**
 * What a cell in a banner's place says about its block's month, or undefined when it is no banner:
 * a month name or abbreviation in the locales (wide or abbreviated, format or stand-alone, any case,
 * diacritics folded, with or without a final period), a misspelling of exactly one month, a date cell
 * or spreadsheet serial, or a bare year (a block starting in January). Decorations are stripped.
 */
export function readMonthBanner(
  value: string | number | Date | null | undefined,
  locales: readonly string[] = ["en"],
): MonthBanner | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) {
    const d = new Date(Math.round(value.getTime() / 86_400_000) * 86_400_000);
    return { kind: "month", year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, how: "date" };
  }
  if (typeof value === "number")
    return Number.isInteger(value) && value >= 1900 && value <= 2100
      ? { kind: "month", year: value, month: 1, how: "year" }
      : bannerOfDate(serialDate(value));
  return bannerOfText(value, locales);
}

// A period source's figures (HMRC's month, the US Treasury's quarter): which are in force on a date,
// and the sets a range holds. Each stored figure is valid from its effective date to its `valid_to`; a
// later figure of the same currency starting inside that period (an amendment) ends it the day before.
// The reads are one statement on either engine; what is in force is decided here, purely, the same for
// both (a period source has a few hundred figures a period, so its rows are read whole, never streamed).
import { addDays } from "../feed/dates.js";
import type { IsoDate } from "../types.js";
import type { HistoryRow, PeriodFigure, RowsVersion } from "./history.js";

export type { PeriodFigure };

/** One set of figures in force: `date` is the newest validFrom among them; rows sorted by currency. */
export interface PeriodSet {
  date: IsoDate;
  rows: HistoryRow[];
}

/**
 * The figures in force on `date`, one per currency: the newest starting on or before it that is still
 * valid on it. Each row's validTo is its period's end, or the day before the next figure of its
 * currency starts (an amendment). `figures` sorted by effective date. Undefined when nothing is in force.
 */
export function inForceOn(figures: readonly PeriodFigure[], date: IsoDate): PeriodSet | undefined {
  const current = new Map<string, PeriodFigure>();
  for (const f of figures) {
    if (f.effectiveDate > date) break;
    if (f.validTo >= date) current.set(f.currency, f);
  }
  if (current.size === 0) return undefined;
  let newest = "";
  const rows: HistoryRow[] = [];
  for (const f of current.values()) {
    if (f.effectiveDate > newest) newest = f.effectiveDate;
    rows.push({
      effectiveDate: f.effectiveDate,
      currency: f.currency,
      rate: f.rate,
      unitMultiplier: f.unitMultiplier,
      validFrom: f.effectiveDate,
      validTo: endOf(figures, f),
    });
  }
  rows.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  for (const r of rows) r.effectiveDate = newest;
  return { date: newest, rows };
}

/** A figure's last day: its period's end, or the day before a later figure of its currency starts inside it. */
function endOf(figures: readonly PeriodFigure[], figure: PeriodFigure): IsoDate {
  for (const f of figures) {
    if (f.effectiveDate > figure.validTo) break;
    if (f.currency === figure.currency && f.effectiveDate > figure.effectiveDate) return addDays(f.effectiveDate, -1);
  }
  return figure.validTo;
}

/**
 * The sets in force over [from, to]: the one in force on `from` (named by its own start), then one for
 * each later day a figure starts, oldest first.
 */
export function setsInRange(figures: readonly PeriodFigure[], from: IsoDate, to: IsoDate): PeriodSet[] {
  const days = new Set<IsoDate>();
  const first = inForceOn(figures, from);
  const sets: PeriodSet[] = first ? [first] : [];
  if (first) days.add(first.date);
  for (const f of figures) {
    if (f.effectiveDate > to) break;
    if (f.effectiveDate <= from || days.has(f.effectiveDate)) continue;
    days.add(f.effectiveDate);
    const set = inForceOn(figures, f.effectiveDate);
    if (set) sets.push(set);
  }
  return sets;
}

/** What the figures behind an answer are, for its ETag and Last-Modified. */
export function versionOfFigures(figures: readonly PeriodFigure[]): RowsVersion {
  let maxStoredAt = "";
  let maxFetchId = 0;
  for (const f of figures) {
    if (f.storedAt > maxStoredAt) maxStoredAt = f.storedAt;
    if (f.fetchId > maxFetchId) maxFetchId = f.fetchId;
  }
  return { rows: figures.length, maxStoredAt, maxFetchId };
}

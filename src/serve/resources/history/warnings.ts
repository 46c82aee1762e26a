// Figures published with a warning (src/store/history.ts's RateWarning) put onto the rows of a history
// document: the rows of one date at once, or a range's days as they are read. The count goes into the
// document's header (CSV and XLSX then have the Warnings column) and X-Rate-Warnings.
import type { HistoryDay } from "../../../publish/render-history.js";
import { warningKey, warningsByFigure, type HistoryRow, type RateWarning } from "../../../store/history.js";

/** Warnings by figure, kept to the asked currencies, and how many figures they are. */
export function warningsOf(
  warnings: readonly RateWarning[],
  currencies: readonly string[] | undefined,
): { byFigure: Map<string, string>; count: number } {
  const keep = currencies ? new Set(currencies) : undefined;
  const byFigure = warningsByFigure(keep ? warnings.filter((w) => keep.has(w.currency)) : warnings);
  return { byFigure, count: byFigure.size };
}

/** The rows with their warnings (a warned row copied, the others as they are). */
export function warnRows(date: string, rows: HistoryRow[], byFigure: Map<string, string>): HistoryRow[] {
  if (!byFigure.size) return rows;
  return rows.map((r) => {
    const warning = byFigure.get(warningKey(date, r.currency));
    return warning === undefined ? r : { ...r, warning };
  });
}

/** A range's days with their warnings, read as they come (plain or async). */
export function warnDays(
  days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  byFigure: Map<string, string>,
): Iterable<HistoryDay> | AsyncIterable<HistoryDay> {
  if (!byFigure.size) return days;
  const warned = (day: HistoryDay): HistoryDay => ({ date: day.date, rows: warnRows(day.date, day.rows, byFigure) });
  if (Symbol.asyncIterator in days)
    return (async function* () {
      for await (const day of days) yield warned(day);
    })();
  return (function* () {
    for (const day of days) yield warned(day);
  })();
}

// A figure read back from the store or a published document that is beyond the figure bounds
// (src/feed/figure-bounds.ts) is refused where it is read, before any arithmetic: a database written
// before the bounds existed may hold a 10-million-digit rate, and one division on it would hold the
// event loop for seconds. The check reads the text only, so it costs the same whatever the figure is.
// Each refused figure is logged once (bank, date, currency and why; never the figure itself).
import { figureBoundsProblem } from "../feed/figure-bounds.js";
import { logger, type Logger } from "../log.js";

/** Refused figures already logged (bounded: a flood of them is logged up to this many). */
const MAX_REMEMBERED = 1000;
const logged = new Set<string>();

/** Where refusals are logged (tests set their own). */
let sink: () => Logger = logger;
export function setFigureGuardLogger(log: Logger | undefined): void {
  sink = log ? () => log : logger;
  logged.clear();
}

/** The figure's text, its bank, and where it was read, for the log line. */
export interface GuardedFigure {
  currency: string;
  rate: string;
  /** The power of ten of the units the rate is for; beyond MAX_UNIT_MULTIPLIER it is refused too. */
  unitMultiplier?: number | null;
  effectiveDate?: string;
}

/** The largest unit a figure may be quoted per: 10^18 (no bank quotes per more than a million). */
export const MAX_UNIT_MULTIPLIER = 18;

function unitProblem(u: number | null | undefined): string | undefined {
  if (u === undefined || u === null || (Number.isInteger(u) && u >= 0 && u <= MAX_UNIT_MULTIPLIER)) return undefined;
  return `a unit multiplier of ${String(u)} is beyond the bound of ${MAX_UNIT_MULTIPLIER}`;
}

/** True when the figure is within the bounds; logs (once) and returns false when it is not. */
export function figureUsable(bankId: string, figure: GuardedFigure, where: string): boolean {
  const problem = figureBoundsProblem(figure.rate) ?? unitProblem(figure.unitMultiplier);
  if (problem === undefined) return true;
  const key = `${bankId} ${figure.effectiveDate ?? ""} ${figure.currency} ${where}`;
  if (!logged.has(key) && logged.size < MAX_REMEMBERED) {
    logged.add(key);
    sink().warn(
      { bank: bankId, effectiveDate: figure.effectiveDate, currency: figure.currency, read: where, problem },
      "stored figure beyond the figure bounds refused: left out, not computed on (re-ingest the date to replace it)",
    );
  }
  return false;
}

/** The figures within the bounds (the same array when all are, the usual case). */
export function usableFigures<T extends GuardedFigure>(bankId: string, rows: T[], where: string): T[] {
  for (let i = 0; i < rows.length; i++) {
    if (!figureUsable(bankId, rows[i]!, where)) return rows.filter((r) => figureUsable(bankId, r, where));
  }
  return rows;
}

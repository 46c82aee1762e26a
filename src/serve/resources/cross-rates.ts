// What Convert and the `base=` parameter of Latest, a date and a range share: the parameter read, the
// days of a document re-expressed against another currency (src/publish/cross.ts), and the 404 of a
// currency the bank did not quote on the date asked, naming the nearest date it did.
import type { ServerResponse } from "node:http";

import { isIsoCurrency } from "../../feed/currency.js";
import { frequencySourceOf, otherSourcesOf } from "../../feed/sources.js";
import { rebaseDay } from "../../publish/cross.js";
import type { HistoryDay, HistoryHeader } from "../../publish/render-history.js";
import type { HistoryStore } from "../../store/history.js";
import type { IsoDate } from "../../types.js";
import { BadRequest } from "../http/query.js";
import { PROBLEM_TYPES, sendProblem } from "../http/respond.js";
import { quoted } from "../../quote.js";

/** An ISO 4217 code parameter (`base`, `from`, `to`), upper case; undefined when absent. */
export function currencyParameter(params: Map<string, string>, name: string): string | undefined {
  const raw = params.get(name);
  if (raw === undefined) return undefined;
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !isIsoCurrency(code))
    throw new BadRequest(`${name}: ${quoted(raw)} is not an ISO 4217 currency code`);
  return code;
}

/**
 * `base=XXX`: the currency to re-express the document against; undefined without it, or when it is
 * the document's own base currency (then the bank's figures are the answer, unchanged).
 */
export function baseParameter(params: Map<string, string>, header: HistoryHeader): string | undefined {
  const base = currencyParameter(params, "base");
  return base === header.baseCurrency ? undefined : base;
}

/** The currencies to read for a filtered, re-expressed answer: the filter and the new base. */
export function readFilter(currencies: string[] | undefined, base: string | undefined): string[] | undefined {
  if (!currencies || !base || currencies.includes(base)) return currencies;
  return [...currencies, base].sort();
}

/** A day re-expressed against `base` and cut to the filter; a day without a figure of `base` has no rows. */
function rebasedDay(header: HistoryHeader, day: HistoryDay, base: string, keep: Set<string> | undefined): HistoryDay {
  const rebased = rebaseDay(header, day, base) ?? { date: day.date, rows: [] };
  return keep ? { date: rebased.date, rows: rebased.rows.filter((r) => keep.has(r.currency)) } : rebased;
}

/** Days (in memory, read chunk by chunk, or read asynchronously) re-expressed against `base`. */
export function rebasedDays(
  header: HistoryHeader,
  days: Iterable<HistoryDay> | AsyncIterable<HistoryDay>,
  base: string,
  currencies: string[] | undefined,
): Iterable<HistoryDay> | AsyncIterable<HistoryDay> {
  const keep = currencies ? new Set(currencies) : undefined;
  if (Symbol.asyncIterator in days)
    return (async function* () {
      for await (const day of days) yield rebasedDay(header, day, base, keep);
    })();
  return (function* () {
    for (const day of days) yield rebasedDay(header, day, base, keep);
  })();
}

/** One day re-expressed and cut to the filter; undefined when the day has no figure of `base`. */
export function rebasedOne(
  header: HistoryHeader,
  day: HistoryDay,
  base: string,
  currencies: string[] | undefined,
): HistoryDay | undefined {
  // Undefined too when the figure of `base` is one refused as beyond the bounds (src/store/figure-guard.ts).
  const rebased = rebaseDay(header, day, base);
  if (!rebased) return undefined;
  if (!currencies) return rebased;
  const keep = new Set(currencies);
  return { date: rebased.date, rows: rebased.rows.filter((r) => keep.has(r.currency)) };
}

/** Each published Latest's re-expressed days by base (null: the base is not quoted), made once per generation. */
const rebasedLatest = new WeakMap<object, Map<string, HistoryDay | null>>();

/** rebasedOne over a published Latest (`latest`: its parsed document, the cache key), kept per base. */
export function rebasedPublished(
  latest: { header: HistoryHeader; day: HistoryDay },
  base: string,
  currencies: string[] | undefined,
): HistoryDay | undefined {
  let byBase = rebasedLatest.get(latest);
  if (!byBase) rebasedLatest.set(latest, (byBase = new Map<string, HistoryDay | null>()));
  let day = byBase.get(base);
  if (day === undefined) {
    // Bounded: one entry per ISO 4217 code at most.
    day = rebasedOne(latest.header, latest.day, base, undefined) ?? null;
    byBase.set(base, day);
  }
  if (!day) return undefined;
  if (!currencies) return day;
  const keep = new Set(currencies);
  return { date: day.date, rows: day.rows.filter((r) => keep.has(r.currency)) };
}

const dayNumber = (date: IsoDate) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * The date nearest `date` on which the bank quoted `currency` (the earlier on a tie); undefined when it
 * never did or there is no store to ask. Read only on this error path: the currency's span from the
 * currency list, and its dates in between when the asked date falls inside the span.
 */
export async function nearestQuoted(
  reader: HistoryStore | undefined,
  bankId: string,
  currency: string,
  date: IsoDate,
): Promise<IsoDate | undefined> {
  if (!reader) return undefined;
  const { list } = await reader.currencies();
  const span = list.find((c) => c.currency === currency)?.banks.find((b) => b.bankId === bankId);
  if (!span) return undefined;
  if (date <= span.since) return span.since;
  if (date >= span.latest) return span.latest;
  const snapshot = await reader.snapshot();
  try {
    let best: IsoDate | undefined;
    const consider = (rows: Array<{ effectiveDate: IsoDate }>) => {
      for (const r of rows)
        if (
          !best ||
          Math.abs(dayNumber(r.effectiveDate) - dayNumber(date)) < Math.abs(dayNumber(best) - dayNumber(date))
        )
          best = r.effectiveDate;
    };
    const chunks = snapshot.range(bankId, span.since, span.latest, [currency]);
    if (Symbol.asyncIterator in chunks) for await (const rows of chunks) consider(rows);
    else for (const rows of chunks) consider(rows);
    return best;
  } finally {
    snapshot.release();
  }
}

/**
 * Where a bank's other table quotes `currency` (`NBP's Weekly rates quote it: /v1/Banks/NBP/WeeklyRates/2026-03-18`),
 * the date being that table's nearest to `date`; undefined when no other table of the bank quotes it.
 */
async function otherTableQuoting(
  reader: HistoryStore | undefined,
  bankId: string,
  currency: string,
  date: IsoDate,
): Promise<string | undefined> {
  for (const source of otherSourcesOf(bankId)) {
    const near = await nearestQuoted(reader, source, currency, date);
    const frequency = frequencySourceOf(source)!.frequency;
    if (near) return `${bankId}'s ${frequency} rates quote it: /v1/Banks/${bankId}/${frequency}Rates/${near}`;
  }
  return undefined;
}

/**
 * 404: the bank quoted none of `missing` in the set in force on `date` (its own date `effectiveDate`);
 * each currency named with the nearest date the bank did quote it (null: never).
 */
export async function sendNotQuoted(
  reader: HistoryStore | undefined,
  res: ServerResponse,
  head: boolean,
  bankId: string,
  missing: string[],
  date: IsoDate,
  effectiveDate: IsoDate,
): Promise<void> {
  const nearest: Record<string, IsoDate | null> = {};
  for (const c of missing) nearest[c] = (await nearestQuoted(reader, bankId, c, date)) ?? null;
  // A currency only a bank's other table quotes (NBP's weekly Table B: AFN, VND...) is named with it.
  const elsewhere: Record<string, string> = {};
  for (const c of missing) {
    const other = await otherTableQuoting(reader, bankId, c, date);
    if (other) elsewhere[c] = other;
  }
  const said = missing.map((c) => {
    const other = elsewhere[c];
    if (nearest[c]) return `${c} (nearest date ${bankId} quoted it: ${nearest[c]}${other ? `; ${other}` : ""})`;
    return other ? `${c} (not in ${bankId}'s daily rates; ${other})` : `${c} (${bankId} never quoted it)`;
  });
  const set = effectiveDate === date ? date : `${effectiveDate}, the set in force on ${date}`;
  sendProblem(res, 404, {
    type: PROBLEM_TYPES.currencyNotQuoted,
    detail: `${bankId} quoted no rate of ${said.join(" and ")} on ${set}`,
    extra: {
      bank: bankId,
      currencies: missing,
      effectiveDate,
      nearestDates: nearest,
      ...(Object.keys(elsewhere).length ? { otherFrequencies: elsewhere } : {}),
    },
    head,
  });
}

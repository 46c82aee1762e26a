// What a pair's answer reads from the store: each bank's set in force on a date (or its newest, or as
// known at an instant), cut to the two currencies of the pair, and each bank's published days of a
// range. Shared by the HTTP resource and the CLI: each door builds a PairQuery and renders the answer.
import { AsOfReader } from "../store/as-of.js";
import { inForceAmong, type HistoryRow, type HistoryStore } from "../store/history.js";
import { publicIdOf, sourceLabel } from "../feed/sources.js";
import type { Frequency, IsoDate, QuoteType } from "../types.js";
import type { BankDay } from "./pair.js";

/** A request for one pair: Latest (no date), a date, or a range; some banks or all; now or as known at an instant. */
export interface PairQuery {
  base: string;
  quote: string;
  date?: IsoDate;
  range?: { from: IsoDate; to: IsoDate };
  /** The banks to ask (upper case); undefined: every bank with stored rates. */
  banks?: readonly string[];
  /** An RFC 3339 instant as UTC with milliseconds. */
  asOf?: string;
}

/** The banks' days read, those that had none, and a key naming every row read (for an ETag). */
export interface ReadDays {
  days: BankDay[];
  missing: Array<{ bankId: string; reason: string }>;
  version: string;
}

interface Quoting {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
}

/** A source's frequency (Daily, Weekly, Monthly...) by its id; undefined when unknown (read as daily). */
export type FrequencyLookup = (sourceId: string) => Frequency | undefined | Promise<Frequency | undefined>;

/**
 * The banks asked (every stored one when none are named) with how each quotes; unknown ones named. A
 * source whose figures are in force over a period (a monthly, quarterly or weekly table) is set aside with
 * the reason and where its rates are: a pair sets the banks' daily fixings side by side (docs/DECISIONS.md).
 */
export async function banksOf(
  store: HistoryStore,
  asked: readonly string[] | undefined,
  frequencyOf?: FrequencyLookup,
): Promise<{ banks: Quoting[]; unknown: string[]; periodic: Array<{ bankId: string; reason: string }> }> {
  const ids = asked ?? (await store.banks()).map((b) => b.bankId);
  const banks: Quoting[] = [];
  const unknown: string[] = [];
  const periodic: Array<{ bankId: string; reason: string }> = [];
  for (const bankId of ids) {
    const frequency = await frequencyOf?.(bankId);
    if (frequency && frequency !== "Daily") {
      const shown = publicIdOf(bankId);
      const reason =
        `${sourceLabel(bankId)} publishes ${frequency.toLowerCase()} rates, each in force over its period, ` +
        `not daily fixings: its rates are under /v1/Banks/${shown}/${frequency}Rates`;
      periodic.push({ bankId: shown, reason });
      continue;
    }
    const quoting = await store.quoting(bankId);
    if (quoting) banks.push({ bankId, ...quoting });
    else unknown.push(bankId);
  }
  return { banks, unknown, periodic };
}

/** The currencies of the pair a bank's rows are read for (its own currency has no row). */
const wanted = (q: PairQuery, bank: Quoting) => [q.base, q.quote].filter((c) => c !== bank.baseCurrency).sort();

const newest = (rows: readonly { storedAt: string }[]) => rows.reduce((m, r) => (r.storedAt > m ? r.storedAt : m), "");

/** Each bank's set in force on the query's date (its newest without one), as stored now or as known at asOf. */
export async function readBankDays(
  store: HistoryStore,
  banks: readonly Quoting[],
  q: PairQuery,
  today: IsoDate,
): Promise<ReadDays> {
  const days: BankDay[] = [];
  const missing: ReadDays["missing"] = [];
  const version: string[] = [];
  const known = q.asOf ? AsOfReader.of(store) : undefined;
  for (const bank of banks) {
    const id = bank.bankId;
    const dates = known ? (await known.datesKnown(id, q.asOf!)).dates : await store.dates(id);
    const found = q.date ? inForceAmong(dates, q.date, today) : undefined;
    if (found?.kind === "none") {
      missing.push({ bankId: id, reason: `${id} has no set in force on ${q.date} (${found.reason})` });
      continue;
    }
    const date = found ? found.effectiveDate : dates.at(-1);
    if (!date) {
      missing.push({ bankId: id, reason: `${id} has no stored rates${q.asOf ? ` as known at ${q.asOf}` : ""}` });
      continue;
    }
    const currencies = wanted(q, bank);
    let rows: HistoryRow[];
    let publishedAt: string;
    if (known) {
      const keep = new Set(currencies);
      const read = (await known.day(id, date, q.asOf!)).filter((r) => keep.has(r.currency));
      rows = read;
      publishedAt = newest(read);
      version.push(`${id}:${date}:${read.map((r) => `${r.rate}/${r.storedAt}`).join(",")}`);
    } else {
      const read = await store.ratesWithVersion(id, date, currencies);
      rows = read.rows;
      publishedAt = read.version.maxStoredAt;
      const v = read.version;
      version.push(`${id}:${date}:${v.rows}:${v.maxStoredAt}:${v.maxFetchId}`);
    }
    days.push({ ...bank, effectiveDate: date, publishedAt, figures: rows });
  }
  return { days, missing, version: version.join(" ") };
}

/** Each bank's published days of the range (the pair's two currencies only), by date: date -> bank days. */
export async function readRangeDays(
  store: HistoryStore,
  banks: readonly Quoting[],
  q: PairQuery & { range: { from: IsoDate; to: IsoDate } },
): Promise<{ byDate: Map<IsoDate, BankDay[]>; version: string }> {
  const byDate = new Map<IsoDate, BankDay[]>();
  const version: string[] = [];
  const snapshot = await store.snapshot();
  try {
    for (const bank of banks) {
      const currencies = wanted(q, bank);
      const v = await snapshot.versionOf(bank.bankId, q.range.from, q.range.to, currencies);
      if (v.rows === 0) continue;
      version.push(`${bank.bankId}:${v.rows}:${v.maxStoredAt}:${v.maxFetchId}`);
      const add = (rows: HistoryRow[]) => {
        for (const r of rows) {
          let list = byDate.get(r.effectiveDate);
          if (!list) byDate.set(r.effectiveDate, (list = []));
          let day = list.at(-1);
          if (day?.bankId !== bank.bankId) {
            // A range reads no per-day storage time: publishedAt stays empty (the renderers leave it out).
            day = { ...bank, effectiveDate: r.effectiveDate, publishedAt: "", figures: [] };
            list.push(day);
          }
          (day.figures as HistoryRow[]).push(r);
        }
      };
      const chunks = snapshot.range(bank.bankId, q.range.from, q.range.to, currencies);
      if (Symbol.asyncIterator in chunks) for await (const rows of chunks) add(rows);
      else for (const rows of chunks) add(rows);
    }
  } finally {
    snapshot.release();
  }
  const sorted = new Map([...byDate.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  return { byDate: sorted, version: version.join(" ") };
}

// What an ingest hands the store and what it reads back, the same on both engines: the batches to write
// (one per answer, with its provenance) and what they did, and the screening's snapshot: everything the
// decisions of src/ingest/screen.ts need, read in one go inside the ingest's transaction. The helpers
// here are shared by the two engines' loaders (sqlite-ingest.ts, postgres-ingest.ts) and the decisions.
import { createHash } from "node:crypto";

import { addDays } from "../feed/dates.js";
import type { BankQuoting, IsoDate, RateRecord, UnitlessFigure } from "../types.js";
import type { AnomalyInput, AnomalyStatus } from "./anomalies.js";

/** Where a batch of records came from: one HTTP answer or one imported file. */
export interface Provenance {
  kind: "fetch" | "import";
  method: "GET" | "POST";
  /** Already redacted. For an import: the URL the importer declared (`--url`), "" when none. */
  url: string;
  /** An import: the file's base name (never its directory). */
  file?: string;
  /** An import: who imported it (`exrates import --by`, default the OS user). */
  importedBy?: string;
  startedAt: Date;
  finishedAt: Date;
  httpStatus?: number;
  body: Uint8Array;
}

export interface IngestBatch {
  provenance: Provenance;
  records: RateRecord[];
  /** Rows held and figures warned about in this answer, stored with its fetch id. */
  anomalies?: AnomalyInput[];
}

/** What one ingest writes: its batches, when, and how the bank quotes (remembered for the check). */
export interface IngestWrite {
  batches: IngestBatch[];
  now: Date;
  quoting?: BankQuoting;
}

export interface IngestResult {
  fetchIds: number[];
  inserted: number;
  revised: number;
  unchanged: number;
  /** Distinct effective dates touched by inserted or revised rows, sorted. */
  changedDates: IsoDate[];
  /** Anomalies of this ingest seen for the first time (to be logged once). */
  newAnomalies: AnomalyInput[];
}

/** A stored figure of some bank, for screening and the cross-bank check. */
export interface StoredFigure {
  bankId: string;
  effectiveDate: IsoDate;
  currency: string;
  rate: string;
  unitMultiplier: number;
}

/** What screening needs read for one ingest of one bank. */
export interface ScreeningQuery {
  bankId: string;
  /** The answers to screen: the dates they cover, and which of those bring a new or changed figure. */
  answers: ReadonlyArray<{ readonly records: readonly RateRecord[] }>;
  /** Days of the bank's own figures wanted before the answers' first date (the jump check's window). */
  ownDaysBefore: number;
  /**
   * Days of the other banks' figures wanted before each date that brings a new or changed figure (the
   * check's lag); undefined: no check, nothing of theirs is read.
   */
  othersDaysBefore?: number;
  /**
   * Figures held for want of a unit that the ingest may establish by evidence: their dates widen the
   * bank's own window, and those not stored already widen the other banks' window.
   */
  unitless?: readonly UnitlessFigure[];
  /**
   * The currencies the bank's figures are measured in (its base, the common currencies). Of the other
   * banks' figures the check can use only these and the currencies of the bank's own figures and
   * answers; undefined: every currency of theirs is read.
   */
  measures?: readonly string[];
}

/** Everything screening decides over, read in one go inside the ingest's transaction. */
export interface ScreeningSnapshot {
  /** The bank's stored figures from `ownDaysBefore` days before the answers' first date to their last. */
  own: readonly StoredFigure[];
  /**
   * Per answer (in the query's order), its records whose figure is not the one stored: new or changed,
   * in order. The rest change nothing and are not screened again.
   */
  changed: ReadonlyArray<readonly RateRecord[]>;
  /** The bank's held and released figures over the answers' dates, by figureKey (a release wins). */
  decided: ReadonlyMap<string, AnomalyStatus>;
  /** How every other bank quotes; read only with the check on and some record changed. */
  banks: ReadonlyMap<string, BankQuoting>;
  /** The other banks' figures from `othersDaysBefore` days before the first changed record's date to the last's. */
  others: readonly StoredFigure[];
}

export interface DateSpan {
  from: IsoDate;
  to: IsoDate;
}

/** The first and last effective date of the records (undefined: none). */
function dateSpan(lists: ReadonlyArray<ReadonlyArray<{ readonly effectiveDate: IsoDate }>>): DateSpan | undefined {
  let from: IsoDate | undefined;
  let to: IsoDate | undefined;
  for (const records of lists) {
    for (const r of records) {
      if (from === undefined || r.effectiveDate < from) from = r.effectiveDate;
      if (to === undefined || r.effectiveDate > to) to = r.effectiveDate;
    }
  }
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

/** Nothing read: no record is stored, none was decided, no other bank is known. */
export function emptySnapshot(query: ScreeningQuery): ScreeningSnapshot {
  return { own: [], changed: query.answers.map((a) => a.records), decided: new Map(), banks: new Map(), others: [] };
}

/**
 * What a loader reads for the query, in two steps: the bank's own figures and decisions first
 * (undefined: the answers carry no dated record, nothing to read), then, from the records that differ
 * from those figures, the window of the other banks' figures (undefined: none needed).
 */
export const screeningWindows = {
  own(query: ScreeningQuery): { figures: DateSpan; decided: DateSpan } | undefined {
    const span = dateSpan([...query.answers.map((a) => a.records), query.unitless ?? []]);
    if (!span) return undefined;
    return { figures: { from: addDays(span.from, -query.ownDaysBefore), to: span.to }, decided: span };
  },
  others(
    query: ScreeningQuery,
    changed: ScreeningSnapshot["changed"],
    own: readonly StoredFigure[],
  ): DateSpan | undefined {
    if (query.othersDaysBefore === undefined) return undefined;
    const stored = query.unitless?.length ? storedAlready(own) : undefined;
    const unsettled = stored ? query.unitless!.filter((f) => !stored(f)) : [];
    const span = dateSpan([...changed, unsettled]);
    return span && { from: addDays(span.from, -query.othersDaysBefore), to: span.to };
  },
  /**
   * The currencies of the other banks' figures that can judge this ingest (undefined: all): a consensus
   * needs another bank's figure of the judged currency or of the measure, the other being that bank's
   * base or a figure of it too. Reading only these cut a first import's reading of the other banks'
   * history several times over.
   */
  othersCurrencies(query: ScreeningQuery, own: readonly StoredFigure[]): string[] | undefined {
    if (!query.measures) return undefined;
    const currencies = new Set(query.measures);
    for (const f of own) currencies.add(f.currency);
    for (const answer of query.answers) for (const r of answer.records) currencies.add(r.currency);
    for (const f of query.unitless ?? []) currencies.add(f.currency);
    return [...currencies].sort();
  },
};

/**
 * Whether a figure held for want of a unit is stored already (the same date, currency and figure, its
 * unit established before): it changes nothing and is neither held nor judged again.
 */
export function storedAlready(own: readonly StoredFigure[]): (f: UnitlessFigure) => boolean {
  const stored = new Set(own.map((f) => `${f.effectiveDate} ${f.currency} ${f.rate}`));
  return (f) => stored.has(`${f.effectiveDate} ${f.currency} ${f.rate}`);
}

/**
 * Per answer, its records whose figure differs from the stored one (or has none): one lookup per record,
 * none at all when nothing of the bank is stored (a first import).
 */
export function changedRecords(query: ScreeningQuery, own: readonly StoredFigure[]): ScreeningSnapshot["changed"] {
  if (own.length === 0) return query.answers.map((a) => a.records);
  const stored = new Map<string, string>();
  for (const f of own) stored.set(`${f.effectiveDate} ${f.currency}`, `${f.rate} ${f.unitMultiplier}`);
  return query.answers.map((a) =>
    a.records.filter((r) => stored.get(`${r.effectiveDate} ${r.currency}`) !== `${r.rate} ${r.unitMultiplier ?? 0}`),
  );
}

/**
 * The records in date order (each date's in their given order) and their dates, sorted; undefined when a
 * date and currency comes twice (then the order they go in matters: the last figure wins). For a batch
 * going into an empty span, every row of which is an insert: date order appends to the key's b-tree,
 * where a history listed currency by currency inserts all over it.
 */
export function inDateOrder(records: readonly RateRecord[]): { records: RateRecord[]; dates: IsoDate[] } | undefined {
  const byDate = new Map<IsoDate, RateRecord[]>();
  for (const r of records) {
    const day = byDate.get(r.effectiveDate);
    if (day) day.push(r);
    else byDate.set(r.effectiveDate, [r]);
  }
  const dates = [...byDate.keys()].sort();
  const ordered: RateRecord[] = new Array<RateRecord>(records.length);
  const currencies = new Set<string>();
  let k = 0;
  for (const date of dates) {
    currencies.clear();
    for (const r of byDate.get(date)!) {
      if (currencies.has(r.currency)) return undefined;
      currencies.add(r.currency);
      ordered[k++] = r;
    }
  }
  return { records: ordered, dates };
}

export function sha256(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

// Between the gate and the store: which figures of an ingest become current. A figure equal to the
// stored one changes nothing and is not checked again; a figure a person released is taken; a figure
// held before stays held; every other new or changed figure goes through the cross-bank check
// (sanity.ts). Rows held by the adapter or the gate become anomalies of their answer. Loading is per
// engine (SQLite synchronously inside its transaction, PostgreSQL through the ingest's transaction);
// the decisions (screenCandidates, applyVerdicts) are shared and pure.
import { baseCurrencyOf } from "../feed/adapter.js";
import type { Kysely } from "kysely";

import {
  decidedFigures,
  figureKey,
  quotingOfBanks,
  type AnomalyInput,
  type AnomalyStatus,
} from "../store/anomalies.js";
import type { SqliteStore } from "../store/database.js";
import { decidedFiguresPg, figuresOfBanksPg, quotingOfBanksPg } from "../store/postgres-ingest.js";
import { figuresOfBanks, type StoredFigure } from "../store/rates.js";
import type { Database } from "../store/schema.js";
import type { BankDescriptor, HeldRow, IsoDate, QuoteType, RateRecord } from "../types.js";
import { addDays } from "../feed/dates.js";
import { crossCheck, type CrossCheckConfig } from "./sanity.js";

/** One answer's records and held rows, as parsed and gated. */
export interface GatedAnswer {
  records: RateRecord[];
  held: HeldRow[];
}

/** One answer after screening: the records to store and the anomalies to record with it. */
export interface ScreenedAnswer {
  records: RateRecord[];
  anomalies: AnomalyInput[];
  /** Rows and figures left out of this answer (held now or before). */
  heldCount: number;
  warnedCount: number;
}

function heldRowAnomaly(h: HeldRow): AnomalyInput {
  const a: AnomalyInput = { kind: h.kind, reason: h.reason, status: "held", source: h.source };
  if (h.effectiveDate !== undefined) a.effectiveDate = h.effectiveDate;
  if (h.currency !== undefined) a.currency = h.currency;
  if (h.rate !== undefined) a.rate = h.rate;
  if (h.derivation !== undefined) a.derivation = h.derivation;
  return a;
}

function figureAnomaly(r: RateRecord, kind: AnomalyInput["kind"], reason: string, hold: boolean): AnomalyInput {
  const a: AnomalyInput = {
    kind,
    reason,
    status: hold ? "held" : "warned",
    effectiveDate: r.effectiveDate,
    currency: r.currency,
    rate: r.rate,
    unitMultiplier: r.unitMultiplier ?? 0,
  };
  if (r.source !== undefined) a.source = r.source;
  if (r.derivation !== undefined) a.derivation = r.derivation;
  return a;
}

function dateRange(answers: readonly GatedAnswer[]): { from: IsoDate; to: IsoDate } | undefined {
  let from: IsoDate | undefined;
  let to: IsoDate | undefined;
  for (const a of answers) {
    for (const r of a.records) {
      if (from === undefined || r.effectiveDate < from) from = r.effectiveDate;
      if (to === undefined || r.effectiveDate > to) to = r.effectiveDate;
    }
  }
  return from !== undefined && to !== undefined ? { from, to } : undefined;
}

/** What screening reads from the store: the bank's stored and decided figures over the answers' dates. */
export interface ScreenInputs {
  stored: readonly StoredFigure[];
  decided: ReadonlyMap<string, AnomalyStatus>;
}

/** What the cross-bank check reads: how every bank quotes, the other banks' and the bank's own figures. */
export interface CheckInputs {
  banks: Map<string, { baseCurrency: string; quoteType: QuoteType }>;
  others: StoredFigure[];
  own: StoredFigure[];
}

/**
 * Where the figures the check needs come from: the other banks' over the lag window, the bank's own over
 * the jump window (loaded by the dialect's store code).
 */
export function checkWindows(range: { from: IsoDate; to: IsoDate }, check: CrossCheckConfig) {
  return {
    others: { from: addDays(range.from, -check.lagDays), to: range.to },
    own: { from: addDays(range.from, -check.jumpWindowDays), to: range.to },
  };
}

/** The first, pure half of screening: which records are unchanged, decided, or to be checked. */
export function screenCandidates(answers: readonly GatedAnswer[], inputs: ScreenInputs) {
  const out: ScreenedAnswer[] = answers.map((a) => ({
    records: a.records,
    anomalies: a.held.map(heldRowAnomaly),
    heldCount: a.held.length,
    warnedCount: 0,
  }));
  const stored = new Map<string, string>();
  for (const f of inputs.stored) stored.set(`${f.effectiveDate} ${f.currency}`, `${f.rate} ${f.unitMultiplier}`);
  const { decided } = inputs;
  // Which records are candidates for the check, and which answer each belongs to.
  const candidates: RateRecord[] = [];
  const answerOf = new Map<RateRecord, number>();
  const stillHeld = new Set<RateRecord>();
  out.forEach((answer, i) => {
    for (const r of answer.records) {
      const unit = r.unitMultiplier ?? 0;
      if (stored.size && stored.get(`${r.effectiveDate} ${r.currency}`) === `${r.rate} ${unit}`) continue; // unchanged
      if (decided.size) {
        const decision = decided.get(figureKey(r.effectiveDate, r.currency, r.rate, unit));
        if (decision === "released") continue;
        if (decision === "held") {
          stillHeld.add(r);
          continue;
        }
      }
      candidates.push(r);
      if (out.length > 1) answerOf.set(r, i);
    }
  });
  return { out, candidates, answerOf, stillHeld };
}

/** The second, pure half: the check's verdicts on the candidates, applied to the answers. */
export function applyVerdicts(
  bank: BankDescriptor,
  screening: ReturnType<typeof screenCandidates>,
  check: CrossCheckConfig | false,
  inputs: CheckInputs | undefined,
): ScreenedAnswer[] {
  const { out, candidates, answerOf, stillHeld } = screening;
  const verdicts =
    check && inputs && candidates.length
      ? crossCheck(
          {
            bankId: bank.id,
            quoting: { baseCurrency: baseCurrencyOf(bank), quoteType: bank.quoteType },
            candidates,
            ...inputs,
          },
          check,
        )
      : [];
  const heldNow = new Set<RateRecord>(stillHeld);
  for (const v of verdicts) {
    const answer = out[answerOf.get(v.record) ?? 0]!;
    answer.anomalies.push(figureAnomaly(v.record, v.kind, v.reason, v.hold));
    if (v.hold) heldNow.add(v.record);
    else answer.warnedCount++;
  }
  if (heldNow.size) {
    for (const answer of out) {
      const before = answer.records.length;
      answer.records = answer.records.filter((r) => !heldNow.has(r));
      answer.heldCount += before - answer.records.length;
    }
  }
  return out;
}

/** Answers without a dated record need no reads at all. */
function unscreened(answers: readonly GatedAnswer[]): ScreenedAnswer[] {
  return screenCandidates(answers, { stored: [], decided: new Map() }).out;
}

/**
 * Screens one ingest's answers on SQLite, synchronously (call inside its transaction, so what is read
 * is what is written over). `check` false skips the cross-bank check (kept for tests of other stages;
 * never for real feeds).
 */
export function screenAnswers(
  store: SqliteStore,
  bank: BankDescriptor,
  answers: readonly GatedAnswer[],
  check: CrossCheckConfig | false,
): ScreenedAnswer[] {
  const range = dateRange(answers);
  if (!range) return unscreened(answers);
  const screening = screenCandidates(answers, {
    stored: figuresOfBanks(store, [bank.id], range.from, range.to),
    decided: decidedFigures(store, bank.id, range.from, range.to),
  });
  let inputs: CheckInputs | undefined;
  if (check && screening.candidates.length) {
    const banks = quotingOfBanks(store);
    banks.delete(bank.id);
    const w = checkWindows(range, check);
    inputs = {
      banks,
      others: banks.size ? figuresOfBanks(store, banks.keys(), w.others.from, w.others.to) : [],
      own: figuresOfBanks(store, [bank.id], w.own.from, w.own.to),
    };
  }
  return applyVerdicts(bank, screening, check, inputs);
}

/** The same screening on PostgreSQL, reading through the ingest's transaction. */
export async function screenAnswersPg(
  db: Kysely<Database>,
  bank: BankDescriptor,
  answers: readonly GatedAnswer[],
  check: CrossCheckConfig | false,
): Promise<ScreenedAnswer[]> {
  const range = dateRange(answers);
  if (!range) return unscreened(answers);
  const screening = screenCandidates(answers, {
    stored: await figuresOfBanksPg(db, [bank.id], range.from, range.to),
    decided: await decidedFiguresPg(db, bank.id, range.from, range.to),
  });
  let inputs: CheckInputs | undefined;
  if (check && screening.candidates.length) {
    const banks = await quotingOfBanksPg(db);
    banks.delete(bank.id);
    const w = checkWindows(range, check);
    inputs = {
      banks,
      others: banks.size ? await figuresOfBanksPg(db, banks.keys(), w.others.from, w.others.to) : [],
      own: await figuresOfBanksPg(db, [bank.id], w.own.from, w.own.to),
    };
  }
  return applyVerdicts(bank, screening, check, inputs);
}

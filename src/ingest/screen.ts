// Between the gate and the store: which figures of an ingest become current. A figure equal to the
// stored one changes nothing and is not checked again; a figure a person released is taken; a figure
// held before stays held; every other new or changed figure goes through the cross-bank check
// (sanity.ts). Rows held by the adapter or the gate become anomalies of their answer.
import { baseCurrencyOf } from "../feed/adapter.js";
import { decidedFigures, figureKey, quotingOfBanks, type AnomalyInput } from "../store/anomalies.js";
import type { Store } from "../store/database.js";
import { figuresOfBanks } from "../store/rates.js";
import type { BankDescriptor, HeldRow, IsoDate, RateRecord } from "../types.js";
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

/**
 * Screens one ingest's answers (call inside its transaction, so what is read is what is written over).
 * `check` false skips the cross-bank check (kept for tests of other stages; never for real feeds).
 */
export function screenAnswers(
  store: Store,
  bank: BankDescriptor,
  answers: readonly GatedAnswer[],
  check: CrossCheckConfig | false,
): ScreenedAnswer[] {
  const out: ScreenedAnswer[] = answers.map((a) => ({
    records: a.records,
    anomalies: a.held.map(heldRowAnomaly),
    heldCount: a.held.length,
    warnedCount: 0,
  }));
  const range = dateRange(answers);
  if (!range) return out;
  const stored = new Map<string, string>();
  for (const f of figuresOfBanks(store, [bank.id], range.from, range.to)) {
    stored.set(`${f.effectiveDate} ${f.currency}`, `${f.rate} ${f.unitMultiplier}`);
  }
  const decided = decidedFigures(store, bank.id, range.from, range.to);
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
  const verdicts = check && candidates.length ? judgeCandidates(store, bank, candidates, range, check) : [];
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

function judgeCandidates(
  store: Store,
  bank: BankDescriptor,
  candidates: RateRecord[],
  range: { from: IsoDate; to: IsoDate },
  check: CrossCheckConfig,
) {
  const banks = quotingOfBanks(store);
  banks.delete(bank.id);
  const others = banks.size ? figuresOfBanks(store, banks.keys(), addDays(range.from, -check.lagDays), range.to) : [];
  const own = figuresOfBanks(store, [bank.id], addDays(range.from, -check.jumpWindowDays), range.to);
  return crossCheck(
    {
      bankId: bank.id,
      quoting: { baseCurrency: baseCurrencyOf(bank), quoteType: bank.quoteType },
      candidates,
      banks,
      others,
      own,
    },
    check,
  );
}

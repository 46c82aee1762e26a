// Between the gate and the store: which figures of an ingest become current. A figure equal to the
// stored one changes nothing and is not checked again; a figure a person released is taken; a figure
// held before stays held; every other new or changed figure goes through the cross-bank check
// (sanity.ts). A figure held only for want of a unit is first given one where other banks' figures
// settle it (units.ts). Rows held by the adapter or the gate become anomalies of their answer. Everything here
// is pure: `screeningQuery` says what to read, the store reads it in one go inside the ingest's
// transaction (a ScreeningSnapshot, either engine), and `screenAnswers` decides over it.
import { baseCurrencyOf } from "../feed/adapter.js";
import { figureKey, type AnomalyInput } from "../store/anomalies.js";
import type { ScreeningQuery, ScreeningSnapshot } from "../store/ingest-data.js";
import type { BankDescriptor, HeldRow, RateRecord } from "../types.js";
import { COMMON_CURRENCIES } from "./consensus.js";
import { crossCheck, type CrossCheckConfig } from "./sanity.js";
import { settleUnits } from "./units.js";

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
  if (h.validTo !== undefined) a.validTo = h.validTo;
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
  if (r.validTo !== undefined) a.validTo = r.validTo;
  return a;
}

/**
 * What screening needs read for these answers: the bank's own figures over their dates (and the jump
 * check's window before them), its decided figures over their dates, and, with the check on, the other
 * banks' figures over the check's lag before each date that brings something new. `check` false skips
 * the cross-bank check (kept for tests of other stages; never for real feeds).
 */
export function screeningQuery(
  bank: BankDescriptor,
  answers: readonly GatedAnswer[],
  check: CrossCheckConfig | false,
): ScreeningQuery {
  const bankId = bank.id;
  const query: ScreeningQuery = check
    ? {
        bankId,
        answers,
        ownDaysBefore: check.jumpWindowDays,
        othersDaysBefore: check.lagDays,
        measures: [...new Set([baseCurrencyOf(bank), ...COMMON_CURRENCIES])],
      }
    : { bankId, answers, ownDaysBefore: 0 };
  const unitless = answers.flatMap((a) => a.held.flatMap((h) => (h.unitless ? [h.unitless] : [])));
  if (unitless.length) query.unitless = unitless;
  return query;
}

/**
 * The changed records a person or the check decided on before (released: taken; held: held again), and
 * the others: the candidates the check judges, with the answer each is in.
 */
function screenCandidates(answers: readonly GatedAnswer[], snapshot: ScreeningSnapshot) {
  const out: ScreenedAnswer[] = answers.map((a) => ({
    records: a.records,
    anomalies: a.held.map(heldRowAnomaly),
    heldCount: a.held.length,
    warnedCount: 0,
  }));
  const { decided } = snapshot;
  const candidates: RateRecord[] = [];
  const answerOf = new Map<RateRecord, number>();
  const stillHeld = new Set<RateRecord>();
  out.forEach((_answer, i) => {
    for (const r of snapshot.changed[i] ?? []) {
      if (decided.size) {
        const decision = decided.get(figureKey(r.effectiveDate, r.currency, r.rate, r.unitMultiplier ?? 0));
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

/**
 * Screens one ingest's answers over what the store read for them (`snapshot`, from the query of
 * `screeningQuery`): the records to store and the anomalies to record, per answer.
 */
export function screenAnswers(
  bank: BankDescriptor,
  answers: readonly GatedAnswer[],
  snapshot: ScreeningSnapshot,
  check: CrossCheckConfig | false,
): ScreenedAnswer[] {
  // Figures held for want of a unit first: those the other banks settle are stored beside the rest.
  const quoting = { baseCurrency: baseCurrencyOf(bank), quoteType: bank.quoteType };
  const units = settleUnits(quoting, answers, snapshot, check);
  const gated = answers.map((a, i) => ({ records: a.records, held: units[i]!.held }));
  const { out, candidates, answerOf, stillHeld } = screenCandidates(gated, snapshot);
  const verdicts =
    check && candidates.length
      ? crossCheck(
          {
            bankId: bank.id,
            quoting,
            candidates,
            banks: snapshot.banks,
            others: snapshot.others,
            own: snapshot.own,
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
  units.forEach((u, i) => {
    if (u.established.length) out[i]!.records = [...out[i]!.records, ...u.established];
  });
  return out;
}

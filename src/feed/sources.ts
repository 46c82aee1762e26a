// A bank and its sources: most banks publish at one frequency, from one adapter whose id is the bank's
// key. A bank may publish a second frequency from a second table (NBP: the daily Table A and the weekly
// Table B); that table has an adapter of its own, whose source id stays internal (the store's and the
// scheduler's key) while everything a user sees names the bank and the frequency: its rates are under
// `/v1/Banks/{bank}/{Frequency}Rates`, and its bank lists both frequencies.
//
// The pairs are listed here, not only in the descriptors (`bankId`, checked against this list when the
// adapters load): the router, the published tree and `adapterFor` resolve a bank key and a frequency
// synchronously, without importing every adapter.
import type { Frequency } from "../types.js";

/** A source publishing one more frequency of a bank, under that bank's key. */
export interface FrequencySource {
  /** The bank's public key (its daily adapter's id). */
  bank: string;
  frequency: Frequency;
  /** The source's internal id (its adapter file's name). */
  source: string;
}

export const FREQUENCY_SOURCES: readonly FrequencySource[] = [{ bank: "NBP", frequency: "Weekly", source: "NBPB" }];

/** The source publishing `bank`'s rates at `frequency` (a key as typed: any case); the bank's own key otherwise. */
export function sourceIdFor(bank: string, frequency: Frequency | undefined): string {
  const key = bank.toUpperCase();
  if (frequency === undefined) return key;
  return FREQUENCY_SOURCES.find((s) => s.bank === key && s.frequency === frequency)?.source ?? key;
}

/** The entry of a source that publishes under another bank's key; undefined for a bank's own source. */
export function frequencySourceOf(sourceId: string): FrequencySource | undefined {
  const key = sourceId.toUpperCase();
  return FREQUENCY_SOURCES.find((s) => s.source === key);
}

/** The public key of a source: its bank's for a second frequency's source, else its own id. */
export function publicIdOf(sourceId: string): string {
  return frequencySourceOf(sourceId)?.bank ?? sourceId;
}

/** How a source is named to users: `NBP (Weekly)` for a second frequency's source, else its id. */
export function sourceLabel(sourceId: string): string {
  const s = frequencySourceOf(sourceId);
  return s ? `${s.bank} (${s.frequency})` : sourceId;
}

/** Every frequency a bank publishes: its own source's first, then its other sources'. */
export function frequenciesOfBank(bank: string, own: readonly Frequency[]): Frequency[] {
  const more = FREQUENCY_SOURCES.filter((s) => s.bank === bank && !own.includes(s.frequency)).map((s) => s.frequency);
  return [...own, ...more];
}

/** The other sources of a bank (NBP: NBPB), by internal id. */
export function otherSourcesOf(bank: string): string[] {
  const key = bank.toUpperCase();
  return FREQUENCY_SOURCES.filter((s) => s.bank === key).map((s) => s.source);
}

/** A user-facing refusal for a source id typed as if it were a bank key (`NBPB`): where its rates are. */
export function notABankKey(sourceId: string): string | undefined {
  const s = frequencySourceOf(sourceId);
  return s
    ? `${sourceId.toUpperCase()} is not a bank key: ${s.bank}'s ${s.frequency} rates are under /v1/Banks/${s.bank}/${s.frequency}Rates`
    : undefined;
}

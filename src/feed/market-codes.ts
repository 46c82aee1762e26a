// Market codes: currency codes that are not ISO 4217 but that central banks publish officially, each for
// a real currency that has no ISO code of its own. One list, read by the ingest gate, the kit's code
// checks and `/v1/currencies`. The rule for adding one is in docs/ANOMALIES.md ("Market codes"): a
// code goes here only when a bank publishes it as an official rate of a real, tradable currency that
// no ISO 4217 code stands for. Units of account and indices (CMD, WAUA, I44) do not qualify.

/** A market code and what a user must know about it. */
export interface MarketCode {
  code: string;
  /** English name (ICU's, where ICU names the code). */
  name: string;
  /** Shown beside the code by `/v1/currencies`: what it is, and that it is not ISO 4217. */
  note: string;
}

const LIST: readonly MarketCode[] = [
  {
    code: "CNH",
    name: "Chinese Yuan (offshore)",
    note: "The offshore yuan (the renminbi traded outside mainland China, chiefly in Hong Kong): a market code, not an ISO 4217 code. The onshore yuan is CNY.",
  },
];

/** Market codes by code. */
export const MARKET_CODES: ReadonlyMap<string, MarketCode> = new Map(LIST.map((m) => [m.code, m]));

/** The market code's entry, or undefined for any other code (ISO 4217 ones included). */
export function marketCode(code: string): MarketCode | undefined {
  return MARKET_CODES.get(code);
}

/**
 * What `/v1/currencies` adds to a currency's entry: for a market code `iso4217: false` and its note;
 * nothing for an ISO 4217 code (so their entries stay as they were).
 */
export function marketCodeFacts(code: string): { iso4217?: false; note?: string } {
  const m = MARKET_CODES.get(code);
  return m ? { iso4217: false, note: m.note } : {};
}

// How the MCP tools state a figure: which currency, how many units of which, equal to the exact
// published rate of which other currency. "100 JPY = 13.26033 CZK" reads the same for a Direct bank
// (the foreign currency first) and an Indirect one ("1 EUR = 1.0850 USD"), as the CSV's columns do.
import type { DailyRates, PublishedRate } from "@exrates/client";

export interface Figure {
  currency: string;
  /** The exact published decimal text. */
  rate: string;
  /** How many units of `from` the rate is for (10^unitMultiplier). */
  unit: number;
  from: string;
  to: string;
  /** "100 JPY = 13.26033 CZK". */
  reads: string;
  /** A period source's figure: the days it is in force. */
  validFrom?: string;
  validTo?: string;
}

export function figureOf(r: PublishedRate, day: Pick<DailyRates, "baseCurrency" | "quoteType">): Figure {
  const unit = 10 ** (r.unitMultiplier ?? 0);
  const [from, to] = day.quoteType === "Direct" ? [r.currency, day.baseCurrency] : [day.baseCurrency, r.currency];
  const validity = r.validFrom && r.validTo ? { validFrom: r.validFrom, validTo: r.validTo } : undefined;
  const reads = `${unit} ${from} = ${r.rate} ${to}${validity ? ` (in force ${validity.validFrom} to ${validity.validTo})` : ""}`;
  return { currency: r.currency, rate: r.rate, unit, from, to, reads, ...validity };
}

/** "CNB (Czech National Bank)", or the id alone when the name is not known. */
export function bankLabel(bank: { id: string; name?: string }): string {
  return bank.name ? `${bank.id} (${bank.name})` : bank.id;
}

/** How a bank's quotes read: "Direct: CZK per unit(s) of each foreign currency". */
export function quoteLine(day: Pick<DailyRates, "baseCurrency" | "quoteType">): string {
  return day.quoteType === "Direct"
    ? `quoted Direct: ${day.baseCurrency} per the stated units of each foreign currency`
    : `quoted Indirect: units of each foreign currency per the stated units of ${day.baseCurrency}`;
}

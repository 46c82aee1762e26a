// Five banks' sets of one day (2026-03-02) in the shape the store keeps them: how each bank quotes,
// its figures as published (rate for 10^unitMultiplier units), and when they were stored.
import type { BankDay } from "../../src/pairs/pair.js";
import type { QuoteType } from "../../src/types.js";

export const DAY = "2026-03-02";

/** A bank's set of DAY stored at `time` (UTC); each figure "CODE rate", or "CODE rate/100" for 100 units. */
const set = (bankId: string, baseCurrency: string, quoteType: QuoteType, time: string, figures: string): BankDay => ({
  bankId,
  baseCurrency,
  quoteType,
  effectiveDate: DAY,
  publishedAt: `${DAY}T${time}:00.000Z`,
  figures: figures.split(", ").map((figure) => {
    const [currency, published] = figure.split(" ") as [string, string];
    const [rate, units = "1"] = published.split("/") as [string, string?];
    return { currency, rate, unitMultiplier: Math.round(Math.log10(Number(units))) };
  }),
});

export const BANK_DAYS: BankDay[] = [
  set("ECB", "EUR", "Indirect", "15:05", "CZK 24.170, JPY 162.45, PLN 4.2875, USD 1.0850"),
  set("CNB", "CZK", "Direct", "13:32", "EUR 24.165, JPY 14.870/100, USD 22.280"),
  set("NBP", "PLN", "Direct", "10:45", "EUR 4.2870, JPY 2.6342/100, USD 3.9512"),
  set("BOC", "CAD", "Direct", "21:30", "EUR 1.4765, JPY 0.009122, USD 1.3612"),
  set("BNR", "RON", "Direct", "11:15", "EUR 4.9735, JPY 3.0612/100, USD 4.5830"),
];

/** The same days with one bank's figure of one currency replaced. */
export function withFigure(bankId: string, currency: string, rate: string): BankDay[] {
  return BANK_DAYS.map((d) =>
    d.bankId !== bankId ? d : { ...d, figures: d.figures.map((f) => (f.currency === currency ? { ...f, rate } : f)) },
  );
}

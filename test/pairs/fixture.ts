// Five banks' sets of one day (2026-03-02) in the shape the store keeps them: how each bank quotes,
// its figures as published (rate for 10^unitMultiplier units), and when they were stored.
import type { BankDay } from "../../src/pairs/pair.js";

export const DAY = "2026-03-02";

export const BANK_DAYS: BankDay[] = [
  {
    bankId: "ECB",
    baseCurrency: "EUR",
    quoteType: "Indirect",
    effectiveDate: DAY,
    publishedAt: "2026-03-02T15:05:00.000Z",
    figures: [
      { currency: "CZK", rate: "24.170", unitMultiplier: 0 },
      { currency: "JPY", rate: "162.45", unitMultiplier: 0 },
      { currency: "PLN", rate: "4.2875", unitMultiplier: 0 },
      { currency: "USD", rate: "1.0850", unitMultiplier: 0 },
    ],
  },
  {
    bankId: "CNB",
    baseCurrency: "CZK",
    quoteType: "Direct",
    effectiveDate: DAY,
    publishedAt: "2026-03-02T13:32:00.000Z",
    figures: [
      { currency: "EUR", rate: "24.165", unitMultiplier: 0 },
      { currency: "JPY", rate: "14.870", unitMultiplier: 2 },
      { currency: "USD", rate: "22.280", unitMultiplier: 0 },
    ],
  },
  {
    bankId: "NBP",
    baseCurrency: "PLN",
    quoteType: "Direct",
    effectiveDate: DAY,
    publishedAt: "2026-03-02T10:45:00.000Z",
    figures: [
      { currency: "EUR", rate: "4.2870", unitMultiplier: 0 },
      { currency: "JPY", rate: "2.6342", unitMultiplier: 2 },
      { currency: "USD", rate: "3.9512", unitMultiplier: 0 },
    ],
  },
  {
    bankId: "BOC",
    baseCurrency: "CAD",
    quoteType: "Direct",
    effectiveDate: DAY,
    publishedAt: "2026-03-02T21:30:00.000Z",
    figures: [
      { currency: "EUR", rate: "1.4765", unitMultiplier: 0 },
      { currency: "JPY", rate: "0.009122", unitMultiplier: 0 },
      { currency: "USD", rate: "1.3612", unitMultiplier: 0 },
    ],
  },
  {
    bankId: "BNR",
    baseCurrency: "RON",
    quoteType: "Direct",
    effectiveDate: DAY,
    publishedAt: "2026-03-02T11:15:00.000Z",
    figures: [
      { currency: "EUR", rate: "4.9735", unitMultiplier: 0 },
      { currency: "JPY", rate: "3.0612", unitMultiplier: 2 },
      { currency: "USD", rate: "4.5830", unitMultiplier: 0 },
    ],
  },
];

/** The same days with one bank's figure of one currency replaced. */
export function withFigure(bankId: string, currency: string, rate: string): BankDay[] {
  return BANK_DAYS.map((d) =>
    d.bankId !== bankId ? d : { ...d, figures: d.figures.map((f) => (f.currency === currency ? { ...f, rate } : f)) },
  );
}

// Reading a rates document (Latest, a date, a range) without losing a digit: every JSON number is kept as
// its text (lossless-json), so `24.170` stays "24.170" and a 20-digit rate is not rounded to a double.
import { parse } from "lossless-json";

import { ExratesError } from "./errors.js";
import type { DailyRates, PublishedRate } from "./types.js";

interface RatesJson {
  bankId?: unknown;
  baseCurrency?: unknown;
  quoteType?: unknown;
  rates?: unknown;
}

/** Every effective date of a rates document, oldest first. */
export function readRatesDocument(text: string, request: string): DailyRates[] {
  let doc: RatesJson;
  try {
    // Numbers come back as their text: the parseNumber hook returns it unchanged.
    doc = parse(text, null, (value: string) => value) as RatesJson;
  } catch (error) {
    throw unreadable(request, `not JSON (${(error as Error).message})`);
  }
  const { bankId, baseCurrency, quoteType, rates } = doc ?? {};
  if (typeof bankId !== "string" || typeof baseCurrency !== "string")
    throw unreadable(request, "no bankId or baseCurrency");
  if (quoteType !== "Direct" && quoteType !== "Indirect") throw unreadable(request, "no quoteType");
  if (rates === undefined || rates === null || typeof rates !== "object") throw unreadable(request, "no rates");
  return Object.entries(rates as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([effectiveDate, day]) => {
      // A date's `warnings` member (currency → why the figure was published with a warning) is no currency.
      const { warnings, ...figures } = (day ?? {}) as Record<string, { rate?: unknown; unitMultiplier?: unknown }>;
      const warned = (warnings ?? {}) as Record<string, unknown>;
      return {
        bankId,
        baseCurrency,
        quoteType,
        effectiveDate,
        rates: Object.entries(figures)
          .map(([currency, figure]) => {
            if (typeof figure?.rate !== "string") throw unreadable(request, `${effectiveDate} ${currency} has no rate`);
            const rate: PublishedRate = { currency, rate: figure.rate };
            if (figure.unitMultiplier !== undefined) rate.unitMultiplier = Number(figure.unitMultiplier);
            if (typeof warned[currency] === "string") rate.warning = warned[currency];
            return rate;
          })
          .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)),
      };
    });
}

function unreadable(request: string, why: string): ExratesError {
  return new ExratesError({
    type: "about:blank",
    title: "Unreadable answer",
    status: 200,
    detail: `the rates document cannot be read: ${why}`,
    request,
  });
}

// Reading a rates document (Latest, a date, a range) without losing a digit: every JSON number is kept as
// its text (lossless-json), so `24.170` stays "24.170" and a 20-digit rate is not rounded to a double.
import { parse } from "lossless-json";

import { ExratesError } from "./errors.js";
import type { DailyRates, Frequency, ProvenanceSource, PublishedRate } from "./types.js";

interface RatesJson {
  bankId?: unknown;
  baseCurrency?: unknown;
  quoteType?: unknown;
  derivedFrom?: { baseCurrency?: unknown; quoteType?: unknown };
  asOf?: unknown;
  rates?: unknown;
}

type FigureJson = { rate?: unknown; unitMultiplier?: unknown; validFrom?: unknown; validTo?: unknown };

/** Every effective date of a rates document, oldest first (`frequency`: the path it was read from). */
export function readRatesDocument(text: string, request: string, frequency: Frequency = "Daily"): DailyRates[] {
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
  const header: Omit<DailyRates, "effectiveDate" | "rates"> = { bankId, baseCurrency, quoteType, frequency };
  const derived = doc.derivedFrom;
  if (
    derived &&
    typeof derived.baseCurrency === "string" &&
    (derived.quoteType === "Direct" || derived.quoteType === "Indirect")
  )
    header.derivedFrom = { baseCurrency: derived.baseCurrency, quoteType: derived.quoteType };
  if (typeof doc.asOf === "string") header.asOf = doc.asOf;
  return Object.entries(rates as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([effectiveDate, day]) => readDay(header, effectiveDate, (day ?? {}) as Record<string, unknown>, request));
}

function readDay(
  header: Omit<DailyRates, "effectiveDate" | "rates">,
  effectiveDate: string,
  day: Record<string, unknown>,
  request: string,
): DailyRates {
  // A date's `warnings` (currency → why the figure was published with a warning) and `provenance` (the
  // bank's answers) are no currencies.
  const { warnings, provenance, ...figures } = day;
  const warned = (warnings ?? {}) as Record<string, unknown>;
  const rates = Object.entries(figures as Record<string, FigureJson>)
    .map(([currency, figure]) => {
      if (typeof figure?.rate !== "string") throw unreadable(request, `${effectiveDate} ${currency} has no rate`);
      const rate: PublishedRate = { currency, rate: figure.rate };
      if (figure.unitMultiplier !== undefined) rate.unitMultiplier = Number(figure.unitMultiplier);
      if (typeof figure.validFrom === "string" && typeof figure.validTo === "string") {
        rate.validFrom = figure.validFrom;
        rate.validTo = figure.validTo;
      }
      if (typeof warned[currency] === "string") rate.warning = warned[currency];
      return rate;
    })
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  const out: DailyRates = { ...header, effectiveDate, rates };
  if (Array.isArray(provenance)) out.provenance = provenance as ProvenanceSource[];
  return out;
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

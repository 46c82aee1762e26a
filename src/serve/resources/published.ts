// What the published tree's documents say, read back once per generation (kept beside the file's
// Representation, so a new generation reads them again): a bank's Bank resource, and its Latest.json
// as a day of rows with each rate's text exactly as published.
import { isLosslessNumber, parse as parseLossless } from "lossless-json";

import type { HistoryDay, HistoryHeader } from "../../publish/render-history.js";
import type { HistoryRow } from "../../store/history.js";
import type { BankResource, QuoteType } from "../../types.js";
import type { Representation } from "../state/tree.js";

const bankResources = new WeakMap<Representation, BankResource>();

/** The Bank resource of `v1/banks/<ID>.json`. */
export function bankResource(rep: Representation | undefined): BankResource | undefined {
  if (!rep) return undefined;
  let resource = bankResources.get(rep);
  if (!resource) {
    resource = JSON.parse(rep.identity.body.toString("utf8")) as BankResource;
    bankResources.set(rep, resource);
  }
  return resource;
}

export interface ParsedLatest {
  header: HistoryHeader;
  day: HistoryDay;
}
const latestDocuments = new WeakMap<Representation, ParsedLatest>();

/** Latest.json read back, each rate's text exactly as published. */
export function parsedLatest(rep: Representation): ParsedLatest {
  let parsed = latestDocuments.get(rep);
  if (!parsed) {
    const doc = parseLossless(rep.identity.body.toString("utf8")) as {
      bankId: string;
      baseCurrency: string;
      quoteType: QuoteType;
      rates: Record<
        string,
        Record<string, { rate: unknown; unitMultiplier?: unknown; validFrom?: string; validTo?: string }>
      >;
    };
    const [date, day] = Object.entries(doc.rates)[0] ?? ["", {}];
    let periodic = false;
    // The date's `warnings` member (currency → reason) is no currency: it goes onto the rows it names.
    const { warnings, ...figures } = day;
    const warned = (warnings ?? {}) as Record<string, unknown>;
    const rows: HistoryRow[] = Object.entries(figures).map(([currency, r]) => {
      const row: HistoryRow = {
        effectiveDate: date,
        currency,
        rate: isLosslessNumber(r.rate) ? r.rate.value : String(r.rate),
        unitMultiplier: isLosslessNumber(r.unitMultiplier) ? Number(r.unitMultiplier.value) : 0,
      };
      if (typeof r.validFrom === "string" && typeof r.validTo === "string") {
        periodic = true;
        row.validFrom = r.validFrom;
        row.validTo = r.validTo;
      }
      if (typeof warned[currency] === "string") row.warning = warned[currency];
      return row;
    });
    parsed = {
      header: {
        bankId: doc.bankId,
        baseCurrency: doc.baseCurrency,
        quoteType: doc.quoteType,
        ...(periodic ? { periodic } : {}),
      },
      day: { date, rows },
    };
    latestDocuments.set(rep, parsed);
  }
  return parsed;
}

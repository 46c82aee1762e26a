// Latest.json: the rates as JSON, each rate written as the JSON number whose text is the bank's decimal
// (`1.0850` stays `1.0850`), which JSON.stringify cannot do; lossless-json can.
import { LosslessNumber, stringify } from "lossless-json";

import type { BankResource, LatestRatesDocument } from "../types.js";

export function renderJson(doc: LatestRatesDocument): Buffer {
  const day: Record<string, unknown> = {};
  const warnings: Record<string, string> = {};
  for (const r of doc.rates) {
    day[r.currency] = {
      rate: new LosslessNumber(r.rate),
      ...(r.unitMultiplier ? { unitMultiplier: r.unitMultiplier } : {}),
      ...(r.validFrom ? { validFrom: r.validFrom, validTo: r.validTo } : {}),
    };
    if (r.warning !== undefined) warnings[r.currency] = r.warning;
  }
  // The date's figures published with a warning, after its currencies (no currency code is "warnings").
  if (Object.keys(warnings).length) day.warnings = warnings;
  const body = {
    bankId: doc.bankId,
    baseCurrency: doc.baseCurrency,
    quoteType: doc.quoteType,
    rates: { [doc.effectiveDate]: day },
  };
  return Buffer.from(`${stringify(body, undefined, 2)}\n`, "utf8");
}

/** The Bank resource, `/v1/banks/<ID>.json`. */
export function renderBank(bank: BankResource): Buffer {
  return Buffer.from(`${JSON.stringify(bank, null, 2)}\n`, "utf8");
}

export interface BankListEntry {
  id: string;
  name: BankResource["name"];
  latestEffectiveDate: string;
}

/** /v1/banks.json: every bank with published rates. */
export function renderBankList(banks: BankListEntry[]): Buffer {
  return Buffer.from(`${JSON.stringify({ banks }, null, 2)}\n`, "utf8");
}

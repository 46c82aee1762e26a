// Latest.json: the rates as JSON, each rate written as the JSON number whose text is the bank's decimal
// (`1.0850` stays `1.0850`), which JSON.stringify cannot do; lossless-json can.
import { LosslessNumber, stringify } from "lossless-json";

import type { BankResource, LatestRatesDocument } from "../types.js";

export function renderJson(doc: LatestRatesDocument): Buffer {
  const day: Record<string, { rate: LosslessNumber; unitMultiplier?: number; validFrom?: string; validTo?: string }> =
    {};
  for (const r of doc.rates) {
    day[r.currency] = {
      rate: new LosslessNumber(r.rate),
      ...(r.unitMultiplier ? { unitMultiplier: r.unitMultiplier } : {}),
      ...(r.validFrom ? { validFrom: r.validFrom, validTo: r.validTo } : {}),
    };
  }
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

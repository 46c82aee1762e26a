// Latest.csv: RFC 4180 CSV, UTF-8 without BOM, LF, the header below. With an Indirect bank the
// columns keep "1 unit of From = rate To", so From is the base currency.
import { stringify } from "csv-stringify/sync";

import type { Frequency, LatestRatesDocument, PublishedRate } from "../types.js";

export const CSV_HEADER = [
  "BankId",
  "From Currency",
  "To Currency",
  "Effective Date",
  "Exchange Rate",
  "Unit",
] as const;

/** A period source's two more columns, after Unit: the first and last day each figure is in force. */
export const VALIDITY_HEADER = ["Valid From", "Valid To"] as const;

/** Whether a document's source publishes for periods (its figures carry their validity). */
export const isPeriodic = (frequency: Frequency | undefined): boolean =>
  frequency !== undefined && frequency !== "Daily";

/** The header of a daily document, or of a period source's (two more columns). */
export const csvHeaderOf = (periodic: boolean | undefined): string[] =>
  periodic ? [...CSV_HEADER, ...VALIDITY_HEADER] : [...CSV_HEADER];

/** The rows shared by the CSV and the XLSX: [bankId, from, to, date, rate, unit] (+ validFrom, validTo). */
export function rateRows(doc: LatestRatesDocument): string[][] {
  return doc.rates.map((r: PublishedRate) => {
    const [from, to] = doc.quoteType === "Direct" ? [r.currency, doc.baseCurrency] : [doc.baseCurrency, r.currency];
    const row = [doc.bankId, from, to, doc.effectiveDate, r.rate, `1${"0".repeat(r.unitMultiplier ?? 0)}`];
    return r.validFrom ? [...row, r.validFrom, r.validTo!] : row;
  });
}

export function renderCsv(doc: LatestRatesDocument): Buffer {
  return Buffer.from(
    stringify([csvHeaderOf(isPeriodic(doc.frequency)), ...rateRows(doc)], { record_delimiter: "unix" }),
    "utf8",
  );
}

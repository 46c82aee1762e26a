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

/**
 * The column of why a figure was published with a warning: only in a document where some figure has
 * one (so that a document without any keeps its columns), after Unit and any validity columns.
 */
export const WARNINGS_COLUMN = "Warnings";

/** Whether any figure of the document was published with a warning (it then has the Warnings column). */
export const hasWarnings = (doc: LatestRatesDocument): boolean => doc.rates.some((r) => r.warning !== undefined);

/** The CSV and XLSX columns: Latest's, then a period source's validity, then Warnings when any. */
export const csvColumnsOf = (periodic: boolean, warned: boolean): string[] => [
  ...CSV_HEADER,
  ...(periodic ? VALIDITY_HEADER : []),
  ...(warned ? [WARNINGS_COLUMN] : []),
];

/** The CSV and XLSX header of a document. */
export const csvHeaderOf = (doc: LatestRatesDocument): string[] =>
  csvColumnsOf(isPeriodic(doc.frequency), hasWarnings(doc));

/** The rows shared by the CSV and the XLSX, in the columns of csvHeaderOf. */
export function rateRows(doc: LatestRatesDocument): string[][] {
  const warned = hasWarnings(doc);
  return doc.rates.map((r: PublishedRate) => {
    const [from, to] = doc.quoteType === "Direct" ? [r.currency, doc.baseCurrency] : [doc.baseCurrency, r.currency];
    const row = [doc.bankId, from, to, doc.effectiveDate, r.rate, `1${"0".repeat(r.unitMultiplier ?? 0)}`];
    if (r.validFrom) row.push(r.validFrom, r.validTo!);
    if (warned) row.push(r.warning ?? "");
    return row;
  });
}

export function renderCsv(doc: LatestRatesDocument): Buffer {
  return Buffer.from(stringify([csvHeaderOf(doc), ...rateRows(doc)], { record_delimiter: "unix" }), "utf8");
}

// Latest.csv: RFC 4180 CSV, UTF-8 without BOM, LF, the header below. With an Indirect bank the
// columns keep "1 unit of From = rate To", so From is the base currency.
import { stringify } from "csv-stringify/sync";

import type { LatestRatesDocument, PublishedRate } from "../types.js";

export const CSV_HEADER = [
  "BankId",
  "From Currency",
  "To Currency",
  "Effective Date",
  "Exchange Rate",
  "Unit",
] as const;

/** The rows shared by the CSV and the XLSX: [bankId, from, to, date, rate, unit]. */
export function rateRows(doc: LatestRatesDocument): Array<[string, string, string, string, string, string]> {
  return doc.rates.map((r: PublishedRate) => {
    const [from, to] = doc.quoteType === "Direct" ? [r.currency, doc.baseCurrency] : [doc.baseCurrency, r.currency];
    return [doc.bankId, from, to, doc.effectiveDate, r.rate, `1${"0".repeat(r.unitMultiplier ?? 0)}`];
  });
}

export function renderCsv(doc: LatestRatesDocument): Buffer {
  return Buffer.from(stringify([[...CSV_HEADER], ...rateRows(doc)], { record_delimiter: "unix" }), "utf8");
}

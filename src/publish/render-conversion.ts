// A conversion (src/publish/cross.ts) as JSON, XML or CSV. Every amount and figure is written as its
// decimal text (in JSON a string, so that no client's parser turns it into a binary float), with the
// figures used and the formula, so that the result can be checked by hand.
import type { Conversion } from "./cross.js";
import { XML_NAMESPACE } from "./xsd.js";

/** JSON, two-space indentation. */
export function conversionJson(c: Conversion): string {
  const doc = {
    bankId: c.bankId,
    baseCurrency: c.baseCurrency,
    quoteType: c.quoteType,
    ...(c.date !== undefined ? { date: c.date } : {}),
    effectiveDate: c.effectiveDate,
    amount: c.amount,
    from: c.from,
    to: c.to,
    result: c.result,
    unrounded: c.unrounded,
    unroundedExact: c.unroundedExact,
    rounding: { rule: c.rounding, decimals: c.decimals },
    formula: c.formula,
    figures: c.figures,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** XML in the exrates 1.0 namespace: a `Conversion` element, valid against the published XSD. */
export function conversionXml(c: Conversion): string {
  const date = c.date !== undefined ? ` date="${c.date}"` : "";
  const figures = c.figures
    .map(
      (f) =>
        `  <Figure currency="${attr(f.currency)}" value="${attr(f.rate)}" unit="${f.unit}" effectiveDate="${f.effectiveDate}"/>\n`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Conversion xmlns="${XML_NAMESPACE}" bankId="${attr(c.bankId)}" baseCurrency="${attr(c.baseCurrency)}" quoteType="${c.quoteType}"${date} effectiveDate="${c.effectiveDate}">\n` +
    `  <Amount currency="${attr(c.from)}" value="${c.amount}"/>\n` +
    `  <Result currency="${attr(c.to)}" value="${c.result}" unrounded="${c.unrounded}" unroundedExact="${c.unroundedExact}" decimals="${c.decimals}" rounding="${attr(c.rounding)}"/>\n` +
    `  <Formula>${attr(c.formula)}</Formula>\n` +
    figures +
    `</Conversion>\n`
  );
}

export const CONVERSION_CSV_HEADER = [
  "BankId",
  "Effective Date",
  "Amount",
  "From Currency",
  "To Currency",
  "Result",
  "Unrounded Result",
  "Decimals",
  "Rounding",
  "Formula",
] as const;

/** CSV (RFC 4180, LF): the header and one row; the figures are in the formula. */
export function conversionCsv(c: Conversion): string {
  const row = [
    c.bankId,
    c.effectiveDate,
    c.amount,
    c.from,
    c.to,
    c.result,
    c.unrounded,
    String(c.decimals),
    c.rounding,
    c.formula,
  ];
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return `${CONVERSION_CSV_HEADER.join(",")}\n${row.map(field).join(",")}\n`;
}

// How a rate is written into a spreadsheet cell: one rule for Latest.xlsx (render-xlsx.ts, exceljs) and
// the history workbooks (render-history.ts, written without exceljs). A module of its own so that the
// server, which writes only the latter, never loads exceljs.

/**
 * A spreadsheet number is an IEEE double: a rate whose text a double cannot carry digit for digit
 * (more than 15 significant digits) is written as text, never rounded.
 */
export function rateCell(rate: string): { value: number | string; numFmt?: string } {
  const decimals = rate.split(".")[1]?.length ?? 0;
  const value = Number(rate);
  const digits = rate.replace(".", "").replace(/^0+/, "").length;
  if (digits > 15 || value.toFixed(decimals) !== rate) return { value: rate };
  return { value, numFmt: decimals ? `0.${"0".repeat(decimals)}` : "0" };
}

/** The width of the Warnings column (its reasons are sentences). */
export const WARNINGS_WIDTH = 60;

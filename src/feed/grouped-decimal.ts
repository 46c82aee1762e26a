// Decimals written with optional thousands separators, read strictly: "1,253.60" is 1253.60, but "3.576,17" or
// "1,25" (a decimal comma, or a misplaced group) is not read as a number at all, instead of silently becoming
// 3.57617 or 125 as stripping every separator would make it.
import { readDecimal } from "./decimal.js";

/** The plain decimal text of `raw` when it is either ungrouped or grouped by threes with `separator`. */
export function readGroupedDecimal(raw: string, separator = ","): string | undefined {
  const text = raw.trim();
  const sep = separator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const grouped = new RegExp(`^\\d{1,3}(${sep}\\d{3})+(\\.\\d+)?$`);
  if (text.includes(separator) && !grouped.test(text)) return undefined;
  return readDecimal(text, { thousands: separator });
}

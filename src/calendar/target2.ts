// The closing days of TARGET2 (T2), the euro's settlement system: no euro reference rates are
// published on them, whatever the national holidays of the ECB's seat. Data only, so the adapters'
// kit can hand it out without loading the holiday library.
import type { ClosingRule } from "../types.js";

export const TARGET2_CLOSINGS: readonly ClosingRule[] = [
  { rule: "01-01", name: "New Year's Day" },
  { rule: "easter -2", name: "Good Friday" },
  { rule: "easter 1", name: "Easter Monday" },
  { rule: "05-01", name: "Labour Day" },
  { rule: "12-25", name: "Christmas Day" },
  { rule: "12-26", name: "Christmas Holiday" },
];

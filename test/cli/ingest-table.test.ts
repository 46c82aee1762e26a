// `exrates ingest`'s table says what each run stored: a revision is a count in its own column, not
// "not yet" with the revision only in a log line.
import { describe, expect, it } from "vitest";

import { ingestTable } from "../../src/cli/commands/ingest.js";

describe("the ingest table", () => {
  it("shows added, revised, unchanged and held per bank beside the state", () => {
    const table = ingestTable([
      {
        bankId: "CNB",
        state: "gave-up",
        message: "2026-03-03 is the newest published; 2026-03-04 not yet",
        newest: "2026-03-03",
        inserted: 0,
        revised: 1,
        unchanged: 30,
        held: 2,
        tries: 1,
      },
      { bankId: "ECB", state: "failed", message: "HTTP 503", inserted: 0, revised: 0, tries: 1 },
    ]).split("\n");
    expect(table[0]!.split(/\s+/)).toEqual([
      "BANK",
      "STATE",
      "NEWEST",
      "ADDED",
      "REVISED",
      "UNCHANGED",
      "HELD",
      "MESSAGE",
    ]);
    expect(table[1]).toMatch(
      /^CNB\s+not yet\s+2026-03-03\s+0\s+1\s+30\s+2\s+2026-03-03 is the newest published; 2026-03-04 not yet$/,
    );
    // A run that fetched nothing has no counts of what was sent: "-", not 0.
    expect(table[2]).toMatch(/^ECB\s+FAILED\s+-\s+0\s+0\s+-\s+-\s+HTTP 503$/);
  });
});

// `exrates ingest`'s table says what each run stored: a revision is a count in its own column, not
// "not yet" with the revision only in a log line.
import { describe, expect, it } from "vitest";

import type { BankSummary } from "../../src/backfill/backfill.js";
import { formatSummary } from "../../src/cli/commands/backfill.js";
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

describe("a bank's second table in the CLI's tables", () => {
  it("is named by its frequency, never by its internal source id", () => {
    const table = ingestTable([
      { bankId: "NBP", state: "ok", message: "stored", newest: "2026-03-13", inserted: 32, revised: 0, tries: 1 },
      { bankId: "NBPB", state: "ok", message: "stored", newest: "2026-03-11", inserted: 116, revised: 0, tries: 1 },
    ]).split("\n");
    expect(table.map((l) => l.split(/\s{2,}|\s(?=ok|STATE)/)[0])).toEqual(["BANK", "NBP", "NBP (Weekly)"]);
    expect(table[2]).toMatch(/^NBP \(Weekly\) ok\s+2026-03-11\s+116\s+0\s+-\s+-\s+stored$/);
  });

  it("backfill's summary names it the same way, the columns kept aligned", () => {
    const bank = (bankId: string, notDone: BankSummary["notDone"]) => ({
      ...{ bankId, from: "2026-03-01", to: "2026-03-24", chunks: 1, stored: notDone.length ? 0 : 1 },
      ...{ unfinished: notDone.length, skipped: 0, failed: 0, inserted: 3, revised: 0, unchanged: 0 },
      ...{ daysWithoutPublication: 0, notDone, errors: [] },
    });
    const banks = [
      bank("NBP", []),
      bank("NBPB", [{ from: "2026-03-18", to: "2026-03-18", reason: "the answer contained none of these dates" }]),
    ];
    const totals = { chunks: 2, stored: 1, unfinished: 1, skipped: 0, failed: 0, inserted: 6, revised: 0 };
    const lines = formatSummary({
      banks,
      totals: { ...totals, unchanged: 0, daysWithoutPublication: 0, errors: 0, notDone: 1 },
      interrupted: false,
    }).split("\n");
    expect(lines[2]).toMatch(/^NBP \(Weekly\) 2026-03-01 2026-03-24 1 /);
    expect(lines.map((l) => l.indexOf("2026-03-01")).slice(1, 3)).toEqual([13, 13]);
    expect(lines).toContain("  NBP (Weekly) 2026-03-18..2026-03-18: the answer contained none of these dates");
    expect(lines.join("\n")).not.toMatch(/NBPB/);
  });
});

// The backfill's progress bar on a fake terminal: it shows the chunks in progress, notes go above it,
// and once cleared nothing of it is left for the summary to be mixed with.
import { describe, expect, it } from "vitest";

import type { ChunkEvent } from "../../src/backfill/backfill.js";
import { createProgress } from "../../src/backfill/progress.js";
import { stoppingMessage } from "../../src/cli/commands/backfill.js";
import { screen } from "./screen.js";

function fakeTerminal() {
  const out = { text: "", columns: 200, write: (s: string) => ((out.text += s), true) };
  return out;
}

const event = (e: Partial<ChunkEvent>): ChunkEvent => ({
  bankId: "ECB",
  from: "2020-01-01",
  to: "2020-12-31",
  status: "stored",
  inserted: 100,
  revised: 0,
  unchanged: 0,
  daysWithoutPublication: 0,
  ms: 1000,
  done: 1,
  total: 3,
  ...e,
});

describe("backfill progress bar", () => {
  it("shows the chunk in progress, not the last one done", () => {
    const term = fakeTerminal();
    let t = 0;
    const progress = createProgress(3, { stream: term, now: () => t });
    progress.started({ bankId: "ECB", from: "2020-01-01", to: "2020-12-31" });
    expect(screen(term.text).at(-1)).toMatch(/0\/3 chunks \| now ECB 2020-01-01\.\.2020-12-31 \|/);
    t = 5000;
    progress.finished(event({}));
    progress.started({ bankId: "ECB", from: "2021-01-01", to: "2021-12-31" });
    const shown = screen(term.text);
    expect(shown).toHaveLength(1); // one line, drawn over
    expect(shown[0]).toMatch(
      /^backfill \[#######-------------\] 1\/3 chunks \| now ECB 2021-01-01\.\.2021-12-31 \| \+100 rows, 0 failed \| 5s \| eta 2s$/,
    );
  });

  it("notes go above the bar; cleared, it leaves nothing under the summary", () => {
    const term = fakeTerminal();
    const progress = createProgress(2, { stream: term });
    progress.started({ bankId: "CNB", from: "2019-01-01", to: "2019-12-31" });
    progress.note("exrates: SIGINT: stopping");
    expect(screen(term.text)).toEqual([
      "exrates: SIGINT: stopping",
      expect.stringMatching(/^backfill .* now CNB 2019-01-01\.\.2019-12-31 /),
    ]);
    progress.clear();
    term.write("BANK    FROM\nCNB     2019-01-01\n");
    expect(screen(term.text)).toEqual(["exrates: SIGINT: stopping", "BANK    FROM", "CNB     2019-01-01"]);
    progress.finished(event({ bankId: "CNB", from: "2019-01-01", to: "2019-12-31" }));
    expect(screen(term.text)).toHaveLength(3); // cleared for good
  });

  it("without a terminal, no bar: notes are plain lines", () => {
    const term = fakeTerminal();
    const progress = createProgress(2, { stream: term, bar: false });
    progress.started({ bankId: "CNB", from: "2019-01-01", to: "2019-12-31" });
    progress.note("a note");
    expect(term.text).toBe("a note\n");
  });

  it("Ctrl-C names what it waits for", () => {
    let t = 0;
    const progress = createProgress(4, { now: () => t });
    progress.started({ bankId: "CBR", from: "2020-01-01", to: "2020-03-31" });
    t = 12_000;
    expect(stoppingMessage(progress, false, true, t)).toBe(
      "stopping: waiting for the chunk in flight to finish: CBR 2020-01-01..2020-03-31 (fetching for 12s); then publishing what was stored; again to quit at once",
    );
    expect(stoppingMessage(createProgress(1), false, true)).toBe("stopping; then publishing what was stored");
    expect(stoppingMessage(progress, true, true)).toMatch(/^publishing what was stored/);
  });
});

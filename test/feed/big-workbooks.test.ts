// Big and odd workbooks parse in bounded memory: each is generated here (bench/workbooks.mjs builds it,
// nothing big is committed) and parsed in a child process whose V8 heap is capped at 512 MB, the
// bound any answer up to 50 MB must parse within. The figures read are checked against the rule the
// generator follows (day i is 2000-01-01 + i; US$ 0.4000 + (i mod 1000)/10000, NZ$ 0.7000 + (i mod 991)/10000).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../bench/workbooks.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "exrates-big-workbooks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Summary {
  records: number;
  held?: number;
  sheets?: number;
  gridCells?: number;
  sample: string[];
  maxRssMB: number;
  ms: number;
}

/** Builds the workbook, then parses it in `node --max-old-space-size=512`; what the child read. */
function parseUnderHeapLimit(kind: string, rows?: number): Summary {
  const file = join(dir, kind);
  const build = spawnSync(process.execPath, [SCRIPT, "build", kind, file, ...(rows ? [String(rows)] : [])], {
    encoding: "utf8",
  });
  expect(build.status, build.stderr).toBe(0);
  const run = spawnSync(process.execPath, ["--max-old-space-size=512", SCRIPT, "parse", kind, file], {
    encoding: "utf8",
  });
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
  const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Summary;
  // The figures of the run (not asserted: timing belongs to the bench), for the record.
  console.log(`${kind}: ${summary.ms.toFixed(0)} ms, peak RSS ${summary.maxRssMB.toFixed(0)} MB`);
  return summary;
}

const date = (i: number) => new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);

describe("big workbooks within a 512 MB heap", () => {
  it("reads sheets declaring A1:XFD1048576 with 65,536 formatted empty rows, visiting only their values", () => {
    const s = parseUnderHeapLimit("huge-range");
    // 3 sheets x 250 days x 3 currencies; RBF's adapter reads every sheet with a "Period" header.
    expect(s).toMatchObject({ records: 2250, held: 0 });
    expect(s.sample).toEqual([`${date(0)} USD 0.4000`, `${date(749)} NZD ${(0.7 + (749 % 991) / 10000).toFixed(4)}`]);
  }, 300_000);

  it("reads a 200,000-row history", () => {
    const s = parseUnderHeapLimit("history", 200_000);
    expect(s).toMatchObject({ records: 600_000, held: 0 });
    expect(s.sample).toEqual([
      `${date(0)} USD 0.4000`,
      `${date(199_999)} NZD ${(0.7 + (199_999 % 991) / 10000).toFixed(4)}`,
    ]);
  }, 300_000);

  it("reads a BIFF8 .xls of one sheet per day beside a sheet declaring A1:IV65536 of formatted rows", () => {
    const s = parseUnderHeapLimit("daily-xls");
    // 60 daily sheets of 3 figures; the formatted sheet's 65,536 rows of blank cells leave one cell.
    expect(s).toMatchObject({ sheets: 61, records: 180 });
    expect(s.gridCells).toBeLessThan(1000);
    // Newest sheet first: day 59 (2000-02-29), US$ 0.4059; the oldest, day 0, NZ$ 0.7 (typed without zeros).
    expect(s.sample).toEqual(["29022000 US$ 0.4059", "01012000 NZ$ 0.7"]);
  }, 300_000);
});

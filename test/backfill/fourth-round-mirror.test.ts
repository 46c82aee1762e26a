// `exrates backfill` of the banks added in the fourth round (CBT, BOMU) through the feed mirror, over the
// windows their recordings cover: one file per value date (CBT), a listing of a window of days (BOMU).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { cli } from "../e2e/support.js";
import { haveMirror, startMirror, type Mirror } from "../support/mirror.js";

interface BankSummary {
  bankId: string;
  inserted: number;
  errors: string[];
}

/** Each bank's recorded windows. */
const WINDOWS: Array<[bank: string, from: string, to: string]> = [
  ["CBT", "2026-05-20", "2026-05-21"],
  ["BOMU", "2026-09-23", "2026-09-25"],
  ["BOMU", "2005-01-04", "2005-01-04"],
];

describe.skipIf(!haveMirror)("backfill of the fourth-round banks through the feed mirror", { timeout: 600_000 }, () => {
  let mirror: Mirror;
  let root: string;
  const inserted = new Map<string, number>();
  const errors: string[] = [];

  beforeAll(async () => {
    mirror = await startMirror(["CBT", "BOMU"]);
    root = mkdtempSync(join(tmpdir(), "exrates-fourth-round-"));
    const env = {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_FEED_MIRROR: mirror.url,
    };
    for (const [bank, from, to] of WINDOWS) {
      const run = await cli(["backfill", bank, "--from", from, "--to", to, "--pause", "0", "--json"], env, 300_000);
      const summary = (JSON.parse(run.stdout) as { banks: BankSummary[] }).banks[0]!;
      inserted.set(bank, (inserted.get(bank) ?? 0) + summary.inserted);
      errors.push(...summary.errors);
    }
  }, 900_000);
  afterAll(async () => {
    await mirror?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ["CBT", 48 * 2], // 48 rates on 20 and 21 May 2026
    ["BOMU", 12 * 3 + 10], // 12 currencies on 23-25 September 2026, 10 on 4 January 2005
  ] as const)("stores %s's recorded windows and publishes them", (bank, rows) => {
    expect(errors).toEqual([]);
    expect(inserted.get(bank)).toBe(rows);
    expect(existsSync(join(root, "out", "v1", "Banks", bank, "DailyRates", "Latest.json"))).toBe(true);
  });

  it("publishes the recorded figures (the 21 May 2026 file, MUR per AUD on 25 September 2026)", () => {
    const latest = (bank: string) =>
      readFileSync(join(root, "out", "v1", "Banks", bank, "DailyRates", "Latest.json"), "utf8");
    const cbt = JSON.parse(latest("CBT")) as { rates: Record<string, Record<string, { rate: number }>> };
    expect(Object.keys(cbt.rates)).toEqual(["2026-05-21"]);
    expect(latest("CBT")).toContain('"rate": 0.9531'); // AED on 21 May 2026
    expect(latest("BOMU")).toContain("2026-09-25");
    expect(latest("BOMU")).toContain("34.28315");
  });
});

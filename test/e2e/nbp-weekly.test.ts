// NBP's Table B through the CLI: imported as NBPB it is published as Weekly rates with their validity;
// handed to the daily NBP adapter it is refused whole, nothing stored.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { cli } from "./support.js";
import { FEEDS_DIR, sharedFeedsPresent } from "../support/feeds.js";

const root = mkdtempSync(join(tmpdir(), "exrates-nbp-weekly-"));
const env = { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out") };
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!sharedFeedsPresent)("NBP's weekly Table B", { timeout: 120_000 }, () => {
  const tableB = join(FEEDS_DIR, "NBPB", "001.json");

  it("is refused by the daily adapter, whole", async () => {
    const run = await cli(["import", "NBP", tableB], env, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NBP: table 009\/B\/NBP\/2026 is Table B, NBP's weekly table, not the daily table A/);
    expect(existsSync(join(root, "out", "v1", "Banks", "NBP"))).toBe(false);
  });

  it("is published as NBPB's WeeklyRates, the 2026-03-18 table valid to the 24th", async () => {
    const run = await cli(["import", "NBPB", tableB], env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/NBPB: 348 added/);
    const latest = JSON.parse(
      readFileSync(join(root, "out", "v1", "Banks", "NBPB", "WeeklyRates", "Latest.json"), "utf8"),
    ) as { rates: Record<string, Record<string, { rate: number; validFrom: string; validTo: string }>> };
    expect(Object.keys(latest.rates)).toEqual(["2026-03-18"]);
    expect(latest.rates["2026-03-18"]!.AFN).toEqual({ rate: 0.057745, validFrom: "2026-03-18", validTo: "2026-03-24" });
  });
});

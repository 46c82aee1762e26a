// NBP's Table B through the CLI: `import NBP` recognises the weekly table and publishes it as NBP's Weekly
// rates with their validity; given as NBP's daily table (--frequency daily) it is refused whole, nothing stored.
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
    const run = await cli(["import", "NBP", tableB, "--frequency", "daily"], env, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NBP: table 009\/B\/NBP\/2026 is Table B, NBP's weekly table, not the daily table A/);
    expect(existsSync(join(root, "out", "v1", "Banks", "NBP"))).toBe(false);
  });

  it("is published as NBP's WeeklyRates, the 2026-03-18 table valid to the 24th", async () => {
    const run = await cli(["import", "NBP", tableB], env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/NBP \(Weekly\): 348 added/);
    expect(run.stdout).not.toMatch(/NBPB/);
    const weekly = join(root, "out", "v1", "Banks", "NBP", "WeeklyRates", "Latest.json");
    const latest = JSON.parse(readFileSync(weekly, "utf8")) as {
      bankId: string;
      rates: Record<string, Record<string, { rate: number; validFrom: string; validTo: string }>>;
    };
    expect(latest.bankId).toBe("NBP");
    expect(Object.keys(latest.rates)).toEqual(["2026-03-18"]);
    expect(latest.rates["2026-03-18"]!.AFN).toEqual({ rate: 0.057745, validFrom: "2026-03-18", validTo: "2026-03-24" });
  });

  it("lists no NBPB: the banks list and the published tree name NBP only", () => {
    const list = readFileSync(join(root, "out", "v1", "banks.json"), "utf8");
    expect(list).not.toMatch(/NBPB/);
    expect(existsSync(join(root, "out", "v1", "Banks", "NBPB"))).toBe(false);
  });

  it("is a row of its own in `exrates banks NBP`, named by its frequency", async () => {
    const run = await cli(["banks", "NBP"], env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split(/\s{2,}|\s(?=PLN)/)[0]),
    ).toEqual(["BANK", "NBP", "NBP (Weekly)"]);
    expect(run.stdout).not.toMatch(/NBPB/);
  });

  it("is named by Convert when the daily table lacks the currency", async () => {
    const daily = await cli(["import", "NBP", join(FEEDS_DIR, "NBP", "001.json")], env, 60_000);
    expect(daily.code, daily.stderr).toBe(0);
    const run = await cli(["convert", "NBP", "100", "AFN", "PLN", "--date", "2026-03-03"], env, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "NBP quoted no rate of AFN (not in NBP's daily rates; NBP's Weekly rates quote it, newest 2026-03-18) on 2026-03-03",
    );
  });

  it("refuses NBPB as a bank key, naming NBP's weekly rates", async () => {
    const run = await cli(["import", "NBPB", tableB], env, 60_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NBPB is not a bank key: NBP's Weekly rates are under \/v1\/Banks\/NBP\/WeeklyRates/);
  });
});

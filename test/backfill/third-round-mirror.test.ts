// `exrates backfill` of the banks added in the third round (BFM, RBNZ, BOAL, CBAR, CBTT) through the feed
// mirror, each over the window its recordings cover: every fetch path (one POST per currency, whole files,
// an archive listing then a workbook, one file per day, a span of years) stores and publishes.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BFM_CURRENCIES } from "../../adapters/BFM.js";
import { cli } from "../e2e/support.js";
import { recordings } from "../support/feeds.js";
import { haveMirror, startMirror, type Mirror } from "../support/mirror.js";

interface BankSummary {
  bankId: string;
  stored: number;
  failed: number;
  inserted: number;
  errors: string[];
}

/** Each bank's recorded window. */
const WINDOWS: Array<[bank: string, from: string, to: string]> = [
  ["BFM", "2026-09-21", "2026-09-23"],
  ["RBNZ", "2018-01-03", "2022-08-23"], // the current file (the 1999-2017 one is read in RBNZ.test.ts)
  ["BOAL", "2024-01-03", "2024-12-31"],
  ["CBAR", "2026-10-02", "2026-10-02"],
  ["CBTT", "2026-01-01", "2026-09-08"],
];

describe.skipIf(!haveMirror)("backfill of the third-round banks through the feed mirror", { timeout: 600_000 }, () => {
  let mirror: Mirror;
  let root: string;
  const summaries = new Map<string, BankSummary>();

  beforeAll(async () => {
    mirror = await startMirror(WINDOWS.map(([bank]) => bank));
    root = mkdtempSync(join(tmpdir(), "exrates-third-round-"));
    const env = {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_FEED_MIRROR: mirror.url,
    };
    for (const [bank, from, to] of WINDOWS) {
      const run = await cli(["backfill", bank, "--from", from, "--to", to, "--pause", "0", "--json"], env, 300_000);
      const summary = (JSON.parse(run.stdout) as { banks: BankSummary[] }).banks[0]!;
      summaries.set(bank, summary);
    }
  }, 900_000);
  afterAll(async () => {
    await mirror?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ["CBAR", 42], // the bulletin of 2 October 2026
    ["CBTT", 169 * 7 + 19], // the means of the days with both legs
    ["BOAL", 246 * 16], // 2024's fixing days, CNH (a market code) included
    ["RBNZ", 1164 * 17], // 1,164 days, 17 currencies
  ] as const)("stores %s's recorded window and publishes it", (bank, rows) => {
    const summary = summaries.get(bank)!;
    expect(summary.errors).toEqual([]);
    expect(summary.inserted).toBe(rows);
    expect(existsSync(join(root, "out", "v1", "Banks", bank, "DailyRates", "Latest.json"))).toBe(true);
  });

  it("stores BFM's window when every currency is recorded, and otherwise refuses the answers the mirror serves for the missing ones", () => {
    const summary = summaries.get("BFM")!;
    const recorded = new Set(
      recordings("BFM")
        .filter((r) => r.requestBody?.includes("dateFilterDebut=2026%2F09%2F21"))
        .map((r) => new URLSearchParams(r.requestBody).get("filterData")),
    );
    const missing = BFM_CURRENCIES.filter((c) => !recorded.has(c));
    if (missing.length === 0) {
      expect(summary.inserted).toBe(19 * 3);
      return;
    }
    // The mirror answers an unrecorded form with the first recording on the path (EUR's): the same figures
    // under two codes, which the adapter refuses rather than publish EUR's figures as another currency's.
    expect(summary.failed).toBe(1);
    expect(summary.errors.join()).toMatch(
      new RegExp(`answers for EUR and (${missing.join("|")}) give the same figures`),
    );
  });

  it("publishes the recorded figures (USD per NZD on 23 August 2022, TTD per USD on 8 September 2026)", () => {
    const latest = (bank: string) =>
      JSON.parse(readFileSync(join(root, "out", "v1", "Banks", bank, "DailyRates", "Latest.json"), "utf8")) as {
        rates: Record<string, Record<string, { rate: number }>>;
      };
    expect(readFileSync(join(root, "out", "v1", "Banks", "RBNZ", "DailyRates", "Latest.json"), "utf8")).toContain(
      '"rate": 0.61900',
    );
    expect(Object.keys(latest("RBNZ").rates)).toEqual(["2022-08-23"]);
    expect(readFileSync(join(root, "out", "v1", "Banks", "CBTT", "DailyRates", "Latest.json"), "utf8")).toContain(
      '"rate": 6.75145',
    );
  });
});

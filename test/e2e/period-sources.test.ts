// End to end, without internet: `exrates backfill HMRC UST INFOREURO BIS` through the shared feed mirror
// stores every period source's figures with their validity and publishes each under the path of its
// frequency (MonthlyRates, QuarterlyRates). The mirror answers a query it has no recording of with the
// first recording of the same path, or 404 where the month is in the path (HMRC), so the figures are
// those of the recordings and the months they lack are reported not done (exit code 1, no failure).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { BackfillSummary } from "../../src/backfill/backfill.js";
import { haveMirror } from "../support/mirror.js";
import { testSite, type TestSite } from "../support/server.js";

const BANKS = ["HMRC", "UST", "INFOREURO", "BIS"];

/** Every file under a directory, as paths relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  );
}

describe.skipIf(!haveMirror && process.env.CI !== "true")(
  "the period sources through the feed mirror",
  { timeout: 180_000 },
  () => {
    let site: TestSite;
    let summary: BackfillSummary & { published: string[] };
    let db: BetterSqlite3.Database;

    beforeAll(async () => {
      site = await testSite({ feeds: BANKS, prefix: "exrates-e2e-periods-" });
      const run = await site.cli(
        ["backfill", ...BANKS, "--from", "2025-01-01", "--to", "2026-08-31", "--pause", "0", "--json"],
        {},
        150_000,
      );
      expect([0, 1], run.stderr.slice(-1500)).toContain(run.code);
      summary = JSON.parse(run.stdout) as BackfillSummary & { published: string[] };
      db = new BetterSqlite3(join(site.env.EXRATES_DATA_DIR, "exrates.db"), { readonly: true });
    }, 170_000);
    afterAll(async () => {
      db?.close();
      await site?.close();
    });

    const stored = (bank: string, currency: string) =>
      db
        .prepare(
          "select effective_date, valid_to, rate from rates where bank_id = ? and currency = ? order by effective_date",
        )
        .all(bank, currency) as Array<{ effective_date: string; valid_to: string | null; rate: string }>;

    it("stores and publishes the four sources without a failed chunk", () => {
      expect(summary.totals.failed).toBe(0);
      expect(summary.banks.map((b) => [b.bankId, b.errors.length, b.inserted > 0])).toEqual(
        BANKS.map((id) => [id, 0, true]),
      );
      expect([...summary.published].sort()).toEqual([...BANKS].sort());
    });

    it("stores each source's figures with their validity", () => {
      expect(stored("HMRC", "USD").map((r) => [r.effective_date, r.valid_to])).toEqual([
        ["2025-12-01", "2025-12-31"],
        ["2026-08-01", "2026-08-31"],
      ]);
      expect(stored("UST", "ILS")).toEqual([
        { effective_date: "2026-03-31", valid_to: "2026-06-29", rate: "3.165" },
        { effective_date: "2026-05-29", valid_to: "2026-06-29", rate: "2.807" },
        { effective_date: "2026-06-30", valid_to: "2026-09-29", rate: "2.977" },
      ]);
      // The mirror serves its one InforEuro month (1998-12) for every month asked.
      const dem = stored("INFOREURO", "DEM");
      expect(dem).toHaveLength(20);
      expect(dem[0]).toEqual({ effective_date: "2025-01-01", valid_to: "2025-01-31", rate: "1.96028" });
      expect(stored("BIS", "EUR")).toEqual([
        { effective_date: "2025-01-31", valid_to: "2025-02-27", rate: "0.962186" },
        { effective_date: "2025-02-28", valid_to: "2025-03-30", rate: "0.960523" },
      ]);
    });

    it("publishes each under its frequency's path, with the validity", () => {
      const out = site.env.EXRATES_OUT_DIR;
      const files = filesUnder(out);
      const latest = (bank: string, frequency: string) => {
        const path = files.find((f) => f.endsWith(join("v1", "Banks", bank, `${frequency}Rates`, "Latest.json")));
        expect(path, `${bank} ${frequency}Rates/Latest.json in ${files.length} files`).toBeDefined();
        return readFileSync(join(out, path!), "utf8");
      };
      expect(latest("HMRC", "Monthly")).toMatch(/"validFrom":\s*"2026-08-01"/);
      expect(latest("UST", "Quarterly")).toMatch(/"validTo":\s*"2026-09-29"/);
      expect(latest("INFOREURO", "Monthly")).toMatch(/"validTo":\s*"2026-08-31"/);
      expect(latest("BIS", "Monthly")).toMatch(/"validFrom":\s*"2025-02-28"/);
      expect(files.some((f) => f.includes(join("Banks", "UST", "DailyRates")))).toBe(false);
    });
  },
);

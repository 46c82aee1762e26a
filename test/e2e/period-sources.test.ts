// End to end, without internet: `exrates backfill HMRC UST INFOREURO BIS` through the shared feed mirror
// stores every period source's figures with their validity and publishes each under the path of its
// frequency (MonthlyRates, QuarterlyRates). The mirror answers a query it has no recording of with the
// first recording of the same path, or 404 where the month is in the path or the query (HMRC, InforEuro),
// so the figures are those of the recordings. InforEuro's one recording is of December 1998 and its
// answer names no month, so every month of the range is a 404: those chunks fail (exit code 1), nothing
// of InforEuro is stored as another month's figures and nothing of it is published.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { BackfillSummary } from "../../src/backfill/backfill.js";
import { haveMirror } from "../support/mirror.js";
import { testSite, type TestSite } from "../support/server.js";

const BANKS = ["HMRC", "UST", "INFOREURO", "BIS"];

/** Every file under a directory, as paths relative to it (a bank's directory is a link to a shared one). */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() || (e.isSymbolicLink() && statSync(join(dir, prefix, e.name)).isDirectory())
      ? filesUnder(dir, join(prefix, e.name))
      : [join(prefix, e.name)],
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
      expect(run.code, run.stderr.slice(-1500)).toBe(1);
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

    it("stores and publishes the three recorded sources without a failed chunk", () => {
      const byBank = (id: string) => summary.banks.find((b) => b.bankId === id)!;
      for (const id of ["HMRC", "UST", "BIS"]) {
        expect([id, byBank(id).failed, byBank(id).errors, byBank(id).inserted > 0]).toEqual([id, 0, [], true]);
      }
      expect([...summary.published].sort()).toEqual(["BIS", "HMRC", "UST"]);
    });

    it("leaves no day of a stored month not done: a period source's answers are keyed by the period", () => {
      // HMRC's August is stored at 2026-08-01; the days after it are not dates HMRC keys a month by.
      const hmrc = summary.banks.find((b) => b.bankId === "HMRC")!;
      expect(hmrc.notDone).toEqual([]);
    });

    it("fails the InforEuro months the mirror has no recording of, storing nothing of them", () => {
      const inforeuro = summary.banks.find((b) => b.bankId === "INFOREURO")!;
      expect([inforeuro.stored, inforeuro.inserted, inforeuro.failed]).toEqual([0, 0, 3]);
      expect(summary.totals.failed).toBe(3);
      // Each failed chunk names the month asked and the mirror's 404; then the backfill gives up on the bank.
      const chunks = ["2025-01-01..2025-04-02", "2025-04-03..2025-07-03", "2025-07-04..2025-10-03"];
      expect(inforeuro.errors).toHaveLength(4);
      chunks.forEach((chunk, i) => {
        const month = `year=2025&month=${1 + 3 * i}`;
        expect(inforeuro.errors[i]).toMatch(
          new RegExp(`^${chunk.replace(/\./g, "\\.")}: https://\\S+\\?\\S*${month}: HTTP 404$`),
        );
      });
      expect(inforeuro.errors[3]).toMatch(
        /^gave up on INFOREURO after 3 failed chunks in a row; run the backfill again/,
      );
      expect(stored("INFOREURO", "DEM")).toEqual([]);
      expect(db.prepare("select count(*) as n from rates where bank_id = 'INFOREURO'").get()).toEqual({ n: 0 });
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
      expect(latest("BIS", "Monthly")).toMatch(/"validFrom":\s*"2025-02-28"/);
      expect(files.some((f) => f.includes(join("Banks", "UST", "DailyRates")))).toBe(false);
      expect(files.some((f) => f.includes(join("Banks", "INFOREURO", "MonthlyRates")))).toBe(false);
    });
  },
);

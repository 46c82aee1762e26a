// End to end, without internet: the built CLI against the shared feed mirror (child process) and a
// slow mirror written here. backfill, then start; a client reads Latest in four formats with the
// recorded values; kill -9 in the middle of a backfill and resume; SIGTERM on a busy daemon.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { addDays, weekday } from "../../src/feed/dates.js";
import { FEEDS, haveMirror } from "../support/mirror.js";
import { testSite, type TestSite } from "../support/server.js";
import { LAST, cli, finished, jpyRate, spawnCli, startSlowMirror, usdRate, waitFor } from "./support.js";

const dirs: string[] = [];
function tempDirs() {
  const root = mkdtempSync(join(tmpdir(), "exrates-e2e-"));
  dirs.push(root);
  return { root, EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out") };
}

function integrity(dataDir: string): string {
  const db = new BetterSqlite3(join(dataDir, "exrates.db"), { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("bad input changes nothing", () => {
  it.each([
    [["backfill", "NOPE"], /^exrates: unknown bank "NOPE" \(known: .*ECB.*\)\n$/],
    [["backfill", "ECB", "--from", "2026-02-30"], /^exrates: --from "2026-02-30" is not a date \(YYYY-MM-DD\)\n$/],
    [
      ["backfill", "ECB", "--from", "2026-03-05", "--to", "2026-03-01"],
      /^exrates: --from 2026-03-05 is after --to 2026-03-01\n$/,
    ],
    [["ingest", "NOPE"], /^exrates: unknown bank "NOPE"/],
  ])("exrates %j", async (args, message) => {
    const env = tempDirs();
    const result = await cli(args, {
      EXRATES_DATA_DIR: env.EXRATES_DATA_DIR,
      EXRATES_OUT_DIR: env.EXRATES_OUT_DIR,
      EXRATES_FEED_MIRROR: "http://127.0.0.1:9",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(readdirSync(env.root)).toEqual([]); // no database, no tree
  });
});

describe.skipIf(!haveMirror)("backfill then start, through the shared feed mirror", { timeout: 90_000 }, () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await testSite({ feeds: ["ECB", "CNB", "CBR"], prefix: "exrates-e2e-" });
  });
  afterAll(() => site?.close());

  it("loads the reference banks, serves Latest in four formats with the recorded values, and stops on SIGTERM", async () => {
    const env = site.env;
    // Each bank over a window its recordings hold (CNB's end on 2026-02-25): a range is done only as far
    // as the answer contained it, so a window past the recordings would rightly not be done.
    const runs = [
      ["backfill", "ECB", "CBR", "--from", "2026-03-01", "--to", "2026-03-05", "--pause", "0", "--json"],
      ["backfill", "CNB", "--from", "2026-02-16", "--to", "2026-02-25", "--pause", "0", "--json"],
    ];
    type Summary = { totals: { failed: number; inserted: number; stored: number }; published: string[] };
    const summaries: Summary[] = [];
    const chunkLines: string[] = [];
    for (const args of runs) {
      const first = await site.cli(args);
      expect(first.code, first.stderr).toBe(0);
      summaries.push(JSON.parse(first.stdout) as Summary);
      // One JSON log line per chunk when stderr is not a terminal.
      chunkLines.push(...first.stderr.split("\n").filter((l) => l.includes('"event":"backfill-chunk"')));
    }
    expect(summaries.map((s) => s.totals)).toMatchObject([
      { failed: 0, stored: 2 },
      { failed: 0, stored: 1 },
    ]);
    expect(summaries[0]!.totals.inserted + summaries[1]!.totals.inserted).toBeGreaterThan(1000);
    expect(summaries.map((s) => s.published)).toEqual([["CBR", "ECB"], ["CNB"]]);
    expect(chunkLines).toHaveLength(3);
    expect(JSON.parse(chunkLines[0]!)).toMatchObject({ status: "stored", total: 2 });

    // Again: every chunk is done already, nothing is fetched or changed.
    for (const [i, args] of runs.entries()) {
      const again = await site.cli(args);
      expect((JSON.parse(again.stdout) as { totals: unknown }).totals).toMatchObject({
        skipped: i === 0 ? 2 : 1,
        inserted: 0,
        revised: 0,
        failed: 0,
      });
    }

    const daemon = await site.start({
      ready: (o) => o.stdout.includes("client_secret:") && o.stderr.includes('"msg":"serving"'),
    });
    try {
      const url = daemon.url;
      const secret = daemon.client!.secret;
      expect(daemon.out.stdout).toContain("curl -s -d grant_type=client_credentials -d client_id=exrates-client");
      // One summary line for the schedule, not one entry per bank above the secret.
      expect(daemon.out.stderr).toMatch(/"msg":"scheduled \d+ of \d+ banks /);
      expect(daemon.out.stderr).not.toContain('"msg":"scheduled"');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const tokenRes = await fetch(`${url}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "exrates-client",
          client_secret: secret,
          scope: "exchange-rates",
        }),
      });
      expect(tokenRes.status).toBe(200);
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };
      const get = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });

      // The recorded values: ECB USD on 2026-03-18 and CNB JPY (per 100) on 2026-02-25.
      const ecbUsd = /^D,USD,2026-03-18,([\d.]+)$/m.exec(readFileSync(join(FEEDS, "ECB", "002.csv"), "utf8"))![1]!;
      const cnbJpy = /"currencyCode":"JPY","amount":100,"validFor":"2026-02-25","rate":([\d.]+)/.exec(
        readFileSync(join(FEEDS, "CNB", "001.json"), "utf8"),
      )![1]!;

      const json = await get("/v1/Banks/ECB/DailyRates/Latest.json");
      expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const jsonText = await json.text();
      expect(jsonText).toContain('"2026-03-18"');
      expect(jsonText).toMatch(new RegExp(`"USD": \\{\\s*"rate": ${ecbUsd.replace(".", "\\.")}\\s*\\}`));

      const xml = await (await get("/v1/Banks/ECB/DailyRates/Latest.xml")).text();
      expect(xml).toContain('<Rates effectiveDate="2026-03-18">');
      expect(xml).toContain(`<Rate currency="USD" value="${ecbUsd}"/>`);

      const csv = await (await get("/v1/Banks/CNB/DailyRates/Latest.csv")).text();
      expect(csv.split(/\r?\n/)).toContain(`CNB,JPY,CZK,2026-02-25,${cnbJpy},100`);

      const xlsx = await get("/v1/Banks/ECB/DailyRates/Latest.xlsx");
      expect(xlsx.headers.get("content-type")).toBe(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      workbook.getWorksheet("Rates")!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const usd = rows.find((r) => r.includes("USD"))!;
      expect(usd).toContain(Number(ecbUsd));

      const status = (await (await get("/v1/status")).json()) as {
        banks: Array<{ id: string; newestDate: string | null; scheduled: boolean; nextRunAt: string | null }>;
      };
      expect(status.banks.find((b) => b.id === "ECB")).toMatchObject({ newestDate: "2026-03-18", scheduled: true });
      expect(status.banks.find((b) => b.id === "ECB")!.nextRunAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await fetch(`${url}/v1/status`)).status).toBe(401);
    } finally {
      const stopping = Date.now();
      const end = await daemon.stop("SIGTERM", 15_000);
      expect(end.code, end.stderr.slice(-1500)).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(10_000);
    }
    expect(integrity(env.EXRATES_DATA_DIR)).toBe("ok");
  });
});

describe("crash safety", { timeout: 90_000 }, () => {
  it("a backfill killed with SIGKILL part way resumes and stores each (bank, date, currency) once with the right value", async () => {
    const slow = await startSlowMirror(120);
    try {
      const env = { ...tempDirs(), EXRATES_FEED_MIRROR: slow.url };
      const args = ["backfill", "CNB", "--from", "2012-01-01", "--pause", "0", "--json"];
      const doomed = spawnCli(args, env);
      try {
        await waitFor(doomed, (o) => (o.stderr.match(/"status":"stored"/g) ?? []).length >= 4, 60_000);
      } finally {
        process.kill(doomed.pid!, "SIGKILL");
      }
      const killed = await finished(doomed);
      expect(killed.signal).toBe("SIGKILL");
      const storedBefore = (killed.stderr.match(/"status":"stored"/g) ?? []).length;

      const resumed = await cli(args, env);
      expect(resumed.code, resumed.stderr.slice(-1500)).toBe(0);
      const summary = JSON.parse(resumed.stdout) as {
        totals: { chunks: number; skipped: number; stored: number; failed: number; revised: number };
      };
      expect(summary.totals.skipped).toBeGreaterThanOrEqual(storedBefore);
      expect(summary.totals.skipped + summary.totals.stored).toBe(summary.totals.chunks);
      expect(summary.totals).toMatchObject({ failed: 0, revised: 0 });

      expect(integrity(env.EXRATES_DATA_DIR)).toBe("ok");
      const db = new BetterSqlite3(join(env.EXRATES_DATA_DIR, "exrates.db"), { readonly: true });
      try {
        const rows = db
          .prepare(
            "select effective_date as d, currency as c, rate, unit_multiplier as u from rates where bank_id = 'CNB' order by 1, 2",
          )
          .all() as Array<{ d: string; c: string; rate: string; u: number }>;
        let weekdays = 0;
        for (let d = "2012-01-01"; d <= LAST; d = addDays(d, 1)) if (weekday(d) <= 5) weekdays++;
        expect(rows.length).toBe(weekdays * 2);
        expect(new Set(rows.map((r) => `${r.d} ${r.c}`)).size).toBe(rows.length);
        const wrong = rows.filter(
          (r) => r.rate !== (r.c === "USD" ? usdRate(r.d) : jpyRate(r.d)) || r.u !== (r.c === "JPY" ? 2 : 0),
        );
        expect(wrong).toEqual([]);
        expect(db.prepare("select count(*) from rate_revisions").pluck().get()).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      slow.server.closeAllConnections();
      slow.server.close();
    }
  });

  it("SIGTERM on a busy daemon exits 0 within 10 s with the database intact", async () => {
    const slow = await startSlowMirror(30_000); // every feed hangs: each catch-up is in flight
    try {
      const site = await testSite({ env: { EXRATES_FEED_MIRROR: slow.url }, prefix: "exrates-e2e-" });
      const env = site.env;
      try {
        const daemon = await site.start({
          ready: (o) => o.stderr.includes('"msg":"serving"') && o.stderr.includes("catching up"),
        });
        await waitFor(daemon.child, () => slow.requests() >= 2);
        const stopping = Date.now();
        const end = await daemon.stop("SIGTERM", 15_000);
        const took = Date.now() - stopping;
        expect(end.code, end.stderr.slice(-1500)).toBe(0);
        expect(took).toBeLessThan(10_000);
        expect(end.stderr).toContain("abandoned runs in flight");
        expect(integrity(env.EXRATES_DATA_DIR)).toBe("ok");
      } finally {
        await site.close();
      }
    } finally {
      slow.server.closeAllConnections();
      slow.server.close();
    }
  });
});

// The operator's edges, end to end with the built CLI and a slow CNB-shaped mirror: an interrupted or
// unpublished backfill is published, Ctrl-C names what it waits for, the progress bar leaves nothing
// behind on a terminal, and a second daemon on one data directory is refused while the first lives.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CLI } from "../support/cli.js";
import { screen } from "../backfill/screen.js";
import { testSite } from "../support/server.js";
import { cli, finished, spawnCli, startSlowMirror, waitFor } from "./support.js";

const dirs: string[] = [];
function tempDirs() {
  const root = mkdtempSync(join(tmpdir(), "exrates-op-"));
  dirs.push(root);
  return { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out") };
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The date of CNB's published Latest.json. */
const latestDate = (outDir: string) =>
  Object.keys(
    (JSON.parse(readFileSync(join(outDir, "v1/Banks/CNB/DailyRates/Latest.json"), "utf8")) as { rates: object }).rates,
  )[0];

interface Summary {
  interrupted: boolean;
  published: string[];
  totals: { stored: number; skipped: number; chunks: number };
}

describe("backfill publishes what it stored", { timeout: 90_000 }, () => {
  let slow: Awaited<ReturnType<typeof startSlowMirror>>;
  let fast: Awaited<ReturnType<typeof startSlowMirror>>;
  beforeAll(async () => {
    slow = await startSlowMirror(1500);
    fast = await startSlowMirror(0);
  });
  afterAll(() => {
    for (const m of [slow, fast]) {
      m?.server.closeAllConnections();
      m?.server.close();
    }
  });

  it("a rerun publishes what an earlier run stored without publishing (killed, or --no-publish)", async () => {
    const env = { ...tempDirs(), EXRATES_FEED_MIRROR: fast.url };
    const args = ["backfill", "CNB", "--from", "2024-01-01", "--to", "2025-06-30", "--pause", "0", "--json"];
    const unpublished = await cli([...args, "--no-publish"], env);
    expect(unpublished.code, unpublished.stderr).toBe(0);
    expect((JSON.parse(unpublished.stdout) as Summary).published).toEqual([]);

    const again = await cli(args, env);
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout) as Summary;
    expect(summary.totals).toMatchObject({ stored: 0, skipped: 2 }); // nothing fetched this time
    expect(summary.published).toEqual(["CNB"]);
    expect(latestDate(env.EXRATES_OUT_DIR)).toBe("2025-12-31"); // CNB answers whole years

    const third = await cli(args, env);
    expect((JSON.parse(third.stdout) as Summary).published).toEqual([]); // the tree is up to date
  });

  it("Ctrl-C says at once which chunk it waits for, then publishes what was stored and exits 130", async () => {
    const env = { ...tempDirs(), EXRATES_FEED_MIRROR: slow.url };
    const child = spawnCli(["backfill", "CNB", "--from", "2016-01-01", "--pause", "0", "--json"], env);
    const stored = (s: string) => (s.match(/"status":"stored"/g) ?? []).length;
    try {
      await waitFor(child, (o) => stored(o.stderr) >= 1, 60_000);
    } catch (error) {
      process.kill(child.pid!, "SIGKILL");
      throw error;
    }
    process.kill(child.pid!, "SIGINT");
    await waitFor(child, (o) => o.stderr.includes("exrates: SIGINT"), 10_000);
    const end = await finished(child, 60_000);
    expect(end.code, end.stderr.slice(-1500)).toBe(130);
    const notice = end.stderr.split("\n").find((l) => l.startsWith("exrates: SIGINT"))!;
    expect(notice).toMatch(
      /^exrates: SIGINT: stopping: waiting for the chunk in flight to finish: CNB 2017-01-01\.\.2018-01-01 \(fetching for \d+s\); then publishing what was stored; again to quit at once$/,
    );
    // Said before the chunk it names ended.
    const after = end.stderr.slice(end.stderr.indexOf(notice));
    expect(after).toMatch(/"status":"stored".*"from":"2017-01-01"/);
    const summary = JSON.parse(end.stdout) as Summary;
    expect(summary).toMatchObject({ interrupted: true, published: ["CNB"] });
    expect(summary.totals.stored).toBe(2);
    expect(latestDate(env.EXRATES_OUT_DIR)).toBe("2018-12-31"); // CNB answers whole years
  });

  it.skipIf(spawnSync("script", ["--version"]).status !== 0)(
    "on a terminal the bar shows the chunk in progress and is gone before the summary",
    async () => {
      const env = { ...process.env, ...tempDirs(), EXRATES_FEED_MIRROR: fast.url, LOG_LEVEL: "warn" };
      const command = `${process.execPath} ${CLI} backfill CNB --from 2024-01-01 --to 2025-06-30 --pause 0`;
      // util-linux `script` runs the command on a pseudo-terminal and copies what it writes.
      const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["ignore", "pipe", "inherit"] });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      const status = await new Promise<number | null>((res) => child.on("exit", res));
      const run = { status, stdout: output };
      expect(run.status, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/0\/2 chunks \| now CNB 2024-01-01\.\.2024-12-31 \|/);
      const shown = screen(run.stdout);
      expect(shown.filter((l) => l.includes("chunks |"))).toEqual([]);
      expect(shown[0]).toMatch(/^BANK +FROM +TO +CHUNKS/);
      expect(shown.at(-1)).toBe("published: CNB");
    },
  );
});

describe("one daemon per data directory", { timeout: 90_000 }, () => {
  it("a second `exrates start` names the running one and exits 1; after kill -9 the next one starts", async () => {
    // Feeds that do not answer: the daemons only need to run.
    const site = await testSite({ env: { EXRATES_FEED_MIRROR: "http://127.0.0.1:9" }, prefix: "exrates-op-" });
    const env = site.env;
    try {
      const first = await site.start({ ready: (o) => o.stdout.includes("exrates started") });
      const url = first.url;
      const second = await site.cli(["start"]);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `exrates: another exrates daemon is running on the data directory ${env.EXRATES_DATA_DIR}: pid ${first.child.pid} on ${/on (\S+) \(since/.exec(second.stderr)?.[1]} (since ${/since (\S+),/.exec(second.stderr)?.[1]}, serving ${url}); stop it first, or give this one another EXRATES_DATA_DIR\n`,
      );
      expect(second.stdout).toBe("");

      await first.kill();
      const third = await site.start({ ready: (o) => o.stdout.includes("exrates started") });
      // The exit code and signal together, with what it wrote last: a run once saw no exit code here.
      const stopped = await third.stop("SIGTERM", 15_000);
      expect({ code: stopped.code, signal: stopped.signal }, stopped.stderr.slice(-2000)).toEqual({
        code: 0,
        signal: null,
      });
    } finally {
      await site.close();
    }
  });
});

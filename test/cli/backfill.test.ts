// `exrates backfill` as a user runs it, through the recordings' mirror: a range whose answer does not
// contain it is said to be not done (exit 1) and fetched again by the next run, and --force fetches
// again what an earlier run recorded.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";
import { haveMirror, startMirror, type Mirror } from "../support/mirror.js";

const roots: string[] = [];
function dirs(): Record<string, string> {
  const root = mkdtempSync(join(tmpdir(), "exrates-backfill-cli-"));
  roots.push(root);
  return { EXRATES_DATA_DIR: join(root, "data"), EXRATES_OUT_DIR: join(root, "out") };
}
/** The mirror's log lines, once the event loop (blocked by spawnSync) has read them. */
async function servedCount(mirror: Mirror): Promise<number> {
  await new Promise((r) => setTimeout(r, 300));
  return mirror.served().length;
}

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe.skipIf(!haveMirror)("backfill through the mirror", { timeout: 120_000 }, () => {
  let mirror: Mirror;
  beforeAll(async () => {
    mirror = await startMirror(["CNB"]);
  });
  afterAll(async () => {
    await mirror?.stop();
  });

  it("CNB for 2026-03-01..05 answered with January and February: not done, exit 1, fetched again next time", async () => {
    const env = { ...dirs(), EXRATES_FEED_MIRROR: mirror.url };
    const args = ["backfill", "CNB", "--from", "2026-03-01", "--to", "2026-03-05", "--pause", "0"];
    const first = exrates(args, env);
    expect(first.status, first.stderr).toBe(1);
    expect(first.stdout).toContain(
      "not done (fetched, but the answer did not contain these dates; the next run fetches them again):\n" +
        "  CNB 2026-03-02..2026-03-05: the answer contained none of these dates (it contained 2026-01-02 to 2026-02-25)",
    );
    const served = await servedCount(mirror);
    const second = exrates(args, env);
    expect(second.status).toBe(1);
    // One verdict: fetched again (not SKIPPED), NOT-DONE and not also DONE.
    expect(second.stdout).toMatch(/^BANK +FROM +TO +CHUNKS +DONE +NOT-DONE +SKIPPED +FAILED /m);
    expect(second.stdout).toMatch(/^CNB +2026-03-01 2026-03-05 1 +0 +1 +0 +0 /m);
    expect(await servedCount(mirror)).toBe(served + 1);
  });

  it("--force fetches a range recorded as done", async () => {
    const env = { ...dirs(), EXRATES_FEED_MIRROR: mirror.url };
    const args = ["backfill", "CNB", "--from", "2026-02-02", "--to", "2026-02-06", "--pause", "0", "--json"];
    expect(exrates(args, env).status).toBe(0);
    // Rerunning a finished backfill: a no-op, exit 0.
    const rerun = exrates(args, env);
    expect(rerun.status, rerun.stderr).toBe(0);
    const again = JSON.parse(rerun.stdout) as { totals: { skipped: number; stored: number } };
    expect(again.totals).toMatchObject({ skipped: 1, stored: 0, unfinished: 0, notDone: 0, failed: 0 });
    const served = await servedCount(mirror);
    const forced = exrates([...args, "--force"], env);
    expect(forced.status, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as { totals: object }).totals).toMatchObject({ skipped: 0, stored: 1 });
    expect(await servedCount(mirror)).toBe(served + 1);
  });
});

describe("a range with nothing of the bank is refused, naming its coverage", () => {
  it.each([
    [
      ["ECB", "--from", "1990-01-01", "--to", "1990-01-31"],
      "ECB covers 1999-01-04 onward: 1990-01-01..1990-01-31 is before it",
    ],
    [
      ["BBK", "--from", "2025-01-01", "--to", "2025-12-31"],
      "BBK covers 1948-06-21 to 1998-12-31 (its feed ends there): 2025-01-01..2025-12-31 is after it",
    ],
    [
      ["CNB", "--from", "2099-01-01"],
      /^CNB: --from 2099-01-01 is in the future \(today in Europe\/Prague is \d{4}-\d\d-\d\d\)$/,
    ],
  ])("exrates backfill %j: one line, exit 1, nothing created", (args, message) => {
    const env = dirs();
    const r = exrates(["backfill", ...args], env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().replace(/^exrates: /, "")).toMatch(
      typeof message === "string" ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : message,
    );
    expect(existsSync(env.EXRATES_DATA_DIR!)).toBe(false);
  });
});

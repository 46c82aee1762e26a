// A publish on a full disk (a small tmpfs of our own, mounted and unmounted by this test; skipped with
// the reason when mount is refused): it fails with one line naming the file, the old tree keeps serving,
// nothing of the new generation is left, and the next publish once there is room completes. A current
// generation left unreadable by an earlier version is repaired by the next publish, and pruning never
// removes the last good one. `exrates start` on a full data directory says so in one line.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statfsSync,
  symlinkSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { publish } from "../support/unsigned.js";
import { GENERATIONS_DIR, pruneGenerations, readCurrentGeneration } from "../../src/publish/tree.js";
import { exrates } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const root = mkdtempSync(join(tmpdir(), "exrates-full-"));
const mnt = join(root, "mnt");
let mounted: string | undefined;
let refused = "";

beforeAll(() => {
  mkdirSync(mnt);
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=400k", "tmpfs", mnt], { encoding: "utf8" });
  if (r.status === 0) mounted = mnt;
  else refused = (r.stderr || r.error?.message || "mount failed").trim();
});
afterAll(() => {
  if (mounted) spawnSync("umount", [mounted]);
  rmSync(root, { recursive: true, force: true });
});

/** Fills the file system of `dir` up to `leave` bytes free. */
function fill(dir: string, leave: number): string {
  const fs = statfsSync(dir);
  const filler = join(dir, "filler");
  writeFileSync(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - leave)));
  return filler;
}

const AAA = testBank("AAA");
const BBB = testBank("BBB");
const usd = (date: string, rate: string) => [{ effectiveDate: date, currency: "USD", rate }];

describe("publish on a full disk", { timeout: 120_000 }, () => {
  it("fails naming the file, keeps the old tree and its manifest, leaves nothing half written", async (ctx) => {
    ctx.skip(!mounted, `cannot mount a tmpfs to fill: ${refused}`);
    const t = await tempStore();
    try {
      const out = join(mounted!, "out");
      storeRates(t.store, "AAA", usd("2026-03-02", "20.1"));
      storeRates(t.store, "BBB", usd("2026-03-02", "1.1"));
      const first = await publish(t.store, [AAA, BBB], out);
      storeRates(t.store, "AAA", usd("2026-03-03", "20.2"));
      const filler = fill(mounted!, 8 * 1024);

      const failed = publish(t.store, [AAA, BBB], out);
      await expect(failed).rejects.toMatchObject({ code: "ENOSPC" });
      await expect(failed).rejects.toHaveProperty("path", expect.stringContaining(join(out, GENERATIONS_DIR)));
      expect(readlinkSync(join(out, "current"))).toBe(join(GENERATIONS_DIR, first.generation));
      expect((await readCurrentGeneration(out))!.manifest.banks.AAA!.effectiveDate).toBe("2026-03-02");
      expect(readdirSync(join(out, GENERATIONS_DIR))).toEqual([first.generation]);

      rmSync(filler);
      const next = await publish(t.store, [AAA, BBB], out);
      expect(next.rendered).toEqual(["AAA"]);
      expect((await readCurrentGeneration(out))!.manifest.banks.AAA!.effectiveDate).toBe("2026-03-03");
    } finally {
      await t.cleanup();
      rmSync(join(mounted ?? root, "out"), { recursive: true, force: true });
    }
  });

  it("exrates publish: one line and exit 1; exrates start on a full data directory: one line", (ctx) => {
    ctx.skip(!mounted, `cannot mount a tmpfs to fill: ${refused}`);
    const data = join(root, "data");
    const out = join(mounted!, "out-cli");
    const env = { EXRATES_DATA_DIR: data, EXRATES_OUT_DIR: out };
    expect(exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json"), "--no-publish"], env).status).toBe(0);
    const filler = fill(mounted!, 8 * 1024);
    try {
      const r = exrates(["publish"], env);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^exrates: cannot (write|open) ${join(out, GENERATIONS_DIR)}/\\S+: no space left on the device \\(EXRATES_OUT_DIR is ${out}\\)\\n$`,
        ),
      );
      const start = exrates(["start"], {
        EXRATES_DATA_DIR: join(mounted!, "data"),
        EXRATES_OUT_DIR: out,
        EXRATES_PORT: "0",
      });
      expect(start.status).toBe(1);
      expect(start.stderr).toMatch(
        new RegExp(
          `^exrates: no space left on the device of ${join(mounted!, "data")} \\(EXRATES_DATA_DIR\\): \\d+ KiB free, at least 1 MiB needed; free some space and start again\\n$`,
        ),
      );
    } finally {
      rmSync(filler);
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("a current generation an earlier version left unreadable", () => {
  it("is repaired by the next publish, carrying from the last good one; pruning keeps that one", async () => {
    const t = await tempStore();
    try {
      const out = join(t.dir, "out");
      storeRates(t.store, "AAA", usd("2026-03-02", "20.1"));
      storeRates(t.store, "BBB", usd("2026-03-02", "1.1"));
      const good = await publish(t.store, [AAA, BBB], out);
      // What a publish on a full disk used to leave: a truncated manifest, already current.
      const broken = `${good.generation.slice(0, 8)}T999999999Z-1-broken`;
      mkdirSync(join(out, GENERATIONS_DIR, broken));
      writeFileSync(join(out, GENERATIONS_DIR, broken, "manifest.json"), '{"generation":"');
      symlinkSync(join(GENERATIONS_DIR, broken), join(out, "current.tmp"));
      renameSync(join(out, "current.tmp"), join(out, "current"));

      await pruneGenerations(out, 0);
      expect(existsSync(join(out, GENERATIONS_DIR, good.generation))).toBe(true);

      storeRates(t.store, "AAA", usd("2026-03-03", "20.2"));
      const repaired = await publish(t.store, [AAA, BBB], out, { only: ["AAA"] });
      expect(repaired).toMatchObject({ rendered: ["AAA"], carried: ["BBB"] });
      const { manifest } = (await readCurrentGeneration(out))!;
      expect(manifest.banks.BBB!.effectiveDate).toBe("2026-03-02");
      expect(readFileSync(join(out, "v1/Banks/BBB/DailyRates/Latest.csv"), "utf8")).toContain("1.1");
    } finally {
      await t.cleanup();
    }
  });
});

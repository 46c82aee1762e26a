// Pruning: a generation beyond the kept ones leaves .generations in one rename as the publish ends,
// and its files are deleted after (the next publish waits for that before writing). Whatever a crash
// leaves half deleted goes with the next prune; the generations in use are never touched.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { latestPath, publish } from "../support/unsigned.js";
import {
  GENERATIONS_DIR,
  PRUNED_DIR,
  prunedRemoved,
  readCurrentGeneration,
  removeGeneration,
} from "../../src/publish/tree.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
const AAA = testBank("AAA");
const BBB = testBank("BBB");

beforeEach(async () => {
  ctx = await tempStore();
  out = join(ctx.dir, "out");
  storeRates(ctx.store, "BBB", [{ effectiveDate: "2026-03-02", currency: "USD", rate: "1.0850" }]);
});
afterEach(async () => {
  await prunedRemoved(out);
  await ctx.cleanup();
});

/** A publish after AAA's rates of a new day. */
async function publishDay(day: number) {
  storeRates(
    ctx.store,
    "AAA",
    [{ effectiveDate: `2026-03-${day}`, currency: "EUR", rate: `24.${day}` }],
    new Date(`2026-03-${day}T13:31:00Z`),
  );
  return publish(ctx.store, [AAA, BBB], out);
}

const generations = () => readdirSync(join(out, GENERATIONS_DIR)).sort();
const pruned = () => (existsSync(join(out, PRUNED_DIR)) ? readdirSync(join(out, PRUNED_DIR)) : []);

describe("pruning", () => {
  it("moves the generation out at once and deletes it after; the kept ones are whole", async () => {
    for (const day of [10, 11, 12]) await publishDay(day);
    const before = generations();
    expect(before).toHaveLength(3);
    const result = await publishDay(13);
    // The oldest left .generations before the publish resolved.
    expect(generations()).toEqual([...before.slice(1), result.generation]);
    await prunedRemoved(out);
    expect(pruned()).toEqual([]);
    // The kept generations still hold every file their manifests list (the carried BBB shares inodes).
    for (const name of generations()) {
      const dir = join(out, GENERATIONS_DIR, name);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
        files: Record<string, { bytes: number }>;
      };
      for (const [path, file] of Object.entries(manifest.files))
        expect(readFileSync(join(dir, path)).length, `${name}/${path}`).toBe(file.bytes);
    }
    expect(readFileSync(join(out, latestPath("AAA", "csv")), "utf8")).toContain("2026-03-13,24.13");
  });

  it("removes what a crash left half deleted in the pruned directory with the next prune", async () => {
    for (const day of [10, 11]) await publishDay(day);
    // A generation cut short while being deleted: some files gone, its manifest still there, an extra file.
    const { dir } = (await readCurrentGeneration(out))!;
    const leftover = join(out, PRUNED_DIR, "20260101T000000000Z-1-crash1");
    mkdirSync(join(leftover, "v1/Banks/AAA/DailyRates"), { recursive: true });
    writeFileSync(join(leftover, "manifest.json"), readFileSync(join(dir, "manifest.json")));
    writeFileSync(join(leftover, "v1/Banks/AAA/DailyRates/Latest.json"), "{}");
    writeFileSync(join(leftover, "v1/Banks/AAA/DailyRates/unlisted.tmp"), "x");
    // And one without a manifest.
    mkdirSync(join(out, PRUNED_DIR, "20260101T000000000Z-1-crash2/v1"), { recursive: true });
    await publishDay(12);
    await prunedRemoved(out);
    expect(pruned()).toEqual([]);
    expect(generations()).toHaveLength(3);
  });

  it("removeGeneration deletes a generation with files its manifest does not list, and one without a manifest", async () => {
    await publishDay(10);
    const { dir } = (await readCurrentGeneration(out))!;
    const copy = join(ctx.dir, "copy");
    mkdirSync(join(copy, "v1/extra"), { recursive: true });
    writeFileSync(join(copy, "manifest.json"), readFileSync(join(dir, "manifest.json")));
    writeFileSync(join(copy, "v1/extra/file.txt"), "x");
    await removeGeneration(copy);
    expect(existsSync(copy)).toBe(false);
    mkdirSync(join(copy, "a/b"), { recursive: true });
    writeFileSync(join(copy, "a/b/c"), "x");
    await removeGeneration(copy);
    expect(existsSync(copy)).toBe(false);
  });
});

// A bank's directory of Latest files is written once into out/.shared and linked by every generation
// that carries the bank unchanged (one link, not one per file). Pruning removes a shared directory once
// no kept generation links it, and never the files through a link; a failed publish's own shared
// directories go with it; a tree of the earlier layout (a real directory per generation) is carried.
import { cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { latestPath, publish } from "../support/unsigned.js";
import { LocalTreeTarget } from "../../src/publish/target.js";
import {
  GENERATIONS_DIR,
  SHARED_DIR,
  prunedRemoved,
  readCurrentGeneration,
  type Manifest,
} from "../../src/publish/tree.js";
import { verifyDirectory } from "../../src/publish/verify.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
const AAA = testBank("AAA");
const BBB = testBank("BBB");

beforeEach(async () => {
  ctx = await tempStore();
  out = join(ctx.dir, "out");
  storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" }]);
  storeRates(ctx.store, "BBB", [{ effectiveDate: "2026-03-02", currency: "USD", rate: "1.0850" }]);
});
afterEach(async () => {
  await prunedRemoved(out);
  await ctx.cleanup();
});

/** A publish after AAA's rates of a new day (BBB unchanged). */
async function publishDay(day: number) {
  const date = `2026-03-${String(day).padStart(2, "0")}`;
  storeRates(
    ctx.store,
    "AAA",
    [{ effectiveDate: date, currency: "EUR", rate: `24.${day}` }],
    new Date(`${date}T13:31:00Z`),
  );
  return publish(ctx.store, [AAA, BBB], out);
}

const generations = () => readdirSync(join(out, GENERATIONS_DIR)).sort();
const linkOf = (dir: string, id: string) => readlinkSync(join(dir, "v1/Banks", id));

/** Every file a generation's manifest lists, read through its links, at its listed size. */
function expectWhole(dir: string) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  for (const [path, file] of Object.entries(manifest.files)) {
    expect(readFileSync(join(dir, path)).length, path).toBe(file.bytes);
    for (const suffix of file.encodings.map((e) => (e === "br" ? ".br" : ".gz")))
      expect(readFileSync(join(dir, path + suffix)).length, path + suffix).toBeGreaterThan(0);
  }
}

describe("banks' directories shared between generations", () => {
  it("links an unchanged bank's directory whole and writes a changed one anew", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const first = (await readCurrentGeneration(out))!;
    await publishDay(3);
    const now = (await readCurrentGeneration(out))!;
    expect(lstatSync(join(now.dir, "v1/Banks/BBB")).isSymbolicLink()).toBe(true);
    expect(linkOf(now.dir, "BBB")).toBe(linkOf(first.dir, "BBB"));
    expect(linkOf(now.dir, "AAA")).not.toBe(linkOf(first.dir, "AAA"));
    expect(realpathSync(join(now.dir, "v1/Banks/AAA"))).toBe(
      join(realpathSync(out), SHARED_DIR, `AAA.${now.manifest.generation}`),
    );
    expect(readFileSync(join(out, latestPath("AAA", "csv")), "utf8")).toContain("2026-03-03");
    expectWhole(now.dir);
    expect((await verifyDirectory(out)).problems).toEqual([]);
  });

  it("prunes a shared directory once no kept generation links it, never the files through a link", async () => {
    for (const day of [10, 11, 12, 13, 14]) await publishDay(day);
    await prunedRemoved(out);
    const kept = generations();
    expect(kept).toHaveLength(3);
    const linked = kept.flatMap((g) => ["AAA", "BBB"].map((id) => linkOf(join(out, GENERATIONS_DIR, g), id)));
    expect(readdirSync(join(out, SHARED_DIR)).sort()).toEqual(
      [...new Set(linked.map((l) => l.split("/").pop()!))].sort(),
    );
    // BBB never changed: the directory its first publish wrote is linked by every kept generation.
    expect(new Set(kept.map((g) => linkOf(join(out, GENERATIONS_DIR, g), "BBB"))).size).toBe(1);
    for (const g of kept) expectWhole(join(out, GENERATIONS_DIR, g));
  });

  it("carries a bank from a generation of the earlier layout (a directory of its own)", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const first = (await readCurrentGeneration(out))!;
    const bbb = join(first.dir, "v1/Banks/BBB");
    const shared = realpathSync(bbb);
    rmSync(bbb);
    cpSync(shared, bbb, { recursive: true });
    rmSync(shared, { recursive: true });
    const result = await publishDay(3);
    expect(result.carried).toEqual(["BBB"]);
    const now = (await readCurrentGeneration(out))!;
    expect(lstatSync(join(now.dir, "v1/Banks/BBB")).isSymbolicLink()).toBe(true);
    expectWhole(now.dir);
    expect((await verifyDirectory(out)).problems).toEqual([]);
  });

  it("removes the shared directories of a generation that is discarded", async () => {
    const target = new LocalTreeTarget(out);
    await target.prepare();
    const generation = "20260101T000000000Z-1-failed";
    const sink = await target.begin(generation, undefined);
    const file = { bytes: 1, sha256: "", etag: "", lastModified: "", contentType: "text/csv", encodings: [] };
    await sink.write(latestPath("AAA", "csv"), file, { identity: Buffer.from("x") });
    expect(readdirSync(join(out, SHARED_DIR))).toEqual([`AAA.${generation}`]);
    await target.discard(generation);
    expect(readdirSync(join(out, SHARED_DIR))).toEqual([]);
    expect(generations()).toEqual([]);
  });
});

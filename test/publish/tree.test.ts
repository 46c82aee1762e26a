// The published tree: deterministic bytes, only changed banks re-rendered, an atomic switch that no
// reader ever sees half done, and a failed publish that leaves the old tree serving.
import { existsSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { withPublishLock } from "../../src/publish/lock.js";
import { latestPath, publish } from "../support/unsigned.js";
import { readCurrentGeneration } from "../../src/publish/tree.js";
import type { BankAdapter } from "../../src/types.js";
import { storeRates, testBank, type LatestJson } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
const AAA = testBank("AAA");
const BBB = testBank("BBB", { bankCurrency: "EUR", quoteType: "Indirect" });

beforeEach(async () => {
  ctx = await tempStore();
  out = join(ctx.dir, "out");
  storeRates(ctx.store, "AAA", [
    { effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" },
    { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" },
    { effectiveDate: "2026-03-03", currency: "HUF", rate: "6.304", unitMultiplier: 2 },
  ]);
  storeRates(ctx.store, "BBB", [{ effectiveDate: "2026-03-03", currency: "USD", rate: "1.0850" }]);
});
afterEach(() => ctx.cleanup());

describe("publish", () => {
  it("writes the published tree (README.md) with only the newest date, and precompressed siblings", async () => {
    const result = await publish(ctx.store, [AAA, BBB, testBank("CCC")], out);
    expect(result.rendered).toEqual(["AAA", "BBB"]);
    expect(result.empty).toEqual(["CCC"]);
    for (const ext of ["json", "xml", "csv", "xlsx"])
      expect(existsSync(join(out, "v1/Banks/AAA/DailyRates", `Latest.${ext}`))).toBe(true);
    for (const p of [
      "v1/banks/AAA.json",
      "v1/banks.json",
      "v1/schemas/exchange-rates-1.0.xsd",
      "v1/Banks/AAA/DailyRates/Latest.csv.gz",
      "v1/Banks/AAA/DailyRates/Latest.json.br",
    ]) {
      expect(existsSync(join(out, p)), p).toBe(true);
    }
    expect(existsSync(join(out, "v1/Banks/AAA/DailyRates/Latest.xlsx.gz"))).toBe(false);
    const latest = JSON.parse(readFileSync(join(out, "v1/Banks/AAA/DailyRates/Latest.json"), "utf8")) as LatestJson;
    expect(Object.keys(latest.rates)).toEqual(["2026-03-03"]);
    expect(latest.rates["2026-03-03"]).toEqual({ EUR: { rate: 24.18 }, HUF: { rate: 6.304, unitMultiplier: 2 } });
    expect(
      (
        JSON.parse(readFileSync(join(out, "v1/banks.json"), "utf8")) as {
          banks: Array<{ id: string; latestEffectiveDate: string }>;
        }
      ).banks.map((b) => [b.id, b.latestEffectiveDate]),
    ).toEqual([
      ["AAA", "2026-03-03"],
      ["BBB", "2026-03-03"],
    ]);
  });

  it("records every file in the manifest with its hash, ETag and type", async () => {
    await publish(ctx.store, [AAA], out);
    const { dir, manifest } = (await readCurrentGeneration(out))!;
    const entry = manifest.files[latestPath("AAA", "csv")]!;
    const bytes = await readFile(join(dir, latestPath("AAA", "csv")));
    expect(entry).toMatchObject({
      bytes: bytes.length,
      contentType: "text/csv; charset=utf-8",
      encodings: ["br", "gzip"],
      lastModified: "2026-03-02T13:31:00.000Z",
    });
    expect(entry.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(manifest.banks.AAA).toMatchObject({ effectiveDate: "2026-03-03" });
  });

  it("writes the same bytes for the same data, and re-renders only a bank whose data changed", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const first = (await readCurrentGeneration(out))!;
    const second = await publish(ctx.store, [AAA, BBB], out);
    expect(second.rendered).toEqual([]);
    expect(second.carried).toEqual(["AAA", "BBB"]);
    const now = (await readCurrentGeneration(out))!;
    expect(now.dir).not.toBe(first.dir);
    // Carried files are hard links of the previous generation's.
    expect(statSync(join(now.dir, latestPath("AAA", "xlsx"))).ino).toBe(
      statSync(join(first.dir, latestPath("AAA", "xlsx"))).ino,
    );

    storeRates(
      ctx.store,
      "BBB",
      [{ effectiveDate: "2026-03-04", currency: "USD", rate: "1.0870" }],
      new Date("2026-03-04T15:00:00Z"),
    );
    const third = await publish(ctx.store, [AAA, BBB], out);
    expect(third.rendered).toEqual(["BBB"]);
    expect(third.carried).toEqual(["AAA"]);
    const latest = (await readCurrentGeneration(out))!;
    expect(latest.manifest.files[latestPath("AAA", "json")]!.sha256).toBe(
      first.manifest.files[latestPath("AAA", "json")]!.sha256,
    );
    expect(latest.manifest.banks.BBB!.effectiveDate).toBe("2026-03-04");
  });

  it("renders byte-identical trees from the same data, independently", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    await new Promise((r) => setTimeout(r, 1100)); // a different wall-clock second must not matter
    await publish(ctx.store, [AAA, BBB], join(ctx.dir, "out2"));
    const a = (await readCurrentGeneration(out))!.manifest.files;
    const b = (await readCurrentGeneration(join(ctx.dir, "out2")))!.manifest.files;
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    for (const path of Object.keys(a)) expect(b[path]!.sha256, path).toBe(a[path]!.sha256);
  });

  it("leaves the previous tree serving when a publish fails part way", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const before = readlinkSync(join(out, "current"));
    const beforeCsv = readFileSync(join(out, "v1/Banks/AAA/DailyRates/Latest.csv"));
    storeRates(
      ctx.store,
      "AAA",
      [{ effectiveDate: "2026-03-05", currency: "EUR", rate: "24.300" }],
      new Date("2026-03-05T13:31:00Z"),
    );
    const broken: BankAdapter = {
      ...BBB,
      bank: new Proxy(BBB.bank, {
        get: (t, k) =>
          k === "names"
            ? (() => {
                throw new Error("renderer crashed");
              })()
            : (Reflect.get(t, k) as unknown),
      }),
    };
    await expect(publish(ctx.store, [AAA, broken], out)).rejects.toThrow("renderer crashed");
    expect(readlinkSync(join(out, "current"))).toBe(before);
    expect(readFileSync(join(out, "v1/Banks/AAA/DailyRates/Latest.csv"))).toEqual(beforeCsv);
    // The lock went with the failed publish (the file may stay; the kernel lock is what counts).
    await expect(withPublishLock(out, () => Promise.resolve("free"), 0)).resolves.toBe("free");
    // The next publish completes the work.
    await publish(ctx.store, [AAA, BBB], out);
    expect(readFileSync(join(out, "v1/Banks/AAA/DailyRates/Latest.csv"), "utf8")).toContain("2026-03-05,24.300");
  });

  it("never shows a reader a half-written or mixed tree while publishes run", async () => {
    await publish(ctx.store, [AAA], out);
    let stop = false;
    const problems: string[] = [];
    let reads = 0;
    const reader = (async () => {
      while (!stop) {
        // A reader resolves the generation once, then reads several files of it.
        try {
          const gen = (await readCurrentGeneration(out))!;
          const json = JSON.parse(await readFile(join(gen.dir, latestPath("AAA", "json")), "utf8")) as LatestJson;
          const csv = await readFile(join(gen.dir, latestPath("AAA", "csv")), "utf8");
          const date = Object.keys(json.rates)[0]!;
          if (!csv.includes(`,${date},`)) problems.push(`mixed: json ${date}, csv ${csv.split("\n")[1]}`);
          if (gen.manifest.banks.AAA!.effectiveDate !== date)
            problems.push(`manifest ${gen.manifest.banks.AAA!.effectiveDate} vs ${date}`);
          reads++;
        } catch (error) {
          problems.push(String(error));
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let day = 10; day < 22; day++) {
      storeRates(
        ctx.store,
        "AAA",
        [{ effectiveDate: `2026-03-${day}`, currency: "EUR", rate: `24.${day}0` }],
        new Date(`2026-03-${day}T13:31:00Z`),
      );
      await publish(ctx.store, [AAA], out);
    }
    stop = true;
    await reader;
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(10);
  });

  it("keeps the current generation and two older ones, removing the rest", async () => {
    for (let day = 10; day < 16; day++) {
      storeRates(
        ctx.store,
        "AAA",
        [{ effectiveDate: `2026-03-${day}`, currency: "EUR", rate: "24.1" }],
        new Date(`2026-03-${day}T13:31:00Z`),
      );
      await publish(ctx.store, [AAA], out);
    }
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(join(out, ".generations"))).toHaveLength(3);
  });
});

// The precompressed siblings are made in the thread pool, several at once: the same bytes as the
// synchronous encoders with the same parameters give (what earlier trees hold). A file rendered to the
// same bytes as the previous generation's (the schema, every time) is carried over, not compressed and
// written again.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { compressSiblings, latestPath, publish } from "../support/unsigned.js";
import { readCurrentGeneration } from "../../src/publish/tree.js";
import { EXCHANGE_RATES_XSD, XSD_PATH } from "../../src/publish/xsd.js";
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
afterEach(() => ctx.cleanup());

// Brotli at quality 10 (src/publish/publisher.ts says why not 11), gzip at level 9.
const syncSiblings = (data: Buffer) => ({
  br: brotliCompressSync(data, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 10, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
  }),
  gzip: gzipSync(data, { level: 9 }),
});

describe("precompressed siblings", () => {
  it("are the bytes the synchronous encoders give, for small and large files", async () => {
    const big = Buffer.from(Array.from({ length: 4_000 }, (_, i) => `USD,2026-03-02,${i}.${i % 97}\n`).join(""));
    for (const data of [Buffer.from(EXCHANGE_RATES_XSD, "utf8"), Buffer.from("{}"), big]) {
      const [a, b] = [await compressSiblings(data), syncSiblings(data)];
      expect(a.br.equals(b.br)).toBe(true);
      expect(a.gzip.equals(b.gzip)).toBe(true);
    }
  });

  it("of a published tree are those bytes", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const { dir } = (await readCurrentGeneration(out))!;
    for (const path of [latestPath("AAA", "json"), latestPath("BBB", "csv"), "v1/banks.json", XSD_PATH]) {
      const expected = syncSiblings(readFileSync(join(dir, path)));
      expect(readFileSync(join(dir, `${path}.br`)).equals(expected.br), path).toBe(true);
      expect(readFileSync(join(dir, `${path}.gz`)).equals(expected.gzip), path).toBe(true);
    }
  });
});

describe("a file rendered to the previous generation's bytes", () => {
  it("is carried over (the same file), a changed one written anew", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    const first = (await readCurrentGeneration(out))!;
    storeRates(
      ctx.store,
      "BBB",
      [{ effectiveDate: "2026-03-03", currency: "USD", rate: "1.0870" }],
      new Date("2026-03-03T13:31:00Z"),
    );
    const second = await publish(ctx.store, [AAA, BBB], out);
    expect(second.rendered).toEqual(["BBB"]);
    const now = (await readCurrentGeneration(out))!;
    const ino = (dir: string, path: string) => statSync(join(dir, path)).ino;
    for (const path of [XSD_PATH, `${XSD_PATH}.br`, `${XSD_PATH}.gz`])
      expect(ino(now.dir, path), path).toBe(ino(first.dir, path));
    for (const path of [latestPath("BBB", "json"), `${latestPath("BBB", "json")}.br`, "v1/banks.json"])
      expect(ino(now.dir, path), path).not.toBe(ino(first.dir, path));
    expect(now.manifest.files[XSD_PATH]).toEqual(first.manifest.files[XSD_PATH]);
    expect(now.manifest.files["v1/banks.json"]!.sha256).not.toBe(first.manifest.files["v1/banks.json"]!.sha256);
  });
});

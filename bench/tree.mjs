// The published tree the serving benchmarks read: one generation in the publisher's format (manifest,
// compressed siblings, `current` and `v1` links) with a realistic Latest.json (33 currencies).
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

import { ECB_CURRENCIES } from "./lib.mjs";

// A CZK-based bank's list: the ECB's currencies without the koruna, with the euro, XDR, AED and SAR.
const CURRENCIES = ECB_CURRENCIES.filter((c) => c !== "CZK");
CURRENCIES.splice(CURRENCIES.indexOf("DKK") + 1, 0, "EUR");
CURRENCIES.push("XDR", "AED", "SAR");
export const latestJson = `${JSON.stringify({
  bankId: "CNB",
  baseCurrency: "CZK",
  quoteType: "Direct",
  rates: {
    "2026-04-02": Object.fromEntries(
      CURRENCIES.map((c, i) => [
        c,
        { rate: Number((1 + i * 1.37).toFixed(3)), ...(i % 7 === 3 ? { unitMultiplier: 2 } : {}) },
      ]),
    ),
  },
})}\n`;
/** Writes the generation into `outDir` (created) and points `current` and `v1` at it. */
export function writeTree(outDir) {
  mkdirSync(outDir, { recursive: true });
  const gen = "bench-1";
  const genDir = join(outDir, ".generations", gen);
  const files = {};
  const put = (path, body, contentType, compress) => {
    const full = join(genDir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, body);
    const encodings = [];
    if (compress) {
      writeFileSync(`${full}.br`, brotliCompressSync(body));
      writeFileSync(`${full}.gz`, gzipSync(body));
      encodings.push("br", "gzip");
    }
    const sha = createHash("sha256").update(body).digest("hex");
    files[path] = {
      bytes: body.length,
      sha256: sha,
      etag: `"${Buffer.from(sha, "hex").toString("base64url").slice(0, 27)}"`,
      lastModified: "2026-04-02T12:31:00.000Z",
      contentType,
      encodings,
    };
  };
  put("v1/Banks/CNB/DailyRates/Latest.json", Buffer.from(latestJson), "application/json; charset=utf-8", true);
  put("v1/banks/CNB.json", Buffer.from('{"id":"CNB"}\n'), "application/json; charset=utf-8", true);
  writeFileSync(
    join(genDir, "manifest.json"),
    JSON.stringify({
      generation: gen,
      publishedAt: new Date().toISOString(),
      files,
      banks: { CNB: { effectiveDate: "2026-04-02", inputHash: "x", lastModified: "2026-04-02T12:31:00.000Z" } },
    }),
  );
  symlinkSync(join(".generations", gen), join(outDir, ".current-tmp"));
  renameSync(join(outDir, ".current-tmp"), join(outDir, "current"));
  symlinkSync(join("current", "v1"), join(outDir, "v1"));
}

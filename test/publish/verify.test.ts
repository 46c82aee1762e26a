// Signed publications: a fresh publish verifies (the detached JWS of its manifest with the publication
// key, every file's size and sha256, the precompressed siblings); one changed byte, a removed file, an
// added file and a manifest re-signed with another key each fail, naming the file; the CLI exits 1.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { loadPublicationKeys, signManifest, SIGNATURE_FILE } from "../../src/publish/signing.js";
import { publish } from "../support/unsigned.js";
import { readCurrentGeneration, MANIFEST } from "../../src/publish/tree.js";
import { verifyDirectory } from "../../src/publish/verify.js";
import { cli } from "../support/cli.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
let generation: string;
const AAA = testBank("AAA");

beforeEach(async () => {
  ctx = await tempStore();
  out = join(ctx.dir, "out");
  storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
  const signing = await loadPublicationKeys(join(ctx.dir, "data"));
  await publish(ctx.store, [AAA], out, { signing });
  generation = (await readCurrentGeneration(out))!.dir;
});
afterEach(() => ctx.cleanup());

const LATEST = "v1/Banks/AAA/DailyRates/Latest.json";

describe("exrates verify", () => {
  it("passes on a fresh publish, with the key set beside it or given", async () => {
    const result = await verifyDirectory(out);
    expect(result.problems).toEqual([]);
    expect(result.files).toBeGreaterThan(5);
    const jwks = JSON.parse(readFileSync(join(generation, "publication-jwks.json"), "utf8")) as {
      keys: Array<{ kid: string }>;
    };
    expect(result.kid).toBe(jwks.keys[0]!.kid);
    expect((await verifyDirectory(generation, jwks)).problems).toEqual([]);
  });

  it("names a file with one changed byte", async () => {
    const path = join(generation, LATEST);
    const bytes = readFileSync(path);
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(path, bytes);
    const { problems } = await verifyDirectory(out);
    expect(problems).toEqual([expect.objectContaining({ path: LATEST, problem: "altered" })]);
  });

  it("names a removed file and an added one", async () => {
    rmSync(join(generation, LATEST));
    appendFileSync(join(generation, "v1/extra.txt"), "x");
    const { problems } = await verifyDirectory(out);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: LATEST, problem: "missing" }),
        expect.objectContaining({ path: "v1/extra.txt", problem: "extra" }),
      ]),
    );
    expect(problems).toHaveLength(2);
  });

  it("fails a manifest re-signed with another key, and an altered manifest", async () => {
    const jwks = JSON.parse(readFileSync(join(generation, "publication-jwks.json"), "utf8")) as object;
    const other = await loadPublicationKeys(join(ctx.dir, "other"));
    const manifest = readFileSync(join(generation, MANIFEST), "utf8");
    writeFileSync(join(generation, SIGNATURE_FILE), await signManifest(manifest, other));
    const resigned = await verifyDirectory(out, jwks as never);
    expect(resigned.problems).toEqual([expect.objectContaining({ path: MANIFEST, problem: "signature" })]);

    writeFileSync(
      join(generation, SIGNATURE_FILE),
      await signManifest(manifest, await loadPublicationKeys(join(ctx.dir, "data"))),
    );
    writeFileSync(join(generation, MANIFEST), manifest.replace('"generation"', '"generation" '));
    const altered = await verifyDirectory(out);
    expect(altered.problems).toEqual([expect.objectContaining({ path: MANIFEST, problem: "signature" })]);
  });

  it("exits 1 naming the file from the CLI, 0 on a whole copy", async () => {
    const ok = await cli(["verify", out], {});
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("OK: generation");
    rmSync(join(generation, LATEST));
    const bad = await cli(["verify", out], {});
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`missing   ${LATEST}`);
  });
});

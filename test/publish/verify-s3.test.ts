// exrates verify over a bucket: the S3 target signs each generation as the local one does (the JWS and
// the key set beside its manifest), a fresh publish verifies, and one changed byte of an object, a
// removed object and a manifest re-signed with another key each fail, naming the file; the CLI takes
// s3://bucket/prefix and exits 1 on any problem.
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { ObjectStore } from "../../src/publish/s3.js";
import {
  S3TreeTarget,
  besideKey,
  manifestKey,
  objectKey,
  readManifest,
  readPointer,
} from "../../src/publish/s3-target.js";
import { loadPublicationKeys, signManifest, SIGNATURE_FILE } from "../../src/publish/signing.js";
import { publish } from "../support/unsigned.js";
import { MANIFEST } from "../../src/publish/tree.js";
import { verifyBucket } from "../../src/publish/verify.js";
import { cli } from "../support/cli.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";
import { startS3Server, type S3TestServer } from "./s3-server.js";

const AAA = testBank("AAA");
const LATEST = "v1/Banks/AAA/DailyRates/Latest.json";

let s3: S3TestServer;
let ctx: Awaited<ReturnType<typeof tempStore>>;
let url: string;
let objects: ObjectStore;
let prefixes = 0;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(async () => {
  ctx = await tempStore();
  url = `s3://${s3.bucket}/verify-${++prefixes}/rates`;
  storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
  const target = S3TreeTarget.fromUrl(url, join(ctx.dir, "out"), s3.env);
  await publish(ctx.store, [AAA], target, { signing: await loadPublicationKeys(join(ctx.dir, "data")) });
  objects = ObjectStore.fromUrl(url, s3.env);
});
afterEach(() => ctx.cleanup());

async function current() {
  const generation = (await readPointer(objects))!.generation;
  return { generation, manifest: await readManifest(objects, generation) };
}

describe("exrates verify s3://", () => {
  it("passes on a fresh publish: the S3 target signs the same way", async () => {
    const result = await verifyBucket(url, undefined, s3.env);
    expect(result.problems).toEqual([]);
    expect(result.kid).toBe((await loadPublicationKeys(join(ctx.dir, "data"))).active.kid);
    expect(result.files).toBeGreaterThan(5);
  });

  it("names an object with one changed byte, and a removed one", async () => {
    const { manifest } = await current();
    const key = objectKey(manifest.files[LATEST]!);
    const bytes = (await objects.get(key))!;
    bytes[10] = bytes[10]! ^ 1;
    await objects.put(key, bytes, "application/json");
    expect((await verifyBucket(url, undefined, s3.env)).problems).toEqual([
      expect.objectContaining({ path: LATEST, problem: "altered" }),
    ]);
    await objects.delete(key);
    expect((await verifyBucket(url, undefined, s3.env)).problems).toEqual([
      expect.objectContaining({ path: LATEST, problem: "missing" }),
    ]);
  });

  it("fails a manifest re-signed with another key (the service's key set given)", async () => {
    const { generation } = await current();
    const key = manifestKey(generation);
    const jwks = JSON.parse((await objects.get(besideKey(generation, "publication-jwks.json")))!.toString()) as never;
    const other = await loadPublicationKeys(join(ctx.dir, "other"));
    await objects.put(
      besideKey(generation, SIGNATURE_FILE),
      await signManifest((await objects.get(key))!.toString(), other),
      "application/json",
    );
    expect((await verifyBucket(url, jwks, s3.env)).problems).toEqual([
      expect.objectContaining({ path: MANIFEST, problem: "signature" }),
    ]);
  });

  it("exits 1 naming the file from the CLI, 0 on a whole copy", async () => {
    const ok = await cli(["verify", url], s3.env);
    expect(ok.stdout).toContain("OK: generation");
    expect(ok.code).toBe(0);
    const { manifest } = await current();
    await objects.delete(objectKey(manifest.files[LATEST]!));
    const bad = await cli(["verify", url], s3.env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`missing   ${LATEST}`);
  });
});

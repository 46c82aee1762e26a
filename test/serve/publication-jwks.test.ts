// GET /v1/publications/jwks.json: the public keys of the publication signing key, as the served
// generation carries them, without a token; they verify the served manifest's signature, and after a
// rotation the retired key stays (400 days, not a token's five minutes) so that a copy signed just
// before the rotation still verifies with the key set the service serves.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it } from "vitest";

import { loadOrCreateKeys, rotateKeys } from "../../src/auth/keys.js";
import { publish } from "../support/unsigned.js";
import { publicationKeyStorage } from "../../src/publish/signing.js";
import { readCurrentGeneration } from "../../src/publish/tree.js";
import { storeRates, testBank } from "../support/publish.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

const AAA = testBank("AAA");
const DAY_MS = 86_400_000;

let server: InProcessServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** The current generation's manifest and its detached signature, as a copy would hold them. */
async function copyOf(out: string): Promise<{ manifest: Buffer; jws: string }> {
  const dir = (await readCurrentGeneration(out))!.dir;
  return {
    manifest: readFileSync(join(dir, "manifest.json")),
    jws: readFileSync(join(dir, "manifest.json.jws"), "utf8"),
  };
}

async function verifies(copy: { manifest: Buffer; jws: string }, jwks: JSONWebKeySet): Promise<string | undefined> {
  const [header, , signature] = copy.jws.trim().split(".");
  try {
    const { protectedHeader } = await compactVerify(
      `${header}.${copy.manifest.toString("base64url")}.${signature}`,
      createLocalJWKSet(jwks),
    );
    return protectedHeader.kid;
  } catch {
    return undefined;
  }
}

describe("GET /v1/publications/jwks.json", () => {
  it("is 404 for an unsigned tree, and needs no token", async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/v1/publications/jwks.json`);
    expect(res.status).toBe(404);
  });

  it("serves the key set that verifies the served tree, and keeps a rotated key for older copies", async () => {
    server = await startTestServer({ publish: false });
    const { outDir, dataDir } = server.config;
    const storage = publicationKeyStorage(dataDir);
    const now = Date.now();
    storeRates(server.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
    await publish(server.store, [AAA], outDir, { signing: await loadOrCreateKeys(storage, now) });
    await server.server.refresh();
    const res = await fetch(`${server.url}/v1/publications/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const first = (await res.json()) as JSONWebKeySet;
    expect(first.keys).toHaveLength(1);
    const before = await copyOf(outDir);
    expect(await verifies(before, first)).toBe(first.keys[0]!.kid);
    // An altered manifest does not verify.
    expect(await verifies({ ...before, manifest: Buffer.concat([before.manifest, Buffer.from(" ")]) }, first)).toBe(
      undefined,
    );

    // The key is rotated; thirty days later a publish signs with the new key.
    await rotateKeys(storage, now + 1000);
    storeRates(server.store, "AAA", [{ effectiveDate: "2026-03-04", currency: "EUR", rate: "24.190" }]);
    await publish(server.store, [AAA], outDir, { signing: await loadOrCreateKeys(storage, now + 30 * DAY_MS) });
    await server.server.refresh();
    const second = (await (await fetch(`${server.url}/v1/publications/jwks.json`)).json()) as JSONWebKeySet;
    expect(second.keys.map((k) => k.kid)).toContain(first.keys[0]!.kid);
    expect(second.keys).toHaveLength(2);
    const after = await copyOf(outDir);
    const newKid = await verifies(after, second);
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(first.keys[0]!.kid);
    // The copy signed before the rotation still verifies with what the service serves now.
    expect(await verifies(before, second)).toBe(first.keys[0]!.kid);
    // 400 days after the rotation the retired key is gone.
    const late = await loadOrCreateKeys(storage, now + 401 * DAY_MS);
    expect(late.published.map((k) => k.kid)).toEqual([newKid]);
  });
});

// Signing keys: generated once with mode 0600, rotated with the retired key kept in the JWKS until
// its tokens have expired; a running server picks up a rotation without restart.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { decodeProtectedHeader } from "jose";
import { afterAll, describe, expect, it } from "vitest";

import { keysFile, loadOrCreateKeys, publishedAt, rotateKeys, TOKEN_TTL_SECONDS } from "../../src/auth/keys.js";
import { startHarness } from "../serve/support.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "exrates-keys-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The key file as stored, private parts included. */
const readKeyFile = (dir: string) =>
  JSON.parse(readFileSync(keysFile(dir), "utf8")) as { keys: Array<{ privateJwk: { kty: string } }> };

describe("signing keys", () => {
  it("are generated on first use, private, and stable across loads", async () => {
    const dir = tempDir();
    const a = await loadOrCreateKeys(dir);
    const b = await loadOrCreateKeys(dir);
    expect(a.active.kid).toBe(b.active.kid);
    expect(statSync(keysFile(dir)).mode & 0o777).toBe(0o600);
    expect(a.published.map((k) => k.kid)).toEqual([a.active.kid]);
    expect(a.published[0]!.jwk).not.toHaveProperty("d");
    expect(readKeyFile(dir).keys[0]!.privateJwk.kty).toBe("RSA");
  });

  it("two processes starting at once agree on one key", async () => {
    const dir = tempDir();
    // Eight at once, also within one process (the same pid and millisecond must not share a temp file).
    const sets = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateKeys(dir)));
    expect(new Set(sets.map((k) => k.active.kid)).size).toBe(1);
  });

  it("rotation keeps the retired key published until its tokens have expired, then drops it", async () => {
    const dir = tempDir();
    const t0 = Date.now();
    const first = await loadOrCreateKeys(dir, t0);
    const r1 = await rotateKeys(dir, t0);
    expect(r1.retired).toEqual([first.active.kid]);
    const after = await loadOrCreateKeys(dir, t0 + 1000);
    expect(after.active.kid).toBe(r1.kid);
    expect(after.published.map((k) => k.kid).sort()).toEqual([first.active.kid, r1.kid].sort());
    const later = t0 + (TOKEN_TTL_SECONDS + 10) * 1000;
    expect(publishedAt(after, later).map((k) => k.kid)).toEqual([r1.kid]);
    const r2 = await rotateKeys(dir, later);
    expect(r2.dropped).toEqual([first.active.kid]);
    expect(readKeyFile(dir).keys).toHaveLength(2);
    expect(statSync(keysFile(dir)).mode & 0o777).toBe(0o600);
  });

  it("a running server signs with the new key after a rotation and still accepts the old key's tokens", async () => {
    const h = await startHarness();
    try {
      const before = await h.token();
      const oldKid = decodeProtectedHeader(before).kid;
      await rotateKeys(h.config.dataDir);
      await h.server.refresh();
      const jwks = (await (await fetch(`${h.issuer}/protocol/openid-connect/certs`)).json()) as {
        keys: Array<{ kid: string }>;
      };
      expect(jwks.keys).toHaveLength(2);
      const afterToken = await h.token();
      const newKid = decodeProtectedHeader(afterToken).kid;
      expect(newKid).not.toBe(oldKid);
      expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
      for (const token of [before, afterToken]) {
        expect((await fetch(`${h.url}/v1/banks/CNB`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
          200,
        );
      }
    } finally {
      await h.close();
    }
  });
});

// The bearer check's matrix (RFC 6750), forged tokens included, and the external-issuer mode.
import { generateKeyPairSync, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient, deleteClient, disableClient, resetSecret } from "../../src/auth/clients.js";
import { keysFile, loadOrCreateKeys, type KeySet } from "../../src/auth/keys.js";
import { issueAccessToken } from "../../src/auth/tokens.js";
import { loadConfig } from "../../src/config.js";
import { openStore } from "../../src/store/database.js";
import { startServer } from "../../src/serve/server.js";
import { silentLog, startHarness, type Harness } from "../serve/support.js";

let h: Harness;
let keys: KeySet;
const LATEST = "/v1/Banks/CNB/DailyRates/Latest";

beforeAll(async () => {
  h = await startHarness();
  keys = await loadOrCreateKeys(h.config.dataDir);
});
afterAll(async () => h.close());

async function call(authorization?: string, path = LATEST) {
  const res = await fetch(`${h.url}${path}`, { headers: authorization === undefined ? {} : { authorization } });
  const text = await res.text();
  return {
    status: res.status,
    challenge: res.headers.get("www-authenticate"),
    type: res.headers.get("content-type"),
    body: text,
  };
}

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
const claimsFor = (overrides: Record<string, unknown> = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return {
    exp: now + 300,
    iat: now,
    jti: "j",
    iss: h.issuer,
    aud: h.url,
    sub: "x",
    typ: "Bearer",
    azp: "erp",
    client_id: "erp",
    scope: h.config.scope,
    ...overrides,
  };
};
const realToken = (overrides: Partial<Parameters<typeof issueAccessToken>[1]> = {}, nowMs = Date.now()) => {
  return issueAccessToken(
    keys,
    {
      issuer: h.issuer,
      audience: h.url,
      subject: subjectOfErp,
      clientId: "erp",
      scope: h.config.scope,
      notBefore: 0,
      ...overrides,
    },
    nowMs,
  ).accessToken;
};
let subjectOfErp = "";

describe("bearer check", () => {
  beforeAll(async () => {
    const row = await h.store.db
      .selectFrom("clients")
      .select("id")
      .where("client_id", "=", "erp")
      .executeTakeFirstOrThrow();
    subjectOfErp = row.id;
  });

  it("no credentials: 401 with exactly Bearer realm", async () => {
    const r = await call();
    expect(r.status).toBe(401);
    expect(r.challenge).toBe('Bearer realm="exrates"');
    expect(r.type).toBe("application/problem+json");
    expect(JSON.parse(r.body)).toMatchObject({ type: "about:blank", title: "Unauthorized", status: 401 });
  });

  it("another scheme carries no bearer credentials: 401 with the plain challenge", async () => {
    const r = await call(`Basic ${Buffer.from("erp:x").toString("base64")}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toBe('Bearer realm="exrates"');
  });

  for (const [name, header] of [
    ["empty bearer", "Bearer"],
    ["blank bearer", "Bearer    "],
    ["two tokens", "Bearer abc def"],
    ["bad characters", "Bearer abc$def"],
    ["quoted token", 'Bearer "abc"'],
  ] as const) {
    it(`malformed header (${name}): 400 invalid_request`, async () => {
      const r = await call(header);
      expect(r.status).toBe(400);
      expect(r.challenge).toMatch(/^Bearer realm="exrates", error="invalid_request"/);
    });
  }

  it("a valid token passes; the scheme is case-insensitive", async () => {
    const token = await h.token();
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    expect((await call(`bearer ${token}`)).status).toBe(200);
    expect((await call(`BEARER ${token}`)).status).toBe(200);
  });

  const invalid = async (token: string, description?: RegExp) => {
    const r = await call(`Bearer ${token}`);
    expect(r.status).toBe(401);
    expect(r.challenge).toMatch(/^Bearer realm="exrates", error="invalid_token"/);
    if (description) expect(r.challenge).toMatch(description);
    expect(r.body).not.toContain("rates");
    return r;
  };

  it("forged: alg none", async () => {
    await invalid(`${b64({ alg: "none", typ: "JWT" })}.${b64(claimsFor({ sub: subjectOfErp }))}.`);
    await invalid(
      `${b64({ alg: "none", typ: "JWT", kid: keys.active.kid })}.${b64(claimsFor({ sub: subjectOfErp }))}.`,
    );
  });

  it("forged: HS256 signed with the public key (key confusion)", async () => {
    const jwk = keys.published[0]!.jwk;
    const pem = keys.published[0]!.publicKey.export({ type: "spki", format: "pem" }) as string;
    for (const secret of [pem, JSON.stringify(jwk), jwk.n!]) {
      const input = `${b64({ alg: "HS256", typ: "JWT", kid: keys.active.kid })}.${b64(claimsFor({ sub: subjectOfErp }))}`;
      const sig = createHmac("sha256", secret).update(input).digest("base64url");
      await invalid(`${input}.${sig}`, /not allowed/);
    }
  });

  it("forged: RS512 and PS256 headers are outside the allow-list", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    for (const alg of ["RS512", "PS256"]) {
      const token = await new SignJWT(claimsFor({ sub: subjectOfErp }))
        .setProtectedHeader({ alg, kid: keys.active.kid })
        .sign(privateKey);
      await invalid(token, /not allowed/);
    }
  });

  it("forged: tampered payload (another scope, another client) with the original signature", async () => {
    const token = await h.token();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp: number } & Record<
      string,
      unknown
    >;
    await invalid(`${header}.${b64({ ...claims, exp: claims.exp + 3600 })}.${signature}`, /signature/);
    await invalid(`${header}.${b64({ ...claims, client_id: "admin", azp: "admin" })}.${signature}`, /signature/);
    await invalid(`${header}.${payload}.${signature.slice(0, -4)}AAAA`, /signature/);
  });

  it("forged: signed by another key under the real kid, or under an unknown kid", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    await invalid(
      await new SignJWT(claimsFor({ sub: subjectOfErp }))
        .setProtectedHeader({ alg: "RS256", kid: keys.active.kid })
        .sign(privateKey),
      /signature/,
    );
    await invalid(
      await new SignJWT(claimsFor({ sub: subjectOfErp }))
        .setProtectedHeader({ alg: "RS256", kid: "unknown-kid" })
        .sign(privateKey),
      /key is unknown/,
    );
    await invalid(
      await new SignJWT(claimsFor({ sub: subjectOfErp })).setProtectedHeader({ alg: "RS256" }).sign(privateKey),
    );
    // An embedded JWK in the header is never trusted.
    const jwk = await exportJWK((await generateKeyPair("RS256", { extractable: true })).publicKey);
    await invalid(
      await new SignJWT(claimsFor({ sub: subjectOfErp })).setProtectedHeader({ alg: "RS256", jwk }).sign(privateKey),
    );
  });

  it("expired (beyond the tolerance) is refused; within a few seconds it passes", async () => {
    await invalid(realToken({}, Date.now() - 310_000), /expired/);
    expect((await call(`Bearer ${realToken({}, Date.now() - 302_000)}`)).status).toBe(200);
  });

  it("wrong issuer is refused", async () => {
    await invalid(realToken({ issuer: "http://127.0.0.1:1/auth/realms/exrates" }), /issuer/);
    await invalid(realToken({ issuer: h.issuer.replace("/exrates", "/master") }), /issuer/);
  });

  it("issued in the future is refused", async () => {
    await invalid(realToken({}, Date.now() + 120_000));
  });

  it("not a JWT, or garbage: invalid_token", async () => {
    await invalid("abc");
    await invalid("a.b.c");
    await invalid(`${b64({ alg: "RS256" })}.e30.`);
  });

  it("a token without the API scope: 403 insufficient_scope", async () => {
    const r = await call(`Bearer ${realToken({ scope: "something-else" })}`);
    expect(r.status).toBe(403);
    expect(r.challenge).toBe('Bearer realm="exrates", error="insufficient_scope", scope="exchange-rates"');
  });

  it("a token of a client whose secret was reset stops working at once; a new one works", async () => {
    const c = await createClient(h.store, { clientId: "resetme", scope: h.config.scope });
    const token = await h.token("resetme", c.clientSecret);
    expect((await call(`Bearer ${token}`)).status).toBe(200); // verified and cached
    const fresh = await resetSecret(h.store, "resetme");
    await invalid(token, /reset/);
    await expect(h.token("resetme", c.clientSecret)).rejects.toThrow(/401/);
    const newToken = await h.token("resetme", fresh.clientSecret);
    expect((await call(`Bearer ${newToken}`)).status).toBe(200);
  });

  it("disable and delete end a client's tokens at once", async () => {
    const a = await createClient(h.store, { clientId: "disableme", scope: h.config.scope });
    const b = await createClient(h.store, { clientId: "deleteme", scope: h.config.scope });
    const ta = await h.token("disableme", a.clientSecret);
    const tb = await h.token("deleteme", b.clientSecret);
    expect((await call(`Bearer ${ta}`)).status).toBe(200);
    expect((await call(`Bearer ${tb}`)).status).toBe(200);
    await disableClient(h.store, "disableme");
    await deleteClient(h.store, "deleteme");
    await invalid(ta, /disabled/);
    await invalid(tb, /no longer exists/);
    // A new client under the deleted one's name does not inherit its tokens.
    await createClient(h.store, { clientId: "deleteme", scope: h.config.scope });
    await invalid(tb, /no longer exists/);
  });

  it("a reset made by another process (another connection) is seen within the poll interval", async () => {
    const c = await createClient(h.store, { clientId: "elsewhere", scope: h.config.scope });
    const token = await h.token("elsewhere", c.clientSecret);
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    const other = await openStore(h.config.databasePath);
    try {
      await resetSecret(other, "elsewhere");
    } finally {
      await other.close();
    }
    await new Promise((r) => setTimeout(r, 600));
    await invalid(token, /reset/);
  });

  it("an ID token of the same realm (typ ID) is not an access token", async () => {
    const input = `${b64({ alg: "RS256", typ: "JWT", kid: keys.active.kid })}.${b64(claimsFor({ sub: subjectOfErp, typ: "ID" }))}`;
    const { sign } = await import("node:crypto");
    const sig = sign("sha256", Buffer.from(input), keys.active.privateKey).toString("base64url");
    await invalid(`${input}.${sig}`, /not an access token/);
  });

  it("a token signed with the realm's own key but a year-long exp is refused once older than the lifetime", async () => {
    const { sign } = await import("node:crypto");
    const now = Math.floor(Date.now() / 1000);
    const signed = (claims: object) => {
      const input = `${b64({ alg: "RS256", typ: "JWT", kid: keys.active.kid })}.${b64(claims)}`;
      return `${input}.${sign("sha256", Buffer.from(input), keys.active.privateKey).toString("base64url")}`;
    };
    const year = 365 * 86_400;
    // Issued an hour ago, valid for a year by its exp: older than the 300 s lifetime (plus 5 s of skew).
    await invalid(
      signed(claimsFor({ sub: subjectOfErp, iat: now - 3600, exp: now + year })),
      /older than the realm's token lifetime/,
    );
    await invalid(
      signed(claimsFor({ sub: subjectOfErp, iat: now - 306, exp: now + year })),
      /older than the realm's token lifetime/,
    );
    // Fresh, the same year-long exp passes: the age, not the exp, is what ends it.
    const fresh = await call(`Bearer ${signed(claimsFor({ sub: subjectOfErp, iat: now, exp: now + year }))}`);
    expect(fresh.status).toBe(200);
  });

  it("public endpoints need no token", async () => {
    for (const path of [
      "/healthz",
      "/readyz",
      "/v1/schemas/exchange-rates-1.0.xsd",
      "/v1/openapi.json",
      "/auth/realms/exrates/.well-known/openid-configuration",
      "/auth/realms/exrates/protocol/openid-connect/certs",
    ]) {
      expect((await fetch(`${h.url}${path}`)).status, path).toBe(200);
    }
    for (const path of ["/v1/banks/CNB", "/v1/banks", LATEST, `${LATEST}.csv`]) {
      expect((await fetch(`${h.url}${path}`)).status, path).toBe(401);
    }
  });

  it("the key file is private (0600 in a 0700 directory)", async () => {
    const { statSync } = await import("node:fs");
    expect(statSync(keysFile(h.config.dataDir)).mode & 0o777).toBe(0o600);
    expect(statSync(keysFile(h.config.dataDir).replace(/\/[^/]+$/, "")).mode & 0o777).toBe(0o700);
    expect(readFileSync(keysFile(h.config.dataDir), "utf8")).toContain('"d"');
  });
});

describe("external issuer (EXRATES_OIDC_ISSUER)", () => {
  it("checks tokens against that realm's JWKS found by discovery; the embedded SSO is off", async () => {
    const config = loadConfig({
      EXRATES_DATA_DIR: `${h.root}/ext-data`,
      EXRATES_OUT_DIR: h.config.outDir,
      EXRATES_HOST: "127.0.0.1",
      EXRATES_PORT: "0",
      EXRATES_OIDC_ISSUER: h.issuer,
    });
    const ext = await startServer({ config, log: silentLog });
    try {
      expect(ext.issuer).toBe(h.issuer);
      const token = await h.token();
      const ok = await fetch(`${ext.url}${LATEST}.csv`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      const { privateKey } = await generateKeyPair("RS256");
      const forged = await new SignJWT(claimsFor({ sub: subjectOfErp }))
        .setProtectedHeader({ alg: "RS256", kid: keys.active.kid })
        .sign(privateKey);
      const bad = await fetch(`${ext.url}${LATEST}`, { headers: { authorization: `Bearer ${forged}` } });
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      const tokenEndpoint = await fetch(`${ext.url}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
      });
      expect(tokenEndpoint.status).toBe(404);
      const noScope = realToken({ scope: "something-else" });
      expect((await fetch(`${ext.url}${LATEST}`, { headers: { authorization: `Bearer ${noScope}` } })).status).toBe(
        403,
      );
    } finally {
      await ext.close();
    }
  });
});

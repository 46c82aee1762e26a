// The token endpoint's matrix: Keycloak's statuses and bodies for every error, the success body and
// headers, client_secret_basic decoding, and the limits on failed client authentication.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient, disableClient } from "../../src/auth/clients.js";
import { startHarness, type Harness } from "../serve/support.js";

let h: Harness;
const SCOPE = "exchange-rates"; // the default API scope

beforeAll(async () => {
  h = await startHarness({
    server: { rateLimit: { perClient: { max: 1000, windowMs: 60_000 }, perAddress: { max: 1000, windowMs: 60_000 } } },
  });
  await createClient(h.store, { clientId: "other-scope", scope: "something-else" });
  await createClient(h.store, { clientId: "gone", scope: h.config.scope, secret: "gone-secret" });
  await disableClient(h.store, "gone");
});
afterAll(async () => h.close());

const FORM = "application/x-www-form-urlencoded";

async function post(body: string | Record<string, string>, headers: Record<string, string> = { "content-type": FORM }) {
  const res = await fetch(h.tokenUrl, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : new URLSearchParams(body).toString(),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

describe("token endpoint: success", () => {
  it("answers Keycloak's body and headers, with a JWT of Keycloak's claims", async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await post({
      grant_type: "client_credentials",
      client_id: h.client.id,
      client_secret: h.client.secret,
      scope: h.config.scope,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("pragma")).toBe("no-cache");
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(Object.keys(r.body!)).toEqual([
      "access_token",
      "expires_in",
      "refresh_expires_in",
      "token_type",
      "not-before-policy",
      "scope",
    ]);
    expect(r.body).toMatchObject({
      expires_in: 300,
      refresh_expires_in: 0,
      token_type: "Bearer",
      "not-before-policy": 0,
      scope: h.config.scope,
    });
    const token = r.body!.access_token as string;
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("RS256");
    expect(header.typ).toBe("JWT");
    expect(typeof header.kid).toBe("string");
    const claims = decodeJwt(token);
    expect(claims.iss).toBe(h.issuer);
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.iat!).toBeGreaterThanOrEqual(before);
    expect(claims).toMatchObject({
      typ: "Bearer",
      azp: "erp",
      client_id: "erp",
      scope: h.config.scope,
      preferred_username: "service-account-erp",
    });
    expect(typeof claims.sub).toBe("string");
    expect(typeof claims.jti).toBe("string");
    expect(claims.aud).toBeDefined();
    // The JWKS publishes the kid.
    const jwks = (await (await fetch(`${h.issuer}/protocol/openid-connect/certs`)).json()) as {
      keys: Array<{ kid: string; kty: string; d?: string }>;
    };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    expect(jwks.keys.every((k) => k.kty === "RSA" && k.d === undefined)).toBe(true);
  });

  it("accepts client_secret_basic with URL-encoded halves and a charset in the content type", async () => {
    await createClient(h.store, { clientId: "basic.user", scope: `${h.config.scope} extra`, secret: "a+b%c d&e=f" });
    const r = await post(
      { grant_type: "client_credentials", scope: h.config.scope },
      { "content-type": `${FORM}; charset=UTF-8`, authorization: basic("basic.user", "a+b%c d&e=f") },
    );
    expect(r.status).toBe(200);
    // An un-encoded '+' in Basic decodes to a space (RFC 6749 §2.3.1): the secret no longer matches.
    const raw = `Basic ${Buffer.from("basic.user:a+b%25c d&e=f").toString("base64")}`;
    expect(
      (
        await post(
          { grant_type: "client_credentials", scope: h.config.scope },
          { "content-type": FORM, authorization: raw },
        )
      ).status,
    ).toBe(401);
  });

  it("grants a subset of the client's scopes and answers the granted scope", async () => {
    const r = await post(
      { grant_type: "client_credentials", scope: `extra ${h.config.scope}` },
      { "content-type": FORM, authorization: basic("basic.user", "a+b%c d&e=f") },
    );
    expect(r.status).toBe(200);
    expect(r.body!.scope).toBe(`extra ${h.config.scope}`);
  });
});

describe("token endpoint: Keycloak's errors", () => {
  const good = () => ({
    grant_type: "client_credentials",
    client_id: h.client.id,
    client_secret: h.client.secret,
    scope: h.config.scope,
  });
  const cases: Array<
    [
      string,
      () => Promise<{ status: number; body?: Record<string, unknown>; headers: Headers }>,
      number,
      Record<string, unknown>,
    ]
  > = [
    [
      "missing grant_type",
      () => post({ client_id: h.client.id, client_secret: h.client.secret, scope: h.config.scope }),
      400,
      { error: "invalid_request", error_description: "Missing form parameter: grant_type" },
    ],
    [
      "empty body",
      () => post(""),
      400,
      { error: "invalid_request", error_description: "Missing form parameter: grant_type" },
    ],
    [
      "password grant",
      () => post({ ...good(), grant_type: "password", username: "u", password: "p" }),
      400,
      { error: "unsupported_grant_type", error_description: "Unsupported grant_type" },
    ],
    [
      "authorization_code grant",
      () => post({ ...good(), grant_type: "authorization_code", code: "x" }),
      400,
      { error: "unsupported_grant_type", error_description: "Unsupported grant_type" },
    ],
    [
      "refresh_token grant",
      () => post({ ...good(), grant_type: "refresh_token", refresh_token: "x" }),
      400,
      { error: "unsupported_grant_type", error_description: "Unsupported grant_type" },
    ],
    [
      "missing client_id",
      () => post({ grant_type: "client_credentials", client_secret: "x", scope: h.config.scope }),
      400,
      { error: "invalid_client", error_description: "Missing client_id parameter" },
    ],
    [
      "unknown client",
      () => post({ ...good(), client_id: "nobody" }),
      401,
      { error: "invalid_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "disabled client",
      () => post({ ...good(), client_id: "gone", client_secret: "gone-secret" }),
      401,
      { error: "invalid_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "wrong secret",
      () => post({ ...good(), client_secret: "wrong" }),
      401,
      { error: "unauthorized_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "empty secret",
      () => post({ ...good(), client_secret: "" }),
      401,
      { error: "unauthorized_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "missing secret",
      () => post({ grant_type: "client_credentials", client_id: h.client.id, scope: h.config.scope }),
      401,
      { error: "unauthorized_client", error_description: "Invalid client secret" },
    ],
    [
      "wrong secret by Basic",
      () =>
        post(
          { grant_type: "client_credentials", scope: h.config.scope },
          { "content-type": FORM, authorization: basic(h.client.id, "nope") },
        ),
      401,
      { error: "unauthorized_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "malformed Basic",
      () =>
        post(
          { grant_type: "client_credentials", scope: h.config.scope },
          { "content-type": FORM, authorization: "Basic !!!" },
        ),
      401,
      { error: "invalid_client", error_description: "Invalid client or Invalid client credentials" },
    ],
    [
      "duplicated scope",
      () => post(`${new URLSearchParams(good()).toString()}&scope=${h.config.scope}`),
      400,
      { error: "invalid_request", error_description: "duplicated parameter" },
    ],
    [
      "duplicated grant_type",
      () => post(`${new URLSearchParams(good()).toString()}&grant_type=client_credentials`),
      400,
      { error: "invalid_request", error_description: "duplicated parameter" },
    ],
    [
      "missing scope",
      () => post({ grant_type: "client_credentials", client_id: h.client.id, client_secret: h.client.secret }),
      400,
      { error: "invalid_request", error_description: "Missing form parameter: scope" },
    ],
    [
      "unknown scope",
      () => post({ ...good(), scope: "admin" }),
      400,
      { error: "invalid_scope", error_description: "Invalid scopes: admin" },
    ],
    [
      "one scope not granted",
      () => post({ ...good(), scope: `${h.config.scope} admin` }),
      400,
      { error: "invalid_scope", error_description: `Invalid scopes: ${SCOPE} admin` },
    ],
    [
      "client without the API scope",
      async () => {
        const c = await createClient(h.store, { clientId: `other-${Date.now()}`, scope: "something-else" });
        return post({ ...good(), client_id: c.clientId, client_secret: c.clientSecret });
      },
      400,
      { error: "invalid_scope", error_description: `Invalid scopes: ${SCOPE}` },
    ],
    ["JSON body", () => post(JSON.stringify(good()), { "content-type": "application/json" }), 415, {}],
    ["multipart body", () => post("--x--", { "content-type": "multipart/form-data; boundary=x" }), 415, {}],
    [
      "no content type with a body",
      async () => {
        const res = await fetch(h.tokenUrl, {
          method: "POST",
          body: new Uint8Array(Buffer.from(new URLSearchParams(good()).toString())),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
      },
      415,
      {},
    ],
    [
      "GET",
      async () => {
        const res = await fetch(`${h.tokenUrl}?${new URLSearchParams(good()).toString()}`);
        return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
      },
      405,
      {},
    ],
    [
      "unknown realm",
      async () => {
        const res = await fetch(h.tokenUrl.replace(`/realms/${h.config.realm}/`, "/realms/master/"), {
          method: "POST",
          headers: { "content-type": FORM },
          body: new URLSearchParams(good()),
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
      },
      404,
      { error: "Realm does not exist" },
    ],
    [
      "body too large",
      () => post(`${new URLSearchParams(good()).toString()}&pad=${"x".repeat(20_000)}`),
      413,
      { error: "invalid_request" },
    ],
  ];
  for (const [name, run, status, body] of cases) {
    it(`${name}: ${status}`, async () => {
      const r = await run();
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject(body);
      expect(typeof r.body?.error).toBe("string");
      // Keycloak sends no challenge on these; OAuth client libraries then read the body.
      expect(r.headers.get("www-authenticate")).toBeNull();
      if (status === 405) expect(r.headers.get("allow")).toContain("POST");
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(JSON.stringify(r.body)).not.toContain(h.client.secret);
    });
  }
  it("OPTIONS: answered as its Allow header says (204, the methods), not 405", async () => {
    const res = await fetch(h.tokenUrl, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await res.text()).toBe("");
    const get = await fetch(h.tokenUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("token endpoint: failed authentications are limited", () => {
  it("per client id and address, with 429 and Retry-After; the right secret is refused meanwhile from there only", async () => {
    const limited = await startHarness({
      server: { rateLimit: { perClient: { max: 3, windowMs: 60_000 }, perAddress: { max: 6, windowMs: 60_000 } } },
    });
    try {
      const form = (id: string, secret: string) => ({
        grant_type: "client_credentials",
        client_id: id,
        client_secret: secret,
        scope: limited.config.scope,
      });
      const send = async (body: Record<string, string>) => {
        const res = await fetch(limited.tokenUrl, {
          method: "POST",
          headers: { "content-type": FORM },
          body: new URLSearchParams(body),
        });
        return {
          status: res.status,
          retryAfter: res.headers.get("retry-after"),
          body: (await res.json()) as Record<string, unknown>,
        };
      };
      for (let i = 0; i < 3; i++) expect((await send(form("erp", "wrong"))).status).toBe(401);
      const blocked = await send(form("erp", limited.client.secret));
      expect(blocked.status).toBe(429);
      expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
      expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(60);
      expect(blocked.body.error).toBeTypeOf("string");
      // Made-up ids from the same address are limited per address, and never refuse a known client.
      await createClient(limited.store, { clientId: "second", scope: limited.config.scope, secret: "second-secret" });
      for (let i = 0; i < 6; i++) expect((await send(form(`unknown-${i}`, "x"))).status).toBe(401);
      const byAddress = await send(form("unknown-7", "x"));
      expect(byAddress.status).toBe(429);
      expect(byAddress.retryAfter).not.toBeNull();
      expect((await send(form("second", "second-secret"))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("the window passes", async () => {
    let clock = Date.now();
    const limited = await startHarness({
      server: {
        now: () => clock,
        rateLimit: { perClient: { max: 2, windowMs: 10_000 }, perAddress: { max: 100, windowMs: 10_000 } },
      },
    });
    try {
      const send = async (secret: string) =>
        (
          await fetch(limited.tokenUrl, {
            method: "POST",
            headers: { "content-type": FORM },
            body: new URLSearchParams({
              grant_type: "client_credentials",
              client_id: "erp",
              client_secret: secret,
              scope: limited.config.scope,
            }),
          })
        ).status;
      expect(await send("bad")).toBe(401);
      expect(await send("bad")).toBe(401);
      expect(await send(limited.client.secret)).toBe(429);
      clock += 10_001;
      expect(await send(limited.client.secret)).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

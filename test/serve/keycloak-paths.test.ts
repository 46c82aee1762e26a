// Keycloak's edges: a client asking for `openid exchange-rates` (as Keycloak clients do) gets a token,
// with the granted scope reported as Keycloak reports it ("openid" first); the realm answers under
// /realms/<realm> (Keycloak 17+) as well as /auth/realms/<realm>, and openid-client works against both.
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { decodeJwt } from "jose";

import { startHarness, type Harness } from "./support.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function grant(url: string, scope: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: h.client.id,
      client_secret: h.client.secret,
      scope,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const latest = (token: string) =>
  fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest.json`, { headers: { authorization: `Bearer ${token}` } });

describe("scope=openid", () => {
  it("grants openid with the API scope, openid first, in the answer and the token", async () => {
    for (const scope of ["openid exchange-rates", "exchange-rates openid", "openid openid exchange-rates"]) {
      const r = await grant(h.tokenUrl, scope);
      expect(r.status, scope).toBe(200);
      expect(r.body.scope).toBe("openid exchange-rates");
      expect(r.body.id_token).toBeUndefined();
      expect(decodeJwt(r.body.access_token as string).scope).toBe("openid exchange-rates");
      expect((await latest(r.body.access_token as string)).status).toBe(200);
    }
  });

  it("still refuses a scope the client does not have, openid or not", async () => {
    const r = await grant(h.tokenUrl, "openid audit");
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_scope");
  });

  it("openid alone gets a token that cannot read the API (403)", async () => {
    const r = await grant(h.tokenUrl, "openid");
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe("openid");
    expect((await latest(r.body.access_token as string)).status).toBe(403);
  });
});

describe("/realms/<realm> without /auth", () => {
  const plainIssuer = () => `${h.url}/realms/${h.config.realm}`;

  it("serves discovery naming its own issuer and endpoints; /auth keeps its issuer", async () => {
    const plain = (await (await fetch(`${plainIssuer()}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string
    >;
    expect(plain.issuer).toBe(plainIssuer());
    expect(plain.token_endpoint).toBe(`${plainIssuer()}/protocol/openid-connect/token`);
    const auth = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(auth.issuer).toBe(h.issuer);
    expect(h.issuer).toContain("/auth/realms/");
    const jwks = await fetch(`${plainIssuer()}/protocol/openid-connect/certs`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    // Another realm, or a path the realm does not have: Keycloak's 404s, as under /auth.
    expect((await fetch(`${h.url}/realms/other/.well-known/openid-configuration`)).status).toBe(404);
    expect((await fetch(`${plainIssuer()}/nothing`)).status).toBe(404);
  });

  it("works with openid-client v6 discovering /realms/<realm>, scope openid included", async () => {
    const config = await client.discovery(
      new URL(plainIssuer()),
      h.client.id,
      undefined,
      client.ClientSecretBasic(h.client.secret),
      { execute: [client.allowInsecureRequests] },
    );
    expect(config.serverMetadata().issuer).toBe(plainIssuer());
    const tokens = await client.clientCredentialsGrant(config, { scope: `openid ${h.config.scope}` });
    expect(tokens.scope).toBe(`openid ${h.config.scope}`);
    expect(decodeJwt(tokens.access_token).iss).toBe(plainIssuer());
    const response = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${h.url}/v1/Banks/CNB/DailyRates/Latest.json`),
      "GET",
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { bankId: string }).bankId).toBe("CNB");
  });

  it("accepts tokens of either form", async () => {
    const auth = await grant(h.tokenUrl, h.config.scope);
    const plain = await grant(`${plainIssuer()}/protocol/openid-connect/token`, h.config.scope);
    expect(decodeJwt(auth.body.access_token as string).iss).toBe(h.issuer);
    expect(decodeJwt(plain.body.access_token as string).iss).toBe(plainIssuer());
    expect((await latest(auth.body.access_token as string)).status).toBe(200);
    expect((await latest(plain.body.access_token as string)).status).toBe(200);
  });
});

// Acceptance: a client written for Keycloak (openid-client v6, an independent implementation) works
// unchanged against the embedded SSO, then reads both endpoints in all four formats with its token.
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createClient } from "../../src/auth/clients.js";
import type { LatestJson } from "../support/publish.js";
import { startHarness, XLSX, type Harness } from "./support.js";

let h: Harness;
// A secret with characters that client_secret_basic must form-encode ('+', '%', ' ', ':').
const trickySecret = "s3cr+t%41 b:c/d==";

beforeAll(async () => {
  h = await startHarness();
  await createClient(h.store, { clientId: "tricky.client", scope: h.config.scope, secret: trickySecret });
});
afterAll(async () => h.close());

async function discover(clientId: string, secret: string, auth: "post" | "basic") {
  const method = auth === "post" ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret);
  return client.discovery(new URL(h.issuer), clientId, undefined, method, { execute: [client.allowInsecureRequests] });
}

async function fetchAll(accessToken: string) {
  const auth = { authorization: `Bearer ${accessToken}` };
  const bank = await fetch(`${h.url}/v1/banks/CNB`, { headers: auth });
  expect(bank.status).toBe(200);
  expect(bank.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(((await bank.json()) as { id: string }).id).toBe("CNB");

  const cases: Array<[string, string, (body: Buffer) => void]> = [
    [
      "Latest",
      "application/json; charset=utf-8",
      (b) => expect((JSON.parse(b.toString()) as LatestJson).bankId).toBe("CNB"),
    ],
    [
      "Latest.json",
      "application/json; charset=utf-8",
      (b) => expect((JSON.parse(b.toString()) as LatestJson).rates["2026-04-02"]?.USD?.rate).toBe(20.611),
    ],
    [
      "Latest.xml",
      "application/xml; charset=utf-8",
      (b) => expect(b.toString()).toContain('<Rates effectiveDate="2026-04-02">'),
    ],
    [
      "Latest.csv",
      "text/csv; charset=utf-8",
      (b) =>
        expect(b.toString()).toMatch(
          /^BankId,From Currency,To Currency,Effective Date,Exchange Rate,Unit\nCNB,USD,CZK,2026-04-02,20.611,1\n$/,
        ),
    ],
    ["Latest.xlsx", XLSX, (b) => expect(b.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04")],
  ];
  for (const [path, type, check] of cases) {
    const res = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/${path}`, { headers: auth });
    expect(res.status, path).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    check(Buffer.from(await res.arrayBuffer()));
  }
  for (const [format, type] of [
    ["json", "application/json; charset=utf-8"],
    ["xml", "application/xml; charset=utf-8"],
    ["csv", "text/csv; charset=utf-8"],
    ["xlsx", XLSX],
  ] as const) {
    const byQuery = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest?format=${format}`, { headers: auth });
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get("content-type")).toBe(type);
    const byAccept = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest`, {
      headers: { ...auth, accept: type.split(";")[0]! },
    });
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers.get("content-type")).toBe(type);
  }
  const csv = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest.csv`, { headers: auth });
  expect(csv.headers.get("content-disposition")).toBe('attachment; filename="CNB-2026-04-02.csv"');
  const xlsx = await fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest.xlsx`, { headers: auth });
  expect(xlsx.headers.get("content-disposition")).toBe('attachment; filename="CNB-2026-04-02.xlsx"');
}

describe("openid-client v6 against the embedded SSO", () => {
  it("discovers the realm", async () => {
    const config = await discover(h.client.id, h.client.secret, "post");
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(h.issuer);
    expect(meta.token_endpoint).toBe(h.tokenUrl);
    expect(meta.grant_types_supported).toEqual(["client_credentials"]);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["client_secret_post", "client_secret_basic"]);
    expect(meta.jwks_uri).toBe(`${h.issuer}/protocol/openid-connect/certs`);
  });

  for (const auth of ["post", "basic"] as const) {
    it(`gets a token with client_secret_${auth} and reads both endpoints in all four formats`, async () => {
      const config = await discover(h.client.id, h.client.secret, auth);
      const tokens = await client.clientCredentialsGrant(config, { scope: h.config.scope });
      expect(tokens.token_type).toBe("bearer"); // openid-client normalises the case
      expect(tokens.expires_in).toBe(300);
      expect(tokens.scope).toBe(h.config.scope);
      expect(tokens.refresh_token).toBeUndefined();
      await fetchAll(tokens.access_token);
    });

    it(`handles a secret with '+', '%', ' ' and ':' by client_secret_${auth}`, async () => {
      const config = await discover("tricky.client", trickySecret, auth);
      const tokens = await client.clientCredentialsGrant(config, { scope: h.config.scope });
      await fetchAll(tokens.access_token);
    });
  }

  it("rejects a wrong secret with Keycloak's error, which openid-client surfaces", async () => {
    const config = await discover(h.client.id, "wrong", "basic");
    await expect(client.clientCredentialsGrant(config, { scope: h.config.scope })).rejects.toMatchObject({
      error: "unauthorized_client",
      status: 401,
    });
  });
});

// docs/API.md's token answer, discovery document and error problems are the real ones: fetched from a server, its own
// address written as the documentation's (http://127.0.0.1:8080), and the token itself left out (the
// sample shows its first characters).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { apiSample } from "../support/api-docs.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

let server: InProcessServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe("docs/API.md's realm and error samples", () => {
  it("the token answer", async () => {
    const res = await fetch(server.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: server.client.id,
        client_secret: server.client.secret,
        scope: "exchange-rates",
      }),
    });
    expect(res.status).toBe(200);
    const real = (await res.json()) as Record<string, unknown>;
    const sample = apiSample("## Getting a token");
    expect(sample.access_token).toBe("eyJ…");
    expect(real.access_token).toMatch(/^eyJ/);
    expect({ ...real, access_token: "eyJ…" }).toEqual(sample);
  });

  it("the discovery document", async () => {
    const res = await fetch(`${server.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const text = (await res.text()).replaceAll(new URL(server.url).origin, "http://127.0.0.1:8080");
    expect(JSON.parse(text)).toEqual(apiSample("`GET /auth/realms/exrates/.well-known/openid-configuration`"));
  });

  it.each([
    ["/v1/Bank/CNB", "## Errors"],
    ["/v1/Banks/XXX/DailyRates/Latest", "and a bank it does not know"],
  ])("the problem of the Errors section: %s", async (path, marker) => {
    const sample = apiSample(marker);
    const res = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${await server.token()}` },
    });
    expect(res.status).toBe(sample.status);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toEqual(sample);
  });
});

// GET /v1/banks/{id} for every bank the service knows (the adapters' descriptors), published or not,
// with its status when a scheduler runs; "known bank, no rates yet" and "unknown bank" are two
// different problem types.
import { afterEach, describe, expect, it } from "vitest";

import { registerSecret } from "../../src/secrets.js";
import { startHarness, type Harness } from "./support.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function get(path: string): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const token = await harness!.token();
  const response = await fetch(`${harness!.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe("known banks", () => {
  it("names the environment variable of a bank whose feed needs a key, never a value", async () => {
    harness = await startHarness();
    for (const path of ["/v1/Banks/BANXICO/DailyRates/Latest", "/v1/Banks/BANXICO/DailyRates/2025-01-02"]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatchObject({
        type: "urn:exrates:problem:no-rates-yet",
        credential: "EXRATES_BANXICO_API_KEY",
      });
      expect(r.body.detail, path).toContain("needs a key: set EXRATES_BANXICO_API_KEY");
    }
    // A bank without a key says nothing of one.
    const sarb = await get("/v1/Banks/SARB/DailyRates/Latest");
    expect(sarb.body.credential).toBeUndefined();
    expect(sarb.body.detail).not.toContain("key");
  });

  it("answers a known bank with nothing published from its descriptor; its rates are 'no rates yet'", async () => {
    harness = await startHarness();
    const bank = await get("/v1/banks/SARB");
    expect(bank.status).toBe(200);
    expect(bank.body).toMatchObject({ id: "SARB", bankCurrency: "ZAR" });
    expect(bank.body.countryCode).toContain("ZA");
    expect(bank.body.status).toBeUndefined();

    const latest = await get("/v1/Banks/SARB/DailyRates/Latest.json");
    expect(latest.status).toBe(404);
    expect(latest.type).toBe("application/problem+json");
    expect(latest.body).toMatchObject({ type: "urn:exrates:problem:no-rates-yet", status: 404, bank: "SARB" });

    for (const path of ["/v1/banks/NOPE", "/v1/Banks/NOPE/DailyRates/Latest.json"]) {
      const unknown = await get(path);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ type: "urn:exrates:problem:unknown-bank", title: "Unknown bank" });
    }
    expect(latest.body.title).not.toBe("Unknown bank");
    // The same two problems from the store's routes and the filtered Latest.
    for (const path of [
      "/v1/Banks/SARB/DailyRates/2026-04-01",
      "/v1/Banks/SARB/DailyRates?from=2026-01-01",
      "/v1/Banks/SARB/DailyRates/Latest?currencies=USD",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatchObject({ type: "urn:exrates:problem:no-rates-yet", bank: "SARB" });
    }
    for (const path of ["/v1/Banks/NOPE/DailyRates/2026-04-01", "/v1/Banks/NOPE/DailyRates/Latest?currencies=USD"]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatchObject({ type: "urn:exrates:problem:unknown-bank", bank: "NOPE" });
    }
    // A published bank is still its published file.
    const cnb = await get("/v1/banks/CNB");
    expect(cnb.status).toBe(200);
    expect(cnb.body).toMatchObject({ id: "CNB", name: [{ name: "Bank CNB" }] });
  });

  it("answers a bank before anything is published at all", async () => {
    harness = await startHarness({ publish: false });
    const ecb = await get("/v1/banks/ECB");
    expect(ecb.status).toBe(200);
    expect(ecb.body).toMatchObject({ id: "ECB", bankCurrency: "EUR" });
  });

  it("adds the scheduler's status, secrets masked, and says when a bank with no rates runs next", async () => {
    const secret = "s3cr3t-known-banks-value";
    registerSecret(secret);
    harness = await startHarness({
      server: {
        status: () =>
          Promise.resolve([
            { id: "CNB", state: "up to date", nextRunAt: "2026-04-03T12:31:00.000Z", lastError: null },
            {
              id: "SARB",
              state: "never fetched",
              nextRunAt: "2026-04-03T14:00:00.000Z",
              lastError: `failed with ${secret}`,
            },
          ]),
        banks: () =>
          Promise.resolve(
            new Map([
              ["SARB", { id: "SARB", name: [], bankCurrency: "ZAR" } as never],
              ["CNB", {} as never],
            ]),
          ),
      },
    });
    const sarb = await get("/v1/banks/SARB");
    expect(sarb.status).toBe(200);
    expect(sarb.body).toMatchObject({ id: "SARB", status: { state: "never fetched" } });
    expect(JSON.stringify(sarb.body)).not.toContain(secret);
    const cnb = await get("/v1/banks/CNB");
    expect(cnb.body).toMatchObject({ id: "CNB", name: [{ name: "Bank CNB" }], status: { state: "up to date" } });
    const latest = await get("/v1/Banks/SARB/DailyRates/Latest");
    expect(latest.body).toMatchObject({ type: "urn:exrates:problem:no-rates-yet", state: "never fetched" });
    expect(latest.body.detail).toContain("2026-04-03T14:00:00.000Z");
  });
});

// docs/API.md's Convert samples are the real answers over HTTP: the conversion of 125,000 JPY to EUR
// through CNB's set of 2026-01-05, and the 404 of a currency that set does not quote (IDR, last quoted on
// 2026-01-02), asked for 2026-01-06, a day whose set in force is the 5th's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { apiSample } from "../support/api-docs.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { storeFigures, type Figures } from "../support/store.js";
import { publish } from "../support/unsigned.js";

const CNB_URL = "https://api.cnb.cz/cnbapi/exrates/daily";

let server: InProcessServer;
let auth: Record<string, string>;
const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });

const ingest = (effectiveDate: string, figures: Figures) =>
  storeFigures(server.store, "CNB", effectiveDate, figures, `${effectiveDate}T13:31:00Z`, CNB_URL);

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  ingest("2026-01-02", [
    ["EUR", "24.210"],
    ["IDR", "1.233", 3],
    ["JPY", "13.240", 2],
  ]);
  ingest("2026-01-05", [
    ["EUR", "24.195"],
    ["JPY", "13.226", 2],
  ]);
  recordQuoting(server.store, "CNB", "CZK", "Direct");
  await publish(server.store, [cnb], server.config.outDir);
  auth = { authorization: `Bearer ${await server.token()}` };
}, 60_000);
afterAll(() => server?.stop());

describe("docs/API.md's Convert samples over HTTP", () => {
  it("the conversion", async () => {
    const res = await get("/v1/Banks/CNB/Convert?from=JPY&to=EUR&amount=125000&date=2026-01-05");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(apiSample("into a binary float."));
  });

  it("the currency-not-quoted problem", async () => {
    const res = await get("/v1/Banks/CNB/Convert?from=IDR&to=EUR&amount=1&date=2026-01-06");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(apiSample("quoted it, the earlier on a tie"));
  });
});

// docs/API.md's /v1/currencies and /v1/banks samples are the real answers over a store holding what they
// show: CNB's USD from 1991-01-02 to 2026-03-02, ECB's from 1999-01-04, and NBC's offshore yuan (CNH, a
// market code) in May 2026. The banks sample leaves the other Bank fields out ("…"): the fields it shows
// must be the real ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import ecb from "../../adapters/ECB.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { apiSample } from "../support/api-docs.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { storeFigures } from "../support/store.js";
import { publish } from "../support/unsigned.js";

let server: InProcessServer;
let auth: Record<string, string>;
const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });

const ingest = (bankId: string, effectiveDate: string, currency: string, rate: string) =>
  storeFigures(server.store, bankId, effectiveDate, [[currency, rate]], `${effectiveDate}T12:00:00Z`);

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  ingest("CNB", "1991-01-02", "USD", "28.000");
  ingest("CNB", "2026-03-02", "USD", "20.611");
  ingest("ECB", "1999-01-04", "USD", "1.1789");
  ingest("ECB", "2026-03-02", "USD", "1.0850");
  ingest("NBC", "2026-05-18", "CNH", "575.12");
  ingest("NBC", "2026-05-25", "CNH", "574.90");
  recordQuoting(server.store, "CNB", "CZK", "Direct");
  recordQuoting(server.store, "ECB", "EUR", "Indirect");
  recordQuoting(server.store, "NBC", "KHR", "Direct");
  await publish(server.store, [cnb, ecb], server.config.outDir);
  auth = { authorization: `Bearer ${await server.token()}` };
  // The server picks the published generation up on its own.
  for (let i = 0; i < 50 && (await get("/v1/banks")).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
}, 60_000);
afterAll(() => server?.stop());

describe("docs/API.md's list samples", () => {
  it("/v1/currencies", async () => {
    const res = await get("/v1/currencies");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(apiSample("`GET /v1/currencies` (JSON only)"));
  });

  it("/v1/banks: CNB's entry, the fields shown", async () => {
    const res = await get("/v1/banks");
    expect(res.status).toBe(200);
    const { banks } = (await res.json()) as { banks: Array<Record<string, unknown>> };
    const [shown] = (apiSample("## Banks") as { banks: Array<Record<string, unknown>> }).banks;
    const { "…": elided, ...fields } = shown!;
    expect(elided).toBe("the other Bank fields");
    expect(banks.find((b) => b.id === "CNB")).toMatchObject(fields);
  });
});

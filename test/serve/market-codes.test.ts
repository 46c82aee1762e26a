// A market code through the server: `/v1/currencies` lists CNH with `iso4217: false` and its note (and
// ISO codes without either), and the `currencies` filter takes it like an ISO code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { marketCode } from "../../src/feed/market-codes.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { ingestBatches } from "../../src/store/rates.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;

beforeAll(async () => {
  h = await startHarness({ publish: false });
  const records = [
    { effectiveDate: "2026-05-18", currency: "CNH", rate: "593.00" },
    { effectiveDate: "2026-05-18", currency: "USD", rate: "4014" },
  ];
  ingestBatches(h.store, "NBC", [
    {
      provenance: {
        kind: "import",
        method: "GET",
        url: "https://bank.example/feed",
        startedAt: new Date("2026-05-18T10:00:00Z"),
        finishedAt: new Date("2026-05-18T10:00:01Z"),
        httpStatus: 200,
        body: Buffer.from(JSON.stringify(records)),
      },
      records,
    },
  ]);
  recordQuoting(h.store, "NBC", "KHR", "Direct");
  auth = { authorization: `Bearer ${await h.token()}` };
});
afterAll(() => h.close());

describe("market codes in the API", () => {
  it("GET /v1/currencies marks CNH as a market code with its note", async () => {
    const res = await fetch(`${h.url}/v1/currencies`, { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { currencies: Array<Record<string, unknown>> };
    expect(body.currencies).toEqual([
      {
        code: "CNH",
        name: "Chinese Yuan (offshore)",
        iso4217: false,
        note: marketCode("CNH")!.note,
        banks: [{ bankId: "NBC", since: "2026-05-18", latest: "2026-05-18" }],
      },
      {
        code: "USD",
        name: "US Dollar",
        banks: [{ bankId: "NBC", since: "2026-05-18", latest: "2026-05-18" }],
      },
    ]);
  });

  it("takes CNH in the currencies filter, and still refuses a code that is neither", async () => {
    const ok = await fetch(`${h.url}/v1/Banks/NBC/DailyRates/2026-05-18.json?currencies=cnh`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"CNH"');
    const bad = await fetch(`${h.url}/v1/Banks/NBC/DailyRates/2026-05-18.json?currencies=CNX`, { headers: auth });
    expect(bad.status).toBe(400);
  });
});

// Convert of NBP reads its daily Table A. A currency only the weekly Table B quotes (AFN) is refused as
// not quoted, and the refusal names where it is quoted: NBP's Weekly rates on their nearest table, in the
// detail and as `otherFrequencies`. A currency neither table quotes is refused as before, with no such name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import nbp from "../../adapters/NBP.js";
import nbpWeekly from "../../adapters/NBPB.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { storeFigures, type Figures } from "../support/store.js";
import { publish } from "../support/unsigned.js";

let server: InProcessServer;
let auth: Record<string, string>;
const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });

const ingest = (source: string, effectiveDate: string, figures: Figures, at: string) =>
  storeFigures(server.store, source, effectiveDate, figures, at, `https://api.nbp.pl/${source}`);

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  ingest("NBP", "2026-03-12", [["USD", "3.6771"]], "2026-03-12T11:15:00Z");
  ingest("NBP", "2026-03-13", [["USD", "3.6812"]], "2026-03-13T11:15:00Z");
  ingest("NBPB", "2026-03-11", [["AFN", "0.056626"]], "2026-03-11T11:30:00Z");
  recordQuoting(server.store, "NBP", "PLN", "Direct");
  recordQuoting(server.store, "NBPB", "PLN", "Direct");
  await publish(server.store, [nbp, nbpWeekly], server.config.outDir);
  auth = { authorization: `Bearer ${await server.token()}` };
  for (let i = 0; i < 50; i++) {
    if ((await get("/v1/Banks/NBP/WeeklyRates/Latest")).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);
afterAll(() => server?.stop());

describe("Convert of NBP and a currency of its weekly table", () => {
  it.each([
    ["Latest", "/v1/Banks/NBP/Convert?from=AFN&to=PLN&amount=100", "2026-03-13"],
    ["a date", "/v1/Banks/NBP/Convert?from=AFN&to=PLN&amount=100&date=2026-03-12", "2026-03-12"],
  ])("%s: 404 naming NBP's Weekly rates on their nearest table", async (_, path, date) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem.type).toBe("urn:exrates:problem:currency-not-quoted");
    expect(problem.detail).toBe(
      `NBP quoted no rate of AFN (not in NBP's daily rates; NBP's Weekly rates quote it: ` +
        `/v1/Banks/NBP/WeeklyRates/2026-03-11) on ${date}`,
    );
    expect(problem.otherFrequencies).toEqual({
      AFN: "NBP's Weekly rates quote it: /v1/Banks/NBP/WeeklyRates/2026-03-11",
    });
  });

  it("a currency neither table quotes names no other table", async () => {
    const res = await get("/v1/Banks/NBP/Convert?from=VND&to=PLN&amount=100&date=2026-03-12");
    expect(res.status).toBe(404);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem.detail).toBe("NBP quoted no rate of VND (NBP never quoted it) on 2026-03-12");
    expect(problem).not.toHaveProperty("otherFrequencies");
  });

  it("the daily table's own currencies still convert", async () => {
    const res = await get("/v1/Banks/NBP/Convert?from=USD&to=PLN&amount=100&date=2026-03-12");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: string }).result).toBe("367.71");
  });
});

describe("a pair across banks and NBP's weekly table", () => {
  it("sets the weekly table aside with the reason, named as NBP's, never NBPB", async () => {
    const res = await get("/v1/Pairs/USD/PLN/2026-03-12");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("NBPB");
    const body = JSON.parse(text) as {
      banks: Array<{ bankId: string; rate: string }>;
      unpriced: Array<{ bankId: string; reason: string }>;
    };
    expect(body.banks.map((b) => [b.bankId, b.rate])).toEqual([["NBP", "3.6771"]]);
    expect(body.unpriced).toEqual([
      {
        bankId: "NBP",
        reason:
          "NBP (Weekly) publishes weekly rates, each in force over its period, not daily fixings: " +
          "its rates are under /v1/Banks/NBP/WeeklyRates",
      },
    ]);
  });
});

describe("/v1/currencies and NBP's weekly table", () => {
  it("lists a weekly currency under NBP with its frequency, never NBPB", async () => {
    const res = await get("/v1/currencies");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("NBPB");
    const { currencies } = JSON.parse(text) as { currencies: Array<{ code: string; banks: unknown[] }> };
    expect(currencies.find((c) => c.code === "AFN")?.banks).toEqual([
      { bankId: "NBP", frequency: "Weekly", since: "2026-03-11", latest: "2026-03-11" },
    ]);
    expect(currencies.find((c) => c.code === "USD")?.banks).toEqual([
      { bankId: "NBP", since: "2026-03-12", latest: "2026-03-13" },
    ]);
  });
});

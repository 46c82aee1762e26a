// SIGTERM is honoured within the shutdown deadline in every state: here `exrates serve` (the built CLI, a
// child process) over a store holding a 10,000,000-digit figure planted by SQL, with requests that
// would compute on it in flight. Issue 37, item 2.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { SHUTDOWN_DEADLINE_MS } from "../../src/serve/http/shutdown-deadline.js";
import { publish } from "../support/unsigned.js";
import { recordQuoting } from "../../src/store/anomalies.js";
import { openSqliteStore } from "../../src/store/database.js";
import { ingestBatches } from "../../src/store/rates.js";
import type { RateRecord } from "../../src/types.js";
import { testSite, type TestSite } from "../support/server.js";

let site: TestSite | undefined;
afterAll(async () => site?.close());

async function plantedSite(): Promise<TestSite> {
  const made = await testSite({ prefix: "exrates-shutdown-" });
  const store = await openSqliteStore(join(made.env.EXRATES_DATA_DIR, "exrates.db"));
  const body = readFileSync(new URL("../fixtures/CNB/convert-days.json", import.meta.url));
  const parsed = await cnb.parse(body, { url: cnb.bank.sourceUrl, contentType: "application/json" });
  const records: RateRecord[] = Array.isArray(parsed) ? parsed : parsed.records;
  const at = new Date("2026-03-02T13:31:00Z");
  const provenance = { kind: "import" as const, method: "GET" as const, url: cnb.bank.sourceUrl, startedAt: at };
  ingestBatches(store, "CNB", [{ provenance: { ...provenance, finishedAt: at, httpStatus: 200, body }, records }]);
  recordQuoting(store, "CNB", cnb.bank.bankCurrency, cnb.bank.quoteType);
  store.sqlite
    .prepare("update rates set rate = ? where bank_id = 'CNB' and currency = 'USD'")
    .run(`2${"7".repeat(9_999_999)}`);
  await publish(store, [cnb], made.env.EXRATES_OUT_DIR);
  await store.close();
  return made;
}

describe("exrates serve with a figure beyond the bounds in its store", () => {
  it("answers, and stops on SIGTERM within the shutdown deadline with requests in flight", async () => {
    site = await plantedSite();
    const client = await site.createClient("erp");
    const server = await site.serve({ client });
    const auth = { authorization: `Bearer ${await server.token()}` };
    const paths = [
      "/v1/Banks/CNB/DailyRates/2026-01-02?base=USD",
      "/v1/Banks/CNB/DailyRates/2026-01-02?base=EUR",
      "/v1/Banks/CNB/Convert?from=USD&to=EUR&amount=1&date=2026-01-02",
      "/v1/Banks/CNB/DailyRates?from=2026-01-01&to=2026-01-05&base=EUR",
    ];
    const first = await fetch(`${server.url}${paths[0]}`, { headers: auth });
    expect(first.status).toBe(404);
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${server.url}${paths[i % paths.length]}`, { headers: auth }).then(
        (r) => r.status,
        () => 0,
      ),
    );
    const started = Date.now();
    const stopped = await server.stop("SIGTERM", SHUTDOWN_DEADLINE_MS + 5000);
    const took = Date.now() - started;
    expect(took).toBeLessThan(SHUTDOWN_DEADLINE_MS);
    expect(stopped.code).toBe(0);
    // Each request in flight was answered or cut, none left hanging.
    for (const status of await Promise.all(inFlight)) expect([0, 200, 404, 503]).toContain(status);
  }, 120_000);
});

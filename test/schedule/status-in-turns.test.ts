// The status rows a server computes for its banks' notices one bank per turn of the event loop
// (bankStatusesInTurns, src/serve/server.ts) are bankStatuses' rows, bank for bank: a bank stale, one up to
// date and one never fetched, on a Thursday afternoon.
import { afterEach, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import ecb from "../../adapters/ECB.js";
import nbp from "../../adapters/NBP.js";
import { bankStatuses, bankStatusesInTurns } from "../../src/schedule/status.js";
import { storeRates } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(() => cleanup?.());

describe("bank status rows made in turns", () => {
  it("are bankStatuses' rows, in the adapters' order", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    storeRates(t.store, "CNB", [{ effectiveDate: "2026-04-02", currency: "USD", rate: "20.611" }]);
    storeRates(t.store, "ECB", [{ effectiveDate: "2025-12-01", currency: "USD", rate: "1.1594" }]);
    const options = { env: {}, now: new Date("2026-04-02T15:00:00Z") };
    const adapters = [cnb, ecb, nbp];
    const inTurns = await bankStatusesInTurns(t.store, adapters, options);
    expect(inTurns).toEqual(await bankStatuses(t.store, adapters, options));
    expect(inTurns.map((s) => [s.id, s.state])).toEqual([
      ["CNB", "up to date"],
      ["ECB", "stale"],
      ["NBP", "never fetched"],
    ]);
  });
});

// What `exrates banks` (and `GET /v1/status`) says of a bank must not mislead: an error that a later
// run got past is not the bank's state, a bank months behind is stale at once rather than "pending"
// while today's window is open, and the table's columns line up whatever the zone's name.
import { afterEach, describe, expect, it } from "vitest";

import { table } from "../../src/cli/commands/banks.js";
import { bankStatuses } from "../../src/schedule/status.js";
import { recordFailedFetch } from "../../src/store/rates.js";
import { recordRunFinished, recordRunStarted } from "../../src/store/runs.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

// Testing banks publish at 14:30 Prague time on weekdays; 2026-11-27 is a Friday.
const bank = testBank("AAA");
const usd = (date: string) => [{ effectiveDate: date, currency: "USD", rate: "20.5" }];
const ENOTFOUND = "https://bank.example/feed: getaddrinfo ENOTFOUND bank.example after 5 tries";

async function failedFetch(store: Parameters<typeof recordFailedFetch>[0], at: Date): Promise<void> {
  await recordFailedFetch(
    store,
    "AAA",
    { kind: "fetch", method: "GET", url: "https://bank.example/feed", startedAt: at, finishedAt: at },
    ENOTFOUND,
  );
}

describe("bank status", () => {
  it("an old ENOTFOUND is not the state once a later run ended well without fetching", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    storeRates(t.store, "AAA", usd("2026-11-26"), new Date("2026-11-26T13:31:00Z"));
    await failedFetch(t.store, new Date("2026-11-27T08:00:00Z"));
    const now = new Date("2026-11-27T10:00:00Z");
    const [failing] = await bankStatuses(t.store, [bank], { env: {}, now });
    expect(failing).toMatchObject({ state: "failing", summary: `failing: ${ENOTFOUND}` });
    // A run at 09:00 found the bank up to date and ended ok without a fetch.
    await recordRunStarted(t.store, "AAA", "catch-up", new Date("2026-11-27T09:00:00Z"));
    await recordRunFinished(
      t.store,
      "AAA",
      { state: "ok", message: "up to date (newest 2026-11-26)" },
      new Date("2026-11-27T09:00:01Z"),
    );
    const [after] = await bankStatuses(t.store, [bank], { env: {}, now });
    expect(after).toMatchObject({ state: "up to date", summary: "up to date", lastError: ENOTFOUND });
  });

  it("a bank months behind is stale while today's window is still open, not waiting", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    storeRates(t.store, "AAA", usd("2026-03-18"), new Date("2026-03-18T13:31:00Z"));
    // 14:00 UTC on Friday 2026-11-27: 30 minutes after today's publication time, inside its window.
    const now = new Date("2026-11-27T14:00:00Z");
    const [behind] = await bankStatuses(t.store, [bank], { env: {}, now });
    expect(behind).toMatchObject({ state: "stale", stale: true, expectedDate: "2026-11-27" });
    expect(behind!.summary).toMatch(/^stale: newest 2026-03-18, expected 2026-11-27/);
    // One publication behind, inside the window: still waiting.
    storeRates(t.store, "AAA", usd("2026-11-26"), new Date("2026-11-26T13:31:00Z"));
    const [oneBehind] = await bankStatuses(t.store, [bank], { env: {}, now });
    expect(oneBehind).toMatchObject({ state: "waiting", stale: false });
  });
});

describe("the banks table", () => {
  it("lines its columns up whatever the length of a zone's name", () => {
    const text = table(
      ["BANK", "PUBLISHES (LOCAL)", "HELD", "STATE"],
      [
        ["ECB", "16:00:00 Europe/Berlin", "0", "ok"],
        ["BCRA", "19:00:00 America/Argentina/Buenos_Aires", "12", "stale: newest 2026-03-18"],
      ],
      new Set([2]),
    );
    expect(text.split("\n")).toEqual([
      "BANK PUBLISHES (LOCAL)                       HELD STATE",
      "ECB  16:00:00 Europe/Berlin                     0 ok",
      "BCRA 19:00:00 America/Argentina/Buenos_Aires   12 stale: newest 2026-03-18",
    ]);
  });
});

import { afterEach, describe, expect, it } from "vitest";

import { createLogger } from "../../src/log.js";
import { attemptRun, type AttemptDeps, type BankRun } from "../../src/schedule/attempt.js";
import type { BankAdapter, RateRecord } from "../../src/types.js";
import { fakeHttp } from "../support/http.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const log = createLogger("silent", false);
// Monday 2026-11-23 14:30 Prague (13:30Z): the bank's run falls then and 2026-11-23 is expected.
const SLOT = new Date("2026-11-23T13:30:00Z");
const POLL = { initialDelayMs: 60_000, maxDelayMs: 240_000, windowMs: 3_600_000 };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A bank whose feed answers `answer()` (records, or an error to throw). */
function bank(answer: () => RateRecord[] | Error): BankAdapter {
  return {
    ...testBank("AAA"),
    fetch: () => {
      const result = answer();
      if (result instanceof Error) return Promise.reject(result);
      const at = new Date();
      const body = Buffer.from(JSON.stringify(result));
      return Promise.resolve([
        {
          url: "https://aaa.example/",
          method: "GET",
          status: 200,
          contentType: "application/json",
          body,
          startedAt: at,
          finishedAt: at,
        },
      ]);
    },
    parse: (body: Uint8Array) => JSON.parse(Buffer.from(body).toString()) as RateRecord[],
  };
}

async function setup(adapter: BankAdapter, minutesAfterSlot = 0, windowMinutes = 60) {
  const t = await tempStore();
  cleanup = t.cleanup;
  const published: string[][] = [];
  const aborter = new AbortController();
  const deps: AttemptDeps = {
    store: t.store,
    log,
    http: fakeHttp(),
    env: {},
    poll: POLL,
    signal: aborter.signal,
    republish: (ids) => Promise.resolve(published.push(ids)),
  };
  const clock = () => new Date(SLOT.getTime() + minutesAfterSlot * 60_000);
  const run: BankRun = {
    adapter,
    reason: "schedule",
    polling: true,
    force: false,
    clock,
    windowEnd: new Date(SLOT.getTime() + windowMinutes * 60_000),
    tally: { inserted: 0, revised: 0, tries: 0 },
  };
  return { store: t.store, deps, run, published, aborter };
}

const usd = (date: string): RateRecord[] => [{ effectiveDate: date, currency: "USD", rate: "20.5" }];

describe("one try of a run", () => {
  it("is done without fetching when the expected date is stored", async () => {
    let fetched = 0;
    const { store, deps, run } = await setup(bank(() => (fetched++, usd("2026-11-23"))));
    storeRates(store, "AAA", usd("2026-11-23"));
    expect(await attemptRun(deps, run, 1)).toEqual({
      kind: "done",
      message: "up to date (newest 2026-11-23, expected 2026-11-23)",
    });
    expect(fetched).toBe(0);
    expect(run.tally).toMatchObject({ tries: 0, expected: "2026-11-23", newest: "2026-11-23" });
  });

  it("stores and re-publishes what it fetched, and is done when that is the expected date", async () => {
    const { deps, run, published } = await setup(bank(() => usd("2026-11-23")));
    expect(await attemptRun(deps, run, 1)).toEqual({ kind: "done", message: "2026-11-23 stored (1 added, 0 revised)" });
    expect(published).toEqual([["AAA"]]);
    expect(run.tally).toMatchObject({ tries: 1, inserted: 1, newest: "2026-11-23" });
  });

  it("polls again after the backoff delay when the date is not published yet", async () => {
    const { deps, run } = await setup(bank(() => usd("2026-11-20")));
    expect(await attemptRun(deps, run, 1)).toMatchObject({
      kind: "poll-again",
      after: 60_000,
      expected: "2026-11-23",
      why: "2026-11-23 not published yet (newest 2026-11-20)",
    });
    expect(await attemptRun(deps, run, 3)).toMatchObject({ kind: "poll-again", after: 240_000 });
  });

  it("gives up when the next poll would fall after the window, and fails when the try's fetch failed", async () => {
    const late = await setup(
      bank(() => usd("2026-11-20")),
      59.5,
    );
    const gaveUp = await attemptRun(late.deps, late.run, 1);
    expect(gaveUp).toEqual({
      kind: "give-up",
      reason:
        "2026-11-23 not published yet (newest 2026-11-20); gave up after 1 try (polling window until 2026-11-23 15:30 local); next run 2026-11-24 14:30 local",
    });
    await cleanup?.();
    const failing = await setup(
      bank(() => new Error("HTTP 500")),
      59.5,
    );
    expect(await attemptRun(failing.deps, failing.run, 1)).toMatchObject({
      kind: "failed",
      error: expect.stringContaining("HTTP 500") as unknown,
    });
  });

  it("stops at once when shutdown has begun", async () => {
    const { deps, run, aborter } = await setup(bank(() => usd("2026-11-23")));
    aborter.abort();
    expect(await attemptRun(deps, run, 1)).toEqual({ kind: "stopped", message: "stopped by shutdown" });
    expect(run.tally.tries).toBe(0);
  });
});

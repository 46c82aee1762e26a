import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import {
  isCovered,
  planBackfill,
  runBackfill,
  unpublishedBanks,
  type ChunkEvent,
} from "../../src/backfill/backfill.js";
import { publish } from "../../src/publish/publisher.js";
import type { FeedDocument } from "../../src/types.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";
import { echo, rangeBank } from "./range-bank.js";

const NOW = new Date("2026-11-21T12:00:00Z");

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("planBackfill", () => {
  const bank = rangeBank("AAA");
  it("defaults to the coverage start and today, chunked by maxRangeDays", () => {
    const [plan] = planBackfill([bank], { now: NOW });
    expect(plan).toMatchObject({ from: "2026-01-01", to: "2026-11-21" });
    expect(plan!.chunks[0]).toEqual({ from: "2026-01-01", to: "2026-01-30" });
    expect(plan!.chunks.at(-1)!.to).toBe("2026-11-21");
    expect(plan!.chunks.length).toBe(11);
  });
  it("clamps to the coverage start and today", () => {
    const [plan] = planBackfill([bank], { from: "1990-01-01", to: "2030-01-01", now: NOW });
    expect(plan).toMatchObject({ from: "2026-01-01", to: "2026-11-21" });
  });
  it.each([
    [{ from: "2026-02-30" }, '--from "2026-02-30" is not a date (YYYY-MM-DD)'],
    [{ to: "yesterday" }, '--to "yesterday" is not a date (YYYY-MM-DD)'],
    [{ from: "2026-03-05", to: "2026-03-01" }, "--from 2026-03-05 is after --to 2026-03-01"],
  ])("rejects bad input %j", (request, message) => {
    expect(() => planBackfill([bank], { ...request, now: NOW })).toThrow(message);
  });
});

describe("isCovered", () => {
  it("finds a range inside the union of completed ranges", () => {
    const done = [
      { from: "2026-01-01", to: "2026-01-10" },
      { from: "2026-01-11", to: "2026-01-20" },
      { from: "2026-02-01", to: "2026-02-10" },
    ];
    expect(isCovered(done, "2026-01-05", "2026-01-15")).toBe(true);
    expect(isCovered(done, "2026-01-15", "2026-01-25")).toBe(false);
    expect(isCovered(done, "2026-02-01", "2026-02-10")).toBe(true);
    expect(isCovered([], "2026-02-01", "2026-02-01")).toBe(false);
  });
});

describe("runBackfill", () => {
  it("stores every chunk, reports each, and a second run skips what is done (resume)", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const bank = rangeBank("AAA");
    const plans = planBackfill([bank], { from: "2026-01-01", to: "2026-04-30", now: NOW });
    const controller = new AbortController();
    const events: ChunkEvent[] = [];
    const first = await runBackfill(t.store, plans, {
      http: echo,
      pauseMs: 0,
      now: () => NOW,
      signal: controller.signal,
      onChunk: (e) => {
        events.push(e);
        if (events.length === 2) controller.abort(); // Ctrl-C after the second chunk
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.banks[0]).toMatchObject({ stored: 2, skipped: 0, failed: 0 });
    expect(events.map((e) => e.status)).toEqual(["stored", "stored"]);
    expect(events[0]).toMatchObject({
      bankId: "AAA",
      from: "2026-01-01",
      to: "2026-01-30",
      inserted: 21,
      daysWithoutPublication: 1,
      done: 1,
      total: 4,
    });

    const second = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(second.interrupted).toBe(false);
    expect(second.banks[0]).toMatchObject({ chunks: 4, stored: 2, skipped: 2, failed: 0, revised: 0 });
    expect(bank.calls.length).toBe(4); // each chunk fetched once overall
    const rows = t.store.sqlite
      .prepare("select count(*) as n, count(distinct effective_date) as d from rates where bank_id = 'AAA'")
      .get() as { n: number; d: number };
    expect(rows.n).toBe(rows.d);
    expect(first.totals.inserted + second.totals.inserted).toBe(rows.n);
    expect(t.store.sqlite.prepare("select rate from rates where effective_date = '2026-03-02'").pluck().get()).toBe(
      "20.0302",
    );
    // Running it all again is idempotent: nothing added, nothing revised.
    const third = await runBackfill(t.store, planBackfill([bank], { from: "2026-01-01", to: "2026-04-30", now: NOW }), {
      http: echo,
      pauseMs: 0,
      now: () => NOW,
    });
    expect(third.totals).toMatchObject({ inserted: 0, revised: 0, skipped: 4 });
  });

  it("does not record a chunk that reaches the newest expected publication, so it is fetched again", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const bank = rangeBank("AAA");
    const plans = planBackfill([bank], { from: "2026-11-01", now: NOW });
    await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(bank.calls.length).toBe(2);
  });

  it("a failing bank is reported and abandoned after 3 failures in a row; others are unaffected", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const good = rangeBank("GOOD");
    const bad = rangeBank("BAD", { failFrom: "2026-02-01" });
    const plans = planBackfill([bad, good], { from: "2026-01-01", to: "2026-08-31", now: NOW });
    const summary = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW, concurrency: 2 });
    const [b, g] = summary.banks;
    expect(b).toMatchObject({ bankId: "BAD", stored: 2, failed: 3 }); // the chunks starting 01-01 and 01-31 store, the next three fail
    expect(b!.errors.at(-1)).toContain("gave up on BAD after 3 failed chunks in a row");
    expect(b!.errors[0]).toContain("BAD: could not parse");
    expect(g).toMatchObject({ bankId: "GOOD", stored: 9, failed: 0 });
    expect(summary.totals.errors).toBe(3);
    const failedFetches = t.store.sqlite
      .prepare("select count(*) from fetches where bank_id = 'BAD' and error is not null")
      .pluck()
      .get();
    expect(failedFetches).toBe(3);
  });

  it("asks one host one request at a time, with a pause between", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    let inFlight = 0;
    let most = 0;
    const times: number[] = [];
    const slow = {
      ...echo,
      async get(url: string): Promise<FeedDocument> {
        inFlight++;
        most = Math.max(most, inFlight);
        times.push(Date.now());
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return echo.get(url);
      },
    };
    // Two banks on the same host.
    const a = rangeBank("AAA");
    const b = { ...rangeBank("BBB"), fetch: a.fetch.bind(a) };
    await runBackfill(t.store, planBackfill([a, b], { from: "2026-01-01", to: "2026-03-31", now: NOW }), {
      http: slow,
      pauseMs: 30,
      now: () => NOW,
      concurrency: 2,
    });
    expect(most).toBe(1);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(30);
  });
});

describe("unpublishedBanks", () => {
  it("finds the banks whose stored data the tree does not show: a newer date, or newer figures of its date", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const outDir = join(t.dir, "out");
    const banks = [testBank("AAA"), testBank("BBB"), testBank("CCC")];
    const usd = (date: string, rate = "20.5") => [{ effectiveDate: date, currency: "USD", rate }];
    storeRates(t.store, "AAA", usd("2026-11-20"), new Date("2026-11-20T14:00:00Z"));
    storeRates(t.store, "BBB", usd("2026-11-20"), new Date("2026-11-20T14:00:00Z"));
    expect(await unpublishedBanks(t.store, outDir, ["AAA", "BBB", "CCC"])).toEqual(["AAA", "BBB"]); // no tree yet
    await publish(t.store, banks, outDir);
    expect(await unpublishedBanks(t.store, outDir, ["AAA", "BBB", "CCC"])).toEqual([]);
    storeRates(t.store, "AAA", usd("2026-11-23"), new Date("2026-11-23T14:00:00Z"));
    storeRates(t.store, "BBB", usd("2026-11-20", "20.6"), new Date("2026-11-23T14:00:00Z")); // a revision
    expect(await unpublishedBanks(t.store, outDir, ["AAA", "BBB", "CCC"])).toEqual(["AAA", "BBB"]);
  });
});

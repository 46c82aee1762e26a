import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import {
  isCovered,
  planBackfill,
  runBackfill,
  unpublishedBanks,
  type ChunkEvent,
} from "../../src/backfill/backfill.js";
import { publish } from "../support/unsigned.js";
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
  it("refuses a range before a bank's coverage, after a historical bank's end, or in the future", () => {
    const ecb = { ...bank, bank: { ...bank.bank, id: "ECB", coverageStart: "1999-01-04" } };
    const bbk = { ...bank, bank: { ...bank.bank, id: "BBK", coverageStart: "1948-06-21", coverageEnd: "1998-12-31" } };
    expect(() => planBackfill([ecb], { from: "1990-01-01", to: "1990-01-31", now: NOW })).toThrow(
      "ECB covers 1999-01-04 onward: 1990-01-01..1990-01-31 is before it",
    );
    expect(() => planBackfill([ecb], { to: "1990-01-31", now: NOW })).toThrow(
      "ECB covers 1999-01-04 onward: --to 1990-01-31 is before it",
    );
    expect(() => planBackfill([bbk], { from: "2025-01-01", to: "2025-12-31", now: NOW })).toThrow(
      "BBK covers 1948-06-21 to 1998-12-31 (its feed ends there): 2025-01-01..2025-12-31 is after it",
    );
    expect(() => planBackfill([ecb], { from: "2026-11-22", now: NOW })).toThrow(
      "ECB: --from 2026-11-22 is in the future (today in Europe/Prague is 2026-11-21)",
    );
  });
  it("stops a historical bank's range at its coverage end; --all leaves out a bank the range misses", () => {
    const bbk = { ...bank, bank: { ...bank.bank, id: "BBK", coverageStart: "1948-06-21", coverageEnd: "1998-12-31" } };
    expect(planBackfill([bbk], { from: "1998-12-01", now: NOW })[0]).toMatchObject({
      from: "1998-12-01",
      to: "1998-12-31",
    });
    const [skipped, kept] = planBackfill([bbk, bank], { from: "2026-03-01", now: NOW, outside: "skip" });
    expect(skipped!.chunks).toEqual([]);
    expect(skipped!.outside).toContain("BBK covers 1948-06-21 to 1998-12-31");
    expect(kept!.chunks.length).toBeGreaterThan(0);
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
      // 2026-01-01 is a closing in the bank's calendar (New Year), not a publication day without rates.
      daysWithoutPublication: 0,
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

describe("a range is done only as far as its answer contained it", () => {
  const chunksOf = (t: Awaited<ReturnType<typeof tempStore>>, id: string) =>
    t.store.sqlite
      .prepare("select from_date || '..' || to_date from backfill_chunks where bank_id = ? order by from_date")
      .pluck()
      .all(id);

  it("an answer holding other dates than asked is not done, is said so, and the next run fetches it again", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    // As the mirror answers CNB: whatever is asked, January and February.
    const bank = rangeBank("AAA", { serves: () => ({ from: "2026-01-01", to: "2026-02-28" }) });
    const plans = planBackfill([bank], { from: "2026-03-01", to: "2026-03-05", now: NOW });
    const events: ChunkEvent[] = [];
    const first = await runBackfill(t.store, plans, {
      http: echo,
      pauseMs: 0,
      now: () => NOW,
      onChunk: (e) => events.push(e),
    });
    expect(events.map((e) => e.status)).toEqual(["empty"]);
    expect(events[0]!.answered).toEqual({ from: "2026-01-02", to: "2026-02-27" });
    // Said without Sunday 03-01, on which the bank does not publish.
    expect(first.banks[0]!.notDone).toEqual([
      {
        from: "2026-03-02",
        to: "2026-03-05",
        reason: "the answer contained none of these dates (it contained 2026-01-02 to 2026-02-27)",
      },
    ]);
    expect(first.totals.notDone).toBe(1);
    // One verdict for the chunk: not done, not also counted done.
    expect(first.totals).toMatchObject({ chunks: 1, stored: 0, unfinished: 1 });
    expect(chunksOf(t, "AAA")).toEqual([]);
    const second = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(second.banks[0]).toMatchObject({ skipped: 0 });
    expect(bank.calls.length).toBe(2);
  });

  it("a range every publication day of which is stored is done, although the answer did not contain it", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    // First the bank answers what is asked; then, as the mirror answers CNB, January and February only.
    let other = false;
    const bank = rangeBank("AAA", { serves: (r) => (other ? { from: "2026-01-01", to: "2026-02-28" } : r) });
    const plans = planBackfill([bank], { from: "2026-03-01", to: "2026-03-05", now: NOW });
    const run = () => runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW, force: true });
    expect((await run()).totals).toMatchObject({ stored: 1, notDone: 0 });
    other = true;
    const again = await run();
    expect(again.banks[0]!.notDone).toEqual([]);
    expect(again.totals).toMatchObject({ chunks: 1, stored: 1, unfinished: 0, notDone: 0 });
    expect(chunksOf(t, "AAA")).toEqual(["2026-03-01..2026-03-05"]);
  });

  it("an answer without any rate (a 404 read as no publication) is not done", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const bank = rangeBank("AAA", { serves: () => ({ from: "2026-03-06", to: "2026-03-05" }) });
    const summary = await runBackfill(
      t.store,
      planBackfill([bank], { from: "2026-03-01", to: "2026-03-05", now: NOW }),
      {
        http: echo,
        pauseMs: 0,
        now: () => NOW,
      },
    );
    expect(summary.banks[0]!.notDone[0]!.reason).toBe(
      "the answer contained none of these dates (it contained no rates)",
    );
    expect(chunksOf(t, "AAA")).toEqual([]);
  });

  it("an answer that stops early is done up to its last date; the rest waits for the next chunk's answer", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    // Chunks of 30 days: 01-01..01-30, 01-31..03-01. The first answer stops at 01-23 (a Friday).
    const stops = rangeBank("AAA", {
      serves: (r) => (r.from === "2026-01-01" ? { from: r.from, to: "2026-01-23" } : r),
    });
    const plans = planBackfill([stops], { from: "2026-01-01", to: "2026-01-30", now: NOW });
    const events: ChunkEvent[] = [];
    const alone = await runBackfill(t.store, plans, {
      http: echo,
      pauseMs: 0,
      now: () => NOW,
      onChunk: (e) => events.push(e),
    });
    expect(events.map((e) => e.status)).toEqual(["partial"]);
    // Done to the Friday and the weekend after it; Monday 01-26 on is not.
    expect(chunksOf(t, "AAA")).toEqual(["2026-01-01..2026-01-25"]);
    expect(alone.banks[0]!.notDone).toEqual([
      { from: "2026-01-26", to: "2026-01-30", reason: "the answer's last date in the range is 2026-01-23" },
    ]);
    // The next run asks only for what is not done.
    await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(stops.calls.at(-1)).toEqual({ kind: "range", from: "2026-01-26", to: "2026-01-30" });
  });

  it("gives each chunk one verdict, says no day the bank does not publish, and a finished range reruns as a no-op", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    // Chunks of 30 days: 01-01..01-30, 01-31..03-01, 03-02..03-05. The second answer stops at Friday 02-20.
    const bank = rangeBank("AAA", {
      serves: (r) => (r.from === "2026-01-31" ? { from: r.from, to: "2026-02-20" } : r),
    });
    const plans = planBackfill([bank], { from: "2026-01-01", to: "2026-03-05", now: NOW });
    const first = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    const [summary] = first.banks;
    // The third chunk's answer shows the bank went on: the second chunk's rest is done after all.
    expect(summary!.notDone).toEqual([]);
    expect(first.totals).toMatchObject({ chunks: 3, stored: 3, unfinished: 0, skipped: 0, failed: 0 });

    // A rest nothing vouches for: the chunk is not done, and only it; its weekend end is not listed.
    const t2 = await tempStore();
    const cut = rangeBank("AAA", {
      serves: (r) => (r.from === "2026-01-31" ? { from: r.from, to: "2026-02-20" } : r),
    });
    const alone = planBackfill([cut], { from: "2026-01-01", to: "2026-03-01", now: NOW });
    try {
      const partial = await runBackfill(t2.store, alone, { http: echo, pauseMs: 0, now: () => NOW });
      expect(partial.banks[0]!.notDone).toEqual([
        { from: "2026-02-23", to: "2026-02-27", reason: "the answer's last date in the range is 2026-02-20" },
      ]);
      expect(partial.totals).toMatchObject({ chunks: 2, stored: 1, unfinished: 1 });
      const t = partial.totals;
      expect(t.stored + t.unfinished + t.skipped + t.failed).toBe(t.chunks);
    } finally {
      await t2.cleanup();
    }

    // Rerunning the finished range fetches nothing and has nothing to say.
    const calls = bank.calls.length;
    const again = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(bank.calls.length).toBe(calls);
    expect(again.totals).toMatchObject({ chunks: 3, stored: 0, unfinished: 0, skipped: 3, failed: 0, notDone: 0 });
  });

  it("days without rates between two answers' dates are holidays: done once the next chunk's answer goes on", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    // 01-26..01-30 are holidays at the end of the first chunk; the second chunk's answer has rates.
    const bank = rangeBank("AAA", { holidays: ["2026-01-26", "2026-01-27", "2026-01-28", "2026-01-29", "2026-01-30"] });
    const plans = planBackfill([bank], { from: "2026-01-01", to: "2026-03-01", now: NOW });
    const first = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(first.banks[0]!.notDone).toEqual([]);
    expect(first.totals.notDone).toBe(0);
    const second = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(second.banks[0]).toMatchObject({ skipped: 2, stored: 0 });
    expect(bank.calls.length).toBe(2);
  });

  it("a chunk without a publication day is done once fetched", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const bank = rangeBank("AAA", { maxRangeDays: 2 });
    // 2026-03-07 and 03-08 are a Saturday and a Sunday.
    const summary = await runBackfill(
      t.store,
      planBackfill([bank], { from: "2026-03-07", to: "2026-03-08", now: NOW }),
      {
        http: echo,
        pauseMs: 0,
        now: () => NOW,
      },
    );
    expect(summary.totals.notDone).toBe(0);
    expect(chunksOf(t, "AAA")).toEqual(["2026-03-07..2026-03-08"]);
  });

  it("force fetches recorded ranges again and forgets the records a wrong answer left", async () => {
    const t = await tempStore();
    cleanup = t.cleanup;
    const bank = rangeBank("AAA");
    // What an earlier version recorded after an answer of other dates: reaching before and after the range.
    t.store.sqlite
      .prepare(
        "insert into backfill_chunks (bank_id, from_date, to_date, completed_at, inserted, revised, unchanged, days_without) values ('AAA', '2026-02-20', '2026-03-10', '2026-11-01T00:00:00Z', 0, 0, 0, 0)",
      )
      .run();
    const plans = planBackfill([bank], { from: "2026-03-01", to: "2026-03-05", now: NOW });
    const skipped = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW });
    expect(skipped.banks[0]).toMatchObject({ skipped: 1, inserted: 0 });
    const forced = await runBackfill(t.store, plans, { http: echo, pauseMs: 0, now: () => NOW, force: true });
    expect(forced.banks[0]).toMatchObject({ skipped: 0, stored: 1, inserted: 4 });
    expect(bank.calls).toEqual([{ kind: "range", from: "2026-03-01", to: "2026-03-05" }]);
    expect(chunksOf(t, "AAA")).toEqual(["2026-02-20..2026-02-28", "2026-03-01..2026-03-05", "2026-03-06..2026-03-10"]);
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

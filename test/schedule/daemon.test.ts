import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { HttpError } from "../../src/errors.js";
import { loadAdapters } from "../../src/feed/registry.js";
import { loadPublicationKeys } from "../../src/publish/signing.js";
import { readCurrentGeneration } from "../../src/publish/tree.js";
import { verifyDirectory } from "../../src/publish/verify.js";
import { createScheduler, type Scheduler } from "../../src/schedule/daemon.js";
import { bankStatuses } from "../../src/schedule/status.js";
import { isPublicationDay } from "../../src/calendar/calendar.js";
import type { BankAdapter, RateRecord } from "../../src/types.js";
import { createLogger } from "../../src/log.js";
import { fakeHttp } from "../support/http.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";
import { unsigned } from "../support/unsigned.js";
import { FEEDS, haveMirror } from "../support/mirror.js";

const log = createLogger("silent", false);
const FAST = { initialDelayMs: 20, maxDelayMs: 40, windowMs: 400 };

/** A clock that stands still but for the waits between polls, which move it on at once. */
function jumpingClock(at: string) {
  let t = Date.parse(at);
  return {
    now: () => new Date(t),
    sleep: (ms: number, signal: AbortSignal) => {
      t += ms;
      return Promise.resolve(!signal.aborted);
    },
  };
}

/** A clock that starts at `at` and runs with real time. */
function clock(at: string): () => Date {
  const base = Date.parse(at);
  const t0 = Date.now();
  return () => new Date(base + (Date.now() - t0));
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup() {
  // The test bank's calendar (Czech holidays) is read once before any clock starts: a run's window
  // here is 400 ms of real time, and the holiday library's first look at a country costs ~100 ms.
  isPublicationDay(testBank("AAA").bank, "2026-11-23");
  const t = await tempStore();
  cleanups.push(t.cleanup);
  return t;
}

function track(s: Scheduler): Scheduler {
  cleanups.push(() => s.stop(1000));
  return s;
}

/** A bank whose "latest" answer is produced by `answer(try number)`. */
function scriptedBank(
  id: string,
  answer: (n: number) => RateRecord[] | Error,
  overrides = {},
): BankAdapter & { tries: number } {
  const bank = testBank(id, { timeZone: "Europe/Prague", dailyUpdateTime: "14:30:00", ...overrides });
  const adapter = {
    ...bank,
    tries: 0,
    fetch() {
      const n = ++adapter.tries;
      const result = answer(n);
      if (result instanceof Error) return Promise.reject(result);
      const at = new Date();
      return Promise.resolve([
        {
          url: `https://${id.toLowerCase()}.example/latest`,
          method: "GET" as const,
          status: 200,
          contentType: "application/json",
          body: Buffer.from(JSON.stringify(result)),
          startedAt: at,
          finishedAt: at,
        },
      ]);
    },
    parse: (body: Uint8Array) => JSON.parse(Buffer.from(body).toString()) as RateRecord[],
  };
  return adapter;
}

const usd = (date: string, rate = "20.5"): RateRecord[] => [{ effectiveDate: date, currency: "USD", rate }];

describe("scheduler runs", () => {
  // Monday 2026-11-23 14:30 Prague = 13:30Z; the run fires then.
  const AT_RUN = "2026-11-23T13:30:00Z";

  it("polls with backoff until the new date appears, then re-publishes that bank", async () => {
    const t = await setup();
    const bank = scriptedBank("AAA", (n) => (n < 3 ? usd("2026-11-20") : usd("2026-11-23", "20.6")));
    const published: string[][] = [];
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir: join(t.dir, "out"),
        log,
        http: fakeHttp(),
        now: clock(AT_RUN),
        // The clock runs in real time: a window this long is never reached on a loaded machine.
        poll: { ...FAST, windowMs: 30_000 },
        cron: false,
        publish: (ids) => Promise.resolve(published.push(ids)),
      }),
    );
    const outcome = await s.runNow("AAA", "schedule");
    expect(outcome).toMatchObject({ state: "ok", tries: 3, newest: "2026-11-23", inserted: 2 });
    expect(published).toEqual([["AAA"], ["AAA"]]); // once for 11-20 (new), once for 11-23
    const row = t.store.sqlite.prepare("select state, message from bank_runs where bank_id = 'AAA'").get() as {
      state: string;
      message: string;
    };
    expect(row).toEqual({ state: "ok", message: "2026-11-23 stored (2 added, 0 revised)" });
  });

  it("gives up at the end of the polling window and records why", async () => {
    const t = await setup();
    const bank = scriptedBank("AAA", () => usd("2026-11-20"));
    const jumping = jumpingClock(AT_RUN);
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir: join(t.dir, "out"),
        log,
        http: fakeHttp(),
        now: jumping.now,
        sleep: jumping.sleep,
        poll: FAST,
        cron: false,
        publish: () => Promise.resolve(),
      }),
    );
    const outcome = await s.runNow("AAA", "schedule");
    expect(outcome.state).toBe("gave-up");
    expect(outcome.tries).toBe(11); // at 0, 20, 60, 100 … 380 ms: the next would fall after the 400 ms window
    expect(outcome.message).toMatch(
      /^2026-11-23 not published yet \(newest 2026-11-20\); gave up after \d+ tries \(polling window until 2026-11-23 14:30 local\); next run 2026-11-24 14:30 local$/,
    );
    const [status] = await bankStatuses(t.store, [bank], { now: new Date("2026-11-23T14:00:00Z"), poll: FAST });
    expect(status).toMatchObject({
      state: "stale",
      stale: true,
      newestDate: "2026-11-20",
      expectedDate: "2026-11-23",
      nextRunAt: "2026-11-24T13:30:00.000Z",
    });
    expect(status!.summary).toContain("gave up");
  });

  it("a timer firing a moment early still runs for its slot", async () => {
    const t = await setup();
    storeRates(t.store, "AAA", usd("2026-11-20"));
    const bank = scriptedBank("AAA", () => usd("2026-11-23"));
    // A clock that stands still 50 ms before the slot (a running one would pass it on a loaded machine).
    const early = () => new Date("2026-11-23T13:29:59.950Z");
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir: join(t.dir, "out"),
        log,
        http: fakeHttp(),
        now: early,
        poll: FAST,
        cron: false,
        publish: () => Promise.resolve(),
      }),
    );
    expect(await s.runNow("AAA", "catch-up")).toMatchObject({ state: "ok", expected: "2026-11-20", tries: 0 }); // by its clock, up to date
    const outcome = await s.runNow("AAA", "schedule", { slotAt: new Date("2026-11-23T13:30:00Z") });
    expect(outcome).toMatchObject({ state: "ok", expected: "2026-11-23", newest: "2026-11-23", tries: 1 });
  });

  it("start publishes what is stored but not yet published", async () => {
    const t = await setup();
    storeRates(t.store, "AAA", usd("2026-11-23"));
    const bank = scriptedBank("AAA", () => usd("2026-11-23"));
    const outDir = join(t.dir, "out");
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir,
        log,
        http: fakeHttp(),
        now: clock("2026-11-23T15:00:00Z"),
        poll: FAST,
        cron: false,
        signing: unsigned,
      }),
    );
    await s.start();
    await s.catchUp();
    expect((await readCurrentGeneration(outDir))!.manifest.banks.AAA!.effectiveDate).toBe("2026-11-23");
    expect(bank.tries).toBe(0); // up to date: no catch-up fetch
  });

  it("never overlaps two runs of one bank", async () => {
    const t = await setup();
    const bank = scriptedBank("AAA", (n) => (n < 3 ? usd("2026-11-20") : usd("2026-11-23")));
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir: join(t.dir, "out"),
        log,
        http: fakeHttp(),
        now: clock(AT_RUN),
        poll: FAST,
        cron: false,
        publish: () => Promise.resolve(),
      }),
    );
    const first = s.runNow("AAA", "schedule");
    const second = await s.runNow("AAA", "manual");
    expect(second.state).toBe("skipped");
    expect(s.running()).toEqual(new Set(["AAA"]));
    expect((await first).state).toBe("ok");
    expect(s.running().size).toBe(0);
  });

  it("stop() ends a run that is waiting to poll at once", async () => {
    const t = await setup();
    const bank = scriptedBank("AAA", () => usd("2026-11-20"));
    const s = createScheduler({
      store: t.store,
      adapters: [bank],
      outDir: join(t.dir, "out"),
      log,
      http: fakeHttp(),
      now: clock(AT_RUN),
      poll: { initialDelayMs: 60_000, maxDelayMs: 60_000, windowMs: 3_600_000 },
      cron: false,
      publish: () => Promise.resolve(),
    });
    const run = s.runNow("AAA", "schedule");
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await s.stop(5000)).toEqual([]);
    // (Well under the 60 s poll it would otherwise wait for; 4 s leaves room for a loaded machine.)
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await run).state).toBe("stopped");
  });

  it("catches up at start: banks behind are fetched, banks up to date are not; unscheduled banks are left alone", async () => {
    const t = await setup();
    const behind = scriptedBank("AAA", () => usd("2026-11-23"));
    const current = scriptedBank("BBB", () => usd("2026-11-23"));
    const needsKey = scriptedBank("CCC", () => usd("2026-11-23"), {
      credential: { env: "EXRATES_CCC_API_KEY", description: "an API key from ccc.example" },
    });
    const historical = scriptedBank("DDD", () => usd("2026-11-23"), { historicalOnly: true });
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [behind, current, needsKey, historical],
        outDir: join(t.dir, "out"),
        log,
        http: fakeHttp(),
        env: {},
        now: clock("2026-11-23T15:00:00Z"),
        poll: FAST,
        cron: false,
        publish: () => Promise.resolve(),
      }),
    );
    await s.runNow("BBB", "manual"); // BBB is already up to date
    const triesBefore = current.tries;
    await s.start();
    const outcomes = await s.catchUp();
    expect(outcomes.map((o) => [o.bankId, o.state])).toEqual([
      ["AAA", "ok"],
      ["BBB", "ok"],
    ]);
    expect(current.tries).toBe(triesBefore);
    expect(needsKey.tries + historical.tries).toBe(0);
    const statuses = await s.status();
    expect(statuses.map((x) => [x.id, x.state, x.scheduled])).toEqual([
      ["AAA", "up to date", true],
      ["BBB", "up to date", true],
      ["CCC", "needs credential", false],
      ["DDD", "historical only", false],
    ]);
    expect(statuses[2]!.summary).toBe("needs EXRATES_CCC_API_KEY (an API key from ccc.example)");
  });
});

describe.skipIf(!haveMirror)("isolation with the reference adapters", () => {
  it("a bank answering 500 and one answering an HTML page keep failing with a clear status; the other is fetched and published", async () => {
    const t = await setup();
    const adapters = [...(await loadAdapters()).values()].filter((a) => ["ECB", "CNB", "CBR"].includes(a.bank.id));
    const ecbCsv = readFileSync(join(FEEDS, "ECB", "002.csv"));
    const http = fakeHttp((req) => {
      const host = new URL(req.url).host;
      if (host === "data-api.ecb.europa.eu") return { contentType: "text/csv", body: ecbCsv };
      if (host === "api.cnb.cz") throw new HttpError(`${req.url}: HTTP 500 after 5 tries`, 500);
      return {
        contentType: "text/html",
        body: "<!DOCTYPE html><html><body>Service temporarily unavailable</body></html>",
      };
    });
    const outDir = join(t.dir, "out");
    // Thursday 2026-03-19 after 16:00 in Frankfurt: ECB's newest recorded date is 03-18, so it is one behind.
    const s = track(
      createScheduler({
        store: t.store,
        adapters,
        outDir,
        log,
        http,
        signing: unsigned,
        now: clock("2026-03-18T16:00:00Z"),
        poll: FAST,
        cron: false,
      }),
    );
    await s.start();
    const outcomes = await s.catchUp();
    expect(Object.fromEntries(outcomes.map((o) => [o.bankId, o.state]))).toEqual({
      CBR: "failed",
      CNB: "failed",
      ECB: "ok",
    });
    const statuses = Object.fromEntries((await s.status()).map((x) => [x.id, x]));
    expect(statuses.ECB).toMatchObject({ state: "up to date", newestDate: "2026-03-18", lastError: null });
    expect(statuses.CNB).toMatchObject({ state: "failing", newestDate: null });
    expect(statuses.CNB!.lastError).toContain("HTTP 500");
    expect(statuses.CBR!.state).toBe("failing");
    expect(statuses.CBR!.lastError).toMatch(/^CBR: /);
    expect(statuses.CBR!.lastError).toMatch(/HTML/i);
    const tree = await readCurrentGeneration(outDir);
    expect(Object.keys(tree!.manifest.banks)).toEqual(["ECB"]);
    expect(tree!.manifest.banks.ECB!.effectiveDate).toBe("2026-03-18");
    // They keep failing on the next run too, without touching ECB.
    expect((await s.runNow("CNB", "schedule")).state).toBe("failed");
    expect((await s.status()).find((x) => x.id === "ECB")!.state).toBe("up to date");
  });
});

describe("the daemon's publishes", () => {
  it("are signed with the publication keys: the tree the daemon published verifies", async () => {
    const t = await setup();
    storeRates(t.store, "AAA", usd("2026-11-23"));
    const bank = scriptedBank("AAA", () => usd("2026-11-24", "20.7"));
    const outDir = join(t.dir, "out");
    const dataDir = join(t.dir, "data");
    const s = track(
      createScheduler({
        store: t.store,
        adapters: [bank],
        outDir,
        log,
        http: fakeHttp(),
        now: clock("2026-11-24T15:00:00Z"),
        poll: FAST,
        cron: false,
        signing: () => loadPublicationKeys(dataDir),
      }),
    );
    await s.start();
    await s.catchUp();
    const first = await verifyDirectory(outDir);
    expect(first.problems).toEqual([]);
    expect(first.kid).toBe((await loadPublicationKeys(dataDir)).active.kid);
    expect((await readCurrentGeneration(outDir))!.manifest.banks.AAA!.effectiveDate).toBe("2026-11-24");
  });
});

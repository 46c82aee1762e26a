// The daemon's catch-up and polling against a fake clock: a run waiting to poll again holds no fetch
// slot, every bank behind is tried once before any second poll, banks with nothing stored go first,
// a failing bank backs off alone, and the start logs one summary instead of a line per bank.
import { join } from "node:path";
import { Writable } from "node:stream";

import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";

import { HttpError } from "../../src/errors.js";
import { noPublication } from "../../src/feed/rows.js";
import { createLogger } from "../../src/log.js";
import { createScheduler, type Scheduler } from "../../src/schedule/daemon.js";
import { bankStatuses } from "../../src/schedule/status.js";
import type { BankAdapter, RateRecord } from "../../src/types.js";
import { fakeHttp } from "../support/http.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const silent = createLogger("silent", false);
// Monday 2026-11-23, 14:30 in Prague (13:30Z): every test bank's run falls then; 2026-11-23 is expected.
const SLOT = "2026-11-23T13:30:00Z";
const MIN = 60_000;

/**
 * A clock that moves only when told. `sleep` registers a timer on it; `advance` moves the clock and
 * fires the timers due. With `autoAdvance`, a sleep moves the clock itself and returns at once.
 */
function fakeClock(at: string, autoAdvance = false) {
  let t = Date.parse(at);
  const timers: Array<{ due: number; fire: (ran: boolean) => void }> = [];
  const sleeps: number[] = [];
  return {
    now: () => new Date(t),
    sleeps,
    pending: () => timers.length,
    sleep(ms: number, signal: AbortSignal): Promise<boolean> {
      sleeps.push(ms);
      if (autoAdvance) {
        t += ms;
        return Promise.resolve(!signal.aborted);
      }
      return new Promise((resolve) => {
        const timer = { due: t + ms, fire: resolve };
        timers.push(timer);
        signal.addEventListener("abort", () => {
          timers.splice(timers.indexOf(timer), 1);
          resolve(false);
        });
      });
    },
    advance(ms: number) {
      t += ms;
      for (const timer of timers.filter((x) => x.due <= t)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.fire(true);
      }
    },
  };
}

/** Lets the event loop turn (I/O and promises, no timers) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 20_000; turn++) {
    if (condition()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

const usd = (date: string): RateRecord[] => [{ effectiveDate: date, currency: "USD", rate: "20.5" }];

/** Every fetch of every bank, in order, as "ID#try". */
type FetchLog = string[];

function scriptedBank(
  id: string,
  fetches: FetchLog,
  answer: (n: number) => RateRecord[] | Error,
  overrides = {},
): BankAdapter {
  let n = 0;
  return {
    ...testBank(id, overrides),
    fetch() {
      const result = answer(++n);
      fetches.push(`${id}#${n}`);
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
    // An empty list is the feed saying it has nothing yet, as a real adapter says it (noPublication).
    parse: (body: Uint8Array) => {
      const records = JSON.parse(Buffer.from(body).toString()) as RateRecord[];
      return records.length ? records : noPublication("no rates published yet");
    },
  };
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function scheduler(
  adapters: BankAdapter[],
  clock: ReturnType<typeof fakeClock>,
  extra: { concurrency?: number; log?: pino.Logger; cron?: boolean } = {},
) {
  const t = await tempStore();
  cleanups.push(t.cleanup);
  return { t, make: () => track(build(t, adapters, clock, extra)) };
}

function build(
  t: Awaited<ReturnType<typeof tempStore>>,
  adapters: BankAdapter[],
  clock: ReturnType<typeof fakeClock>,
  extra: { concurrency?: number; log?: pino.Logger; cron?: boolean },
): Scheduler {
  return createScheduler({
    store: t.store,
    adapters,
    outDir: join(t.dir, "out"),
    log: extra.log ?? silent,
    http: fakeHttp(),
    env: {},
    now: clock.now,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    cron: extra.cron ?? false,
    concurrency: extra.concurrency ?? 4,
    publish: () => Promise.resolve(),
  });
}

function track(s: Scheduler): Scheduler {
  cleanups.push(() => s.stop(1000));
  return s;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `B${String(i).padStart(2, "0")}`);

describe("catch-up at start", () => {
  it("90 banks, half not published yet: every bank is tried once before any second poll, and no wait holds a slot", async () => {
    const clock = fakeClock("2026-11-23T15:00:00Z");
    const fetches: FetchLog = [];
    const late = new Set(ids(90).filter((_, i) => i % 2 === 1));
    // The late half answers the previous date on the first try and the expected one after.
    const adapters = ids(90).map((id) =>
      scriptedBank(id, fetches, (n) => usd(late.has(id) && n === 1 ? "2026-11-20" : "2026-11-23")),
    );
    const { make } = await scheduler(adapters, clock, { concurrency: 4 });
    const s = make();
    await s.start();

    // No timer has fired: the 45 late banks wait on theirs, and the other 45 still got their turn.
    await until(() => fetches.length === 90 && clock.pending() === 45, "90 first tries with 45 banks waiting");
    expect(new Set(fetches).size).toBe(90);
    expect(fetches.every((f) => f.endsWith("#1"))).toBe(true);
    expect(clock.sleeps).toEqual(Array.from({ length: 45 }, () => 5 * MIN));
    expect([...s.phases().values()].every((p) => p === "waiting")).toBe(true);

    clock.advance(5 * MIN);
    const outcomes = await s.catchUp();
    expect(outcomes).toHaveLength(90);
    expect(outcomes.every((o) => o.state === "ok" && o.newest === "2026-11-23")).toBe(true);
    expect(fetches.slice(90).sort()).toEqual([...late].map((id) => `${id}#2`).sort());
  });

  it("banks with nothing stored go first, then the furthest behind", async () => {
    const clock = fakeClock("2026-11-23T15:00:00Z");
    const fetches: FetchLog = [];
    const adapters = ["AAA", "BBB", "CCC", "DDD", "EEE"].map((id) =>
      scriptedBank(id, fetches, () => usd("2026-11-23")),
    );
    const { t, make } = await scheduler(adapters, clock, { concurrency: 1 });
    storeRates(t.store, "AAA", usd("2026-11-20"));
    storeRates(t.store, "CCC", usd("2026-11-19"));
    storeRates(t.store, "EEE", usd("2026-11-23")); // up to date: not fetched
    const s = make();
    await s.start();
    const outcomes = await s.catchUp();
    expect(fetches).toEqual(["BBB#1", "DDD#1", "CCC#1", "AAA#1"]);
    expect(outcomes.map((o) => [o.bankId, o.state, o.tries])).toEqual([
      ["AAA", "ok", 1],
      ["BBB", "ok", 1],
      ["CCC", "ok", 1],
      ["DDD", "ok", 1],
      ["EEE", "ok", 0],
    ]);
  });

  it("a bank that keeps failing backs off on its own, its retries behind the others' first tries", async () => {
    // The clock jumps by each wait: timers cost nothing here, yet the retries still queue behind.
    const clock = fakeClock(SLOT, true);
    const fetches: FetchLog = [];
    const failing = scriptedBank(
      "AAA",
      fetches,
      () => new HttpError("https://aaa.example/latest: HTTP 500 after 5 tries", 500),
    );
    const good = ids(10).map((id) => scriptedBank(id, fetches, () => usd("2026-11-23")));
    const { make } = await scheduler([failing, ...good], clock, { concurrency: 1 });
    const s = make();
    await s.start();
    const outcomes = await s.catchUp();

    expect(fetches.slice(0, 11)).toEqual(["AAA#1", ...ids(10).map((id) => `${id}#1`)]);
    expect(fetches.slice(11).every((f) => f.startsWith("AAA#"))).toBe(true);
    // 5, 10, 20, then every 30 minutes, until the four-hour window after the slot is over.
    expect(clock.sleeps.map((ms) => ms / MIN)).toEqual([5, 10, 20, 30, 30, 30, 30, 30, 30]);
    expect(outcomes.find((o) => o.bankId === "AAA")).toMatchObject({ state: "failed", tries: 10 });
    expect(outcomes.filter((o) => o.state === "ok")).toHaveLength(10);
  });

  it("a bank waiting to poll again shows what it waits for, not 'running', to any process", async () => {
    const clock = fakeClock("2026-11-23T15:00:00Z");
    const fetches: FetchLog = [];
    const adapters = [scriptedBank("AAA", fetches, (n) => usd(n === 1 ? "2026-11-20" : "2026-11-23"))];
    const { t, make } = await scheduler(adapters, clock);
    const s = make();
    await s.start();
    await until(() => clock.pending() === 1, "AAA waiting to poll again");
    const [here] = await s.status();
    // Another process (`exrates banks`) reads only the database.
    const [there] = await bankStatuses(t.store, adapters, { env: {}, now: clock.now() });
    for (const status of [here, there]) {
      // 90 minutes past 14:30 local: late, by that much.
      expect(status).toMatchObject({ state: "late", newestDate: "2026-11-20", running: false, lateByMinutes: 90 });
      expect(status!.summary).toMatch(/^late by 1 h 30 min: 2026-11-23 due at 14:30 local/);
    }
  });
});

describe("status after the catch-up", () => {
  it("a bank tried whose feed had nothing yet is no longer 'never fetched'; one not tried is", async () => {
    const clock = fakeClock("2026-11-23T19:00:00Z"); // after the polling window: one try, no polls
    const fetches: FetchLog = [];
    const adapters = [scriptedBank("AAA", fetches, () => []), scriptedBank("BBB", fetches, () => [])];
    const { t, make } = await scheduler(adapters, clock);
    const s = make();
    expect((await s.status()).map((x) => x.state)).toEqual(["never fetched", "never fetched"]);
    await s.start();
    await s.catchUp();
    const [aaa] = await bankStatuses(t.store, adapters, { env: {}, now: clock.now() });
    expect(aaa).toMatchObject({ state: "stale", newestDate: null });
    expect(aaa!.summary).toMatch(
      /^stale: nothing stored yet, expected 2026-11-23 \(2026-11-23 not published yet \(newest none\); gave up after 1 try/,
    );
  });
});

describe("start logs", () => {
  it("one info line for the schedule, one when every bank was tried, one at the end; the per-bank lines at debug", async () => {
    const clock = fakeClock("2026-11-23T15:00:00Z", true);
    const fetches: FetchLog = [];
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino(
      { level: "info", base: undefined },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
          done();
        },
      }),
    );
    const adapters = [
      ...ids(20).map((id) => scriptedBank(id, fetches, () => usd("2026-11-23"))),
      scriptedBank("FAIL", fetches, () => new HttpError("https://fail.example/latest: HTTP 404", 404)),
      scriptedBank("KEY", fetches, () => usd("2026-11-23"), {
        credential: { env: "EXRATES_KEY_API_KEY", description: "a key from key.example" },
      }),
      scriptedBank("OLD", fetches, () => usd("2026-11-23"), { historicalOnly: true }),
    ];
    const { make } = await scheduler(adapters, clock, { log, cron: true });
    const s = make();
    await s.start();
    await s.catchUp();
    await s.stop(1000);
    const info = lines.filter((l) => l.level >= 30).map((l) => l.msg);
    expect(info).toEqual([
      "scheduled 21 of 23 banks (not scheduled: 1 needs credential (KEY); 1 historical only (OLD)); catching up 21 (21 with nothing stored first), 0 up to date",
      expect.stringMatching(
        /^catch-up: every bank behind tried once in \d+ s: 20 up to date, 1 retrying after a failure \(FAIL\); `exrates banks` shows each bank's state$/,
      ),
      expect.stringMatching(
        /^catch-up done in \d+ s: 20 up to date, 1 failed \(FAIL\); `exrates banks` shows each bank's state$/,
      ),
    ]);
  });
});

// The calendar in the scheduler and the status, on fake clocks: the ECB on Good Friday 2026, a bank
// late by two hours (one rates.late event), a failing feed, a publication on a holiday, and every
// adapter's calendar at Christmas.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import ecb from "../../adapters/ECB.js";
import { calendarYear, observedExceptions } from "../../src/calendar/calendar.js";
import { EURO_AREA } from "../../src/feed/adapter.js";
import { todayIn } from "../../src/feed/dates.js";
import { loadAdapters } from "../../src/feed/registry.js";
import { createLogger } from "../../src/log.js";
import { publish } from "../support/unsigned.js";
import { createScheduler, type Scheduler } from "../../src/schedule/daemon.js";
import { bankStatuses } from "../../src/schedule/status.js";
import { expectedNewestDate, previousRun } from "../../src/schedule/time.js";
import { dueSlot } from "../../src/schedule/timetable.js";
import { eventsAfter, type RatesLate } from "../../src/store/events.js";
import type { BankAdapter, BankResource, RateRecord } from "../../src/types.js";
import { fakeHttp } from "../support/http.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const log = createLogger("silent", false);

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup() {
  const t = await tempStore();
  cleanups.push(t.cleanup);
  return t;
}

/** A bank whose every fetch answers `answer()` (records, or an error thrown). */
function feedBank(id: string, answer: () => RateRecord[] | Error, overrides = {}): BankAdapter & { tries: number } {
  const bank = testBank(id, overrides);
  const adapter = {
    ...bank,
    tries: 0,
    fetch() {
      adapter.tries++;
      const result = answer();
      if (result instanceof Error) return Promise.reject(result);
      const at = new Date();
      const body = Buffer.from(JSON.stringify(result));
      return Promise.resolve([
        {
          url: `https://${id}.example/`,
          method: "GET" as const,
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
  return adapter;
}

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

function scheduler(
  store: Awaited<ReturnType<typeof setup>>,
  adapters: BankAdapter[],
  clock: ReturnType<typeof jumpingClock>,
): Scheduler {
  const s = createScheduler({
    store: store.store,
    adapters,
    outDir: join(store.dir, "out"),
    log,
    http: fakeHttp(),
    env: {},
    now: clock.now,
    sleep: clock.sleep,
    cron: false,
    publish: () => Promise.resolve(),
  });
  cleanups.push(() => s.stop(1000));
  return s;
}

const usd = (date: string, rate = "1.1"): RateRecord[] => [{ effectiveDate: date, currency: "USD", rate }];
const ECB_LIKE = {
  timeZone: "Europe/Berlin",
  dailyUpdateTime: "16:00:00",
  countryCode: [...EURO_AREA],
  calendar: ecb.bank.calendar,
};

describe("the ECB on Good Friday 2026", () => {
  const GOOD_FRIDAY_AT_RUN = "2026-04-03T14:00:00Z"; // 16:00 in Frankfurt

  it("is not polled: its timer finds the bank closed, and a run finds nothing to fetch", async () => {
    expect(dueSlot(ecb.bank, new Date(GOOD_FRIDAY_AT_RUN))).toEqual({ closed: "Good Friday" });
    expect(dueSlot(ecb.bank, new Date("2026-04-02T14:00:00Z"))).toMatchObject({ slot: { date: "2026-04-02" } });
    const t = await setup();
    storeRates(t.store, "ECBX", usd("2026-04-02"));
    const bank = feedBank("ECBX", () => usd("2026-04-02"), ECB_LIKE);
    const s = scheduler(t, [bank], jumpingClock(GOOD_FRIDAY_AT_RUN));
    const outcome = await s.runNow("ECBX", "schedule", { slotAt: new Date(GOOD_FRIDAY_AT_RUN) });
    expect(outcome).toMatchObject({ state: "ok", tries: 0, expected: "2026-04-02" });
    expect(bank.tries).toBe(0);
  });

  it("shows holiday with the holiday's name, and its calendar lists the day", async () => {
    const t = await setup();
    storeRates(t.store, "ECBX", usd("2026-04-02"));
    const bank = feedBank("ECBX", () => usd("2026-04-02"), ECB_LIKE);
    const [status] = await bankStatuses(t.store, [bank], { env: {}, now: new Date("2026-04-03T18:00:00Z") });
    expect(status).toMatchObject({
      state: "holiday",
      holiday: "Good Friday",
      stale: false,
      expectedDate: "2026-04-02",
      nextRunAt: "2026-04-07T14:00:00.000Z",
    });
    expect(status!.summary).toBe("holiday: Good Friday (newest 2026-04-02; next publication 2026-04-07 16:00)");
    // Easter Monday too; Tuesday morning it is simply up to date.
    const [monday] = await bankStatuses(t.store, [bank], { env: {}, now: new Date("2026-04-06T15:00:00Z") });
    expect(monday).toMatchObject({ state: "holiday", holiday: "Easter Monday" });
    const [tuesday] = await bankStatuses(t.store, [bank], { env: {}, now: new Date("2026-04-07T08:00:00Z") });
    expect(tuesday).toMatchObject({ state: "up to date", holiday: null });
    expect(calendarYear(bank.bank, 2026).closings).toContainEqual({ date: "2026-04-03", name: "Good Friday" });
  });

  it("a publication on that holiday is stored all the same, and shown as observed", async () => {
    const t = await setup();
    storeRates(t.store, "ECBX", usd("2026-04-02"));
    const bank = feedBank("ECBX", () => [...usd("2026-04-02"), ...usd("2026-04-03", "1.2")], ECB_LIKE);
    const s = scheduler(t, [bank], jumpingClock("2026-04-03T15:00:00Z"));
    const outcome = await s.runNow("ECBX", "manual", { force: true, poll: false });
    expect(outcome).toMatchObject({ state: "ok", newest: "2026-04-03", inserted: 1 });
    const dates = (
      t.store.sqlite.prepare("select distinct effective_date d from rates where bank_id = 'ECBX' order by 1").all() as {
        d: string;
      }[]
    ).map((r) => r.d);
    expect(dates).toEqual(["2026-04-02", "2026-04-03"]);
    expect(observedExceptions(bank.bank, dates, 2026, "2026-04-03").publishedOnClosing).toEqual([
      { date: "2026-04-03", name: "Good Friday" },
    ]);
  });
});

describe("the Bank resource", () => {
  it("names the next publication after the newest date, by the calendar: Easter Tuesday after Maundy Thursday", async () => {
    const t = await setup();
    storeRates(t.store, "ECB", usd("2026-04-02"));
    const out = join(t.dir, "out");
    await publish(t.store, [ecb], out);
    const resource = JSON.parse(readFileSync(join(out, "v1/banks/ECB.json"), "utf8")) as BankResource;
    expect(resource.nextPublication).toEqual({
      date: "2026-04-07",
      localTime: "16:00:00",
      timeZone: "Europe/Berlin",
      at: "2026-04-07T14:00:00.000Z",
    });
  });
});

describe("late, failing", () => {
  // Monday 2026-11-23, 14:30 in Prague is 13:30Z.
  it("a bank two hours past its time is late, and one rates.late event is recorded", async () => {
    const t = await setup();
    storeRates(t.store, "AAA", usd("2026-11-20"));
    const bank = feedBank("AAA", () => usd("2026-11-20"));
    const twoHoursLate = new Date("2026-11-23T15:30:00Z");
    const [status] = await bankStatuses(t.store, [bank], { env: {}, now: twoHoursLate });
    expect(status).toMatchObject({ state: "late", lateByMinutes: 120, stale: false, expectedDate: "2026-11-23" });
    expect(status!.summary).toMatch(
      /^late by 2 h 00 min: 2026-11-23 due at 14:30 local, newest 2026-11-20; polling until 18:30/,
    );
    const [early] = await bankStatuses(t.store, [bank], { env: {}, now: new Date("2026-11-23T14:00:00Z") });
    expect(early).toMatchObject({ state: "waiting", lateByMinutes: null });

    // The run polls from 14:30 until its window ends at 18:30: past 15:30 it is late, once.
    const s = scheduler(t, [bank], jumpingClock("2026-11-23T13:30:00Z"));
    const outcome = await s.runNow("AAA", "schedule", { slotAt: new Date("2026-11-23T13:30:00Z") });
    expect(outcome.state).toBe("gave-up");
    expect(outcome.tries).toBeGreaterThan(4);
    const events = await eventsAfter(t.store, 0);
    expect(events.map((e) => e.type)).toEqual(["rates.late"]);
    expect(events[0]!.data as RatesLate).toMatchObject({
      bankId: "AAA",
      expectedDate: "2026-11-23",
      dueAt: "2026-11-23T13:30:00.000Z",
      dueLocal: "2026-11-23 14:30 Europe/Prague",
      newestDate: "2026-11-20",
    });
    expect((events[0]!.data as RatesLate).lateByMinutes).toBeGreaterThanOrEqual(60);
    // Another run of the same day adds none.
    await s.runNow("AAA", "manual", { slotAt: new Date("2026-11-23T13:30:00Z") });
    expect((await eventsAfter(t.store, 0)).length).toBe(1);
  });

  it("a bank whose feed errors is failing", async () => {
    const t = await setup();
    storeRates(t.store, "AAA", usd("2026-11-20"));
    const bank = feedBank("AAA", () => new Error("AAA: HTTP 503 after 5 tries"));
    const s = scheduler(t, [bank], jumpingClock("2026-11-23T13:30:00Z"));
    expect((await s.runNow("AAA", "manual", { poll: false })).state).toBe("failed");
    const [status] = await bankStatuses(t.store, [bank], { env: {}, now: new Date("2026-11-23T13:31:00Z") });
    expect(status).toMatchObject({ state: "failing", lastError: expect.stringContaining("HTTP 503") as string });
    expect(status!.summary).toMatch(/^failing: .*HTTP 503/);
  });
});

describe("every adapter's calendar", () => {
  it("at Christmas, a bank whose last publication day is stored is never stale", async () => {
    const t = await setup();
    const adapters = [...(await loadAdapters()).values()].filter((a) => !a.bank.historicalOnly);
    const now = new Date("2026-12-25T22:00:00Z");
    for (const a of adapters) storeRates(t.store, a.bank.id, usd(expectedNewestDate(a.bank, now)));
    const statuses = await bankStatuses(t.store, adapters, { env: {}, now });
    const wrong = statuses.filter((s) => s.scheduled && !["up to date", "holiday"].includes(s.state));
    expect(wrong.map((s) => `${s.id}: ${s.summary}`)).toEqual([]);
    // Most are closed on Christmas Day; the ECB by TARGET2's rule.
    const closed = statuses.filter((s) => s.state === "holiday").map((s) => s.id);
    expect(closed).toContain("ECB");
    expect(closed.length).toBeGreaterThan(20);
    for (const a of adapters.filter((x) => closed.includes(x.bank.id))) {
      const today = todayIn(a.bank.timeZone, now);
      expect(previousRun(a.bank, now).date < today, a.bank.id).toBe(true);
    }
  });
});

import cron from "node-cron";
import { afterEach, describe, expect, it, vi } from "vitest";

import { gapGuardDelay } from "../../src/schedule/timetable.js";
import {
  cronExpression,
  expectedNewestDate,
  nextRun,
  nextRuns,
  pollDelay,
  previousRun,
  wallClock,
  zonedInstant,
  type ScheduleSpec,
} from "../../src/schedule/time.js";

const WEEKDAYS = [1, 2, 3, 4, 5] as ScheduleSpec["publicationDays"];
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7] as ScheduleSpec["publicationDays"];
const spec = (timeZone: string, dailyUpdateTime: string, publicationDays = WEEKDAYS): ScheduleSpec => ({
  timeZone,
  dailyUpdateTime,
  publicationDays,
});
const iso = (d: Date) => d.toISOString();
const at = (s: string) => new Date(s);

describe("zonedInstant", () => {
  it("maps ordinary wall-clock times with the offset of the day", () => {
    expect(iso(zonedInstant("2026-01-15", "14:30:00", "Europe/Prague"))).toBe("2026-01-15T13:30:00.000Z");
    expect(iso(zonedInstant("2026-07-15", "14:30:00", "Europe/Prague"))).toBe("2026-07-15T12:30:00.000Z");
    expect(iso(zonedInstant("2026-07-15", "16:00:00", "Australia/Sydney"))).toBe("2026-07-15T06:00:00.000Z");
  });

  it.each([
    // zone, spring-forward day, a time in the gap, expected instant (the gap's length later)
    ["Europe/Prague", "2026-03-29", "02:30:00", "2026-03-29T01:30:00.000Z"],
    ["America/Toronto", "2026-03-08", "02:30:00", "2026-03-08T07:30:00.000Z"],
    ["Australia/Sydney", "2026-10-04", "02:30:00", "2026-10-03T16:30:00.000Z"],
  ])("%s spring-forward %s: %s (which never occurs) resolves after the gap", (zone, date, time, expected) => {
    const instant = zonedInstant(date, time, zone);
    expect(iso(instant)).toBe(expected);
    expect(wallClock(instant, zone)).toBe(`${date}T03:30:00`);
  });

  it.each([
    // zone, fall-back day, a time that occurs twice, its first occurrence
    ["Europe/Prague", "2026-10-25", "02:30:00", "2026-10-25T00:30:00.000Z"],
    ["America/Toronto", "2026-11-01", "01:30:00", "2026-11-01T05:30:00.000Z"],
    ["Australia/Sydney", "2026-04-05", "02:30:00", "2026-04-04T15:30:00.000Z"],
  ])("%s fall-back %s: %s (which occurs twice) resolves to its first occurrence", (zone, date, time, expected) => {
    expect(iso(zonedInstant(date, time, zone))).toBe(expected);
  });
});

describe("nextRun / previousRun across daylight-saving changes", () => {
  it.each([
    // zone, time, Friday before the change (UTC), Monday after it (UTC)
    ["Europe/Prague", "14:30:00", "2026-03-27T13:30:00.000Z", "2026-03-30T12:30:00.000Z"], // spring forward
    ["Europe/Prague", "14:30:00", "2026-10-23T12:30:00.000Z", "2026-10-26T13:30:00.000Z"], // fall back
    ["America/Toronto", "16:30:00", "2026-03-06T21:30:00.000Z", "2026-03-09T20:30:00.000Z"],
    ["America/Toronto", "16:30:00", "2026-10-30T20:30:00.000Z", "2026-11-02T21:30:00.000Z"],
    ["Australia/Sydney", "16:00:00", "2026-04-03T05:00:00.000Z", "2026-04-06T06:00:00.000Z"], // AEDT ends
    ["Australia/Sydney", "16:00:00", "2026-10-02T06:00:00.000Z", "2026-10-05T05:00:00.000Z"], // AEDT starts
  ])("%s at %s: Friday %s, then Monday %s", (zone, time, friday, monday) => {
    const s = spec(zone, time);
    const justBefore = new Date(at(friday).getTime() - 1000);
    expect(iso(nextRun(s, justBefore).at)).toBe(friday);
    const runs = nextRuns(s, at(friday), 1);
    expect(iso(runs[0]!.at)).toBe(monday);
    expect(runs[0]!.date).toBe(wallClock(at(monday), zone).slice(0, 10));
    // Over the weekend the newest publication that should exist is Friday's.
    const saturdayNoon = new Date(at(friday).getTime() + 86_400_000);
    expect(previousRun(s, saturdayNoon).at.toISOString()).toBe(friday);
  });

  it.each([
    [
      "Europe/Prague",
      "2026-03-28T12:00:00Z",
      ["2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z", "2026-03-31T00:30:00.000Z"],
    ],
    [
      "Europe/Prague",
      "2026-10-24T12:00:00Z",
      ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z", "2026-10-27T01:30:00.000Z"],
    ],
    [
      "America/Toronto",
      "2026-03-07T12:00:00Z",
      ["2026-03-08T07:30:00.000Z", "2026-03-09T06:30:00.000Z", "2026-03-10T06:30:00.000Z"],
    ],
    [
      "America/Toronto",
      "2026-10-31T12:00:00Z",
      ["2026-11-01T07:30:00.000Z", "2026-11-02T07:30:00.000Z", "2026-11-03T07:30:00.000Z"],
    ],
    [
      "Australia/Sydney",
      "2026-10-03T00:00:00Z",
      ["2026-10-03T16:30:00.000Z", "2026-10-04T15:30:00.000Z", "2026-10-05T15:30:00.000Z"],
    ],
    [
      "Australia/Sydney",
      "2026-04-04T00:00:00Z",
      ["2026-04-04T15:30:00.000Z", "2026-04-05T16:30:00.000Z", "2026-04-06T16:30:00.000Z"],
    ],
  ])("a daily 02:30 run in %s runs exactly once per day around the change from %s", (zone, from, expected) => {
    const runs = nextRuns(spec(zone, "02:30:00", EVERY_DAY), at(from), 3);
    expect(runs.map((r) => iso(r.at))).toEqual(expected);
    expect(new Set(runs.map((r) => r.date)).size).toBe(3);
  });

  it("follows each bank's publication days", () => {
    const cbr = spec("Europe/Moscow", "15:30:00", [2, 3, 4, 5, 6]); // Tuesday to Saturday
    const sundayToThursday = spec("Asia/Jerusalem", "15:30:00", [7, 1, 2, 3, 4]);
    const monday = at("2026-11-23T18:00:00Z");
    expect(expectedNewestDate(cbr, monday)).toBe("2026-11-21"); // Saturday
    expect(nextRun(cbr, monday).date).toBe("2026-11-24");
    expect(expectedNewestDate(sundayToThursday, at("2026-11-21T12:00:00Z"))).toBe("2026-11-19"); // Thursday
    expect(nextRun(sundayToThursday, at("2026-11-21T12:00:00Z"))).toEqual({
      date: "2026-11-22",
      at: at("2026-11-22T13:30:00Z"),
    });
    const ecb = spec("Europe/Berlin", "16:00:00");
    expect(expectedNewestDate(ecb, at("2026-11-23T14:59:59Z"))).toBe("2026-11-20");
    expect(expectedNewestDate(ecb, at("2026-11-23T15:00:00Z"))).toBe("2026-11-23");
  });
});

describe("cron expressions", () => {
  afterEach(() => vi.useRealTimers());

  it("writes the time and the publication days (Sunday = 0)", () => {
    expect(cronExpression(spec("Europe/Prague", "14:30:00"))).toBe("0 30 14 * * 1,2,3,4,5");
    expect(cronExpression(spec("Asia/Jerusalem", "15:30:05", [7, 1, 2, 3, 4]))).toBe("5 30 15 * * 0,1,2,3,4");
  });

  it.each([
    ["Europe/Prague", "14:30:00", "2026-03-25T00:00:00Z"],
    ["Europe/Prague", "14:30:00", "2026-10-21T00:00:00Z"],
    ["America/Toronto", "16:30:00", "2026-03-04T00:00:00Z"],
    ["America/Toronto", "16:30:00", "2026-10-28T00:00:00Z"],
    ["Australia/Sydney", "16:00:00", "2026-04-01T00:00:00Z"],
    ["Australia/Sydney", "16:00:00", "2026-09-30T00:00:00Z"],
  ])("node-cron fires %s %s at the instants computed here, across the change after %s", (zone, time, from) => {
    vi.useFakeTimers({ now: at(from), toFake: ["Date"] });
    const s = spec(zone, time);
    const task = cron.createTask(cronExpression(s), () => undefined, { timezone: zone });
    expect(task.getNextRuns(6).map(iso)).toEqual(nextRuns(s, at(from), 6).map((r) => iso(r.at)));
    void task.destroy();
  });
});

describe("the spring-forward gap guard", () => {
  afterEach(() => vi.useRealTimers());

  it("node-cron skips a time inside the gap; the guard covers that run just after the gap", () => {
    const s = spec("Europe/Prague", "02:30:00", EVERY_DAY);
    const now = at("2026-03-28T12:00:00Z");
    vi.useFakeTimers({ now, toFake: ["Date"] });
    const task = cron.createTask(cronExpression(s), () => undefined, { timezone: s.timeZone });
    const theirs = task.getNextRuns(1)[0]!;
    void task.destroy();
    const ours = nextRun(s, now).at;
    expect(iso(theirs)).toBe("2026-03-30T00:30:00.000Z"); // Sunday 29 March skipped
    expect(iso(ours)).toBe("2026-03-29T01:30:00.000Z"); // 03:30 CEST, just after the gap
    expect(gapGuardDelay(ours, theirs, now)).toBe(ours.getTime() - now.getTime());
    // On ordinary days they agree and no guard is armed.
    const monday = nextRun(s, at("2026-03-30T12:00:00Z")).at;
    expect(gapGuardDelay(monday, new Date(monday.getTime()), at("2026-03-30T12:00:00Z"))).toBeUndefined();
  });
});

describe("pollDelay", () => {
  const options = { initialDelayMs: 5 * 60_000, maxDelayMs: 30 * 60_000, windowMs: 4 * 3_600_000 };
  it("doubles up to the maximum and stops at the end of the window", () => {
    const start = at("2026-11-23T13:30:00Z");
    const end = new Date(start.getTime() + options.windowMs);
    const delays: number[] = [];
    let now = start;
    for (let attempt = 1; ; attempt++) {
      const d = pollDelay(attempt, now, end, options);
      if (d === undefined) break;
      delays.push(d / 60_000);
      now = new Date(now.getTime() + d);
    }
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 30, 30]);
    expect(delays.reduce((a, b) => a + b)).toBeLessThanOrEqual(240);
    expect(delays.length).toBe(9); // 5+10+20+30*6 = 215 min; one more 30 would end after the 4 h window
  });
});

import { describe, expect, it } from "vitest";

import {
  rfc3339Millis,
  addDays,
  chunkRange,
  daysBetween,
  fromDayMonthYear,
  isIsoDate,
  todayIn,
  weekday,
} from "../../src/feed/dates.js";

describe("dates", () => {
  it("accepts only real calendar dates", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2026-13-01")).toBe(false);
    expect(isIsoDate("2026-1-01")).toBe(false);
    expect(isIsoDate("20260101")).toBe(false);
    expect(isIsoDate("2000-02-29")).toBe(true);
    expect(isIsoDate("1900-02-29")).toBe(false);
    expect(isIsoDate("2026-04-31")).toBe(false);
    expect(isIsoDate("2026-00-10")).toBe(false);
    expect(isIsoDate("2026-01-00")).toBe(false);
    // A two-digit year padded to four digits is a misread, not a date.
    expect(isIsoDate("0025-03-01")).toBe(false);
    expect(isIsoDate("0100-03-01")).toBe(true);
  });

  it("reads day-month-year dates", () => {
    expect(fromDayMonthYear("03.03.2026")).toBe("2026-03-03");
    expect(fromDayMonthYear("3/4/2026")).toBe("2026-04-03");
    expect(fromDayMonthYear("31.04.2026")).toBeUndefined();
  });

  it("does calendar arithmetic across months and leap days", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2025-12-30", "2026-01-02")).toBe(3);
    expect(weekday("2026-04-25")).toBe(6);
    expect(weekday("2026-04-26")).toBe(7);
  });

  it("adds days as Date's calendar does, on every day from 1990 to 2040 and outside the four-digit years", () => {
    const byDate = (date: string, days: number) => {
      const d = new Date(`${date}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + days);
      return d.toISOString().slice(0, 10);
    };
    const differ: string[] = [];
    for (let t = Date.UTC(1990, 0, 1); t <= Date.UTC(2040, 11, 31); t += 86_400_000) {
      const date = new Date(t).toISOString().slice(0, 10);
      for (const days of [1, -1, -366, 1461])
        if (addDays(date, days) !== byDate(date, days)) differ.push(`${date} ${days}`);
    }
    expect(differ).toEqual([]);
    expect(addDays("9999-12-31", 1)).toBe("+010000-01");
    expect(addDays("0100-01-01", -1)).toBe("0099-12-31");
    expect(addDays("2024-02-30", 1)).toBe("2024-03-02");
  });

  it("tells today's date in a zone", () => {
    const now = new Date("2026-03-01T23:30:00Z");
    expect(todayIn("Europe/Prague", now)).toBe("2026-03-02");
    expect(todayIn("America/Toronto", now)).toBe("2026-03-01");
  });

  it("splits a range into chunks", () => {
    expect(chunkRange("2026-01-01", "2026-01-10", 4)).toEqual([
      { from: "2026-01-01", to: "2026-01-04" },
      { from: "2026-01-05", to: "2026-01-08" },
      { from: "2026-01-09", to: "2026-01-10" },
    ]);
    expect(chunkRange("2026-01-05", "2026-01-04", 4)).toEqual([]);
  });
});

describe("rfc3339Millis", () => {
  it("reads an instant with Z, an offset or a fraction", () => {
    expect(rfc3339Millis("2026-03-03T15:00:00Z")).toBe(Date.UTC(2026, 2, 3, 15));
    expect(rfc3339Millis("2026-03-03T16:00:00+01:00")).toBe(Date.UTC(2026, 2, 3, 15));
    expect(rfc3339Millis("2026-03-03 15:00:00.250z")).toBe(Date.UTC(2026, 2, 3, 15, 0, 0, 250));
    expect(rfc3339Millis("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
  });

  it.each([
    "2026-02-30T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-04-31T12:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T23:60:00Z",
    "2026-03-01T23:59:60Z",
    "2026-03-01T12:00:00+24:00",
    "2026-03-01T12:00:00+01:60",
    "2026-03-01",
    "2026-03-01T12:00:00",
    "yesterday",
  ])("refuses %s, which Date.parse alone may roll over or guess", (text) => {
    expect(rfc3339Millis(text)).toBeUndefined();
  });
});

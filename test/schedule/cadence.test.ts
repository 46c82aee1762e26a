// A period source's cadence: the daemon's next runs and the effective date it then expects, for the
// rules the period sources need (HMRC's penultimate Thursday, the last days of a month, the first days
// after a quarter ends, a weekly run), and the daemon's fetch plan for HMRC.
import { describe, expect, it } from "vitest";

import bis from "../../adapters/BIS.js";
import hmrc from "../../adapters/HMRC.js";
import inforeuro from "../../adapters/INFOREURO.js";
import ust from "../../adapters/UST.js";
import { coveredBy } from "../../src/calendar/cadence.js";
import { descriptorProblems } from "../../src/feed/adapter.js";
import { planFetch } from "../../src/schedule/catchup.js";
import { expectedNewestDate, nextRuns, previousRun, type ScheduleSpec } from "../../src/schedule/time.js";
import { dueSlot } from "../../src/schedule/timetable.js";

const dates = (spec: ScheduleSpec, from: string, count: number) =>
  nextRuns(spec, new Date(from), count).map((r) => r.date);

describe("HMRC: the penultimate Thursday of the month, for the next month", () => {
  const spec = hmrc.bank;

  it("runs on the penultimate Thursday of each month, at noon in London", () => {
    // November 2026's Thursdays: 5, 12, 19, 26; December's: 3 ... 24, 31; January 2027's: 7 ... 21, 28.
    const runs = nextRuns(spec, new Date("2026-11-10T00:00:00Z"), 3);
    expect(runs.map((r) => r.date)).toEqual(["2026-11-19", "2026-12-24", "2027-01-21"]);
    expect(runs[0]!.at.toISOString()).toBe("2026-11-19T12:00:00.000Z");
    expect(previousRun(spec, new Date("2026-11-10T00:00:00Z")).date).toBe("2026-10-22");
  });

  it("expects the next month's figures from that run on", () => {
    expect(expectedNewestDate(spec, new Date("2026-11-19T11:59:00Z"))).toBe("2026-11-01");
    expect(expectedNewestDate(spec, new Date("2026-11-19T12:01:00Z"))).toBe("2026-12-01");
  });

  it("does not run on another Thursday (the timetable fires every Thursday; the cadence decides)", () => {
    expect(dueSlot(spec, new Date("2026-11-26T12:00:00Z"))).toEqual({ closed: "not a publication day" });
    expect(dueSlot(spec, new Date("2026-11-19T12:00:00Z"))).toMatchObject({ slot: { date: "2026-11-19" } });
  });

  it("plans the fetch: the next month once its run has passed, a range reaching it when behind", () => {
    const after = new Date("2026-11-19T13:00:00Z");
    expect(planFetch(spec, "2026-12-01", after)).toMatchObject({ action: "none", expected: "2026-12-01" });
    expect(planFetch(spec, "2026-11-01", after)).toMatchObject({ action: "latest", missing: ["2026-11-19"] });
    const behind = planFetch(spec, "2026-10-01", after);
    expect(behind).toMatchObject({ action: "range", missing: ["2026-10-22", "2026-11-19"] });
    expect(behind.ranges.at(-1)).toMatchObject({ to: "2026-12-01" });
  });
});

describe("the other cadences", () => {
  const weekdays = [1, 2, 3, 4, 5] as ScheduleSpec["publicationDays"];
  const base = { timeZone: "Europe/Brussels", dailyUpdateTime: "15:00:00", publicationDays: weekdays };

  it("the last two working days of each month (covering the next month)", () => {
    const spec: ScheduleSpec = {
      ...base,
      cadence: { days: { kind: "lastInMonth", count: 2 }, covers: "nextMonthStart" },
    };
    // 27 November 2026 is a Friday, the 30th a Monday; 30 and 31 December a Wednesday and Thursday.
    expect(dates(spec, "2026-11-01T00:00:00Z", 4)).toEqual(["2026-11-27", "2026-11-30", "2026-12-30", "2026-12-31"]);
    expect(expectedNewestDate(spec, new Date("2026-12-15T00:00:00Z"))).toBe("2026-12-01");
  });

  it("the first three working days after a quarter ends, the country's holidays skipped", () => {
    const spec: ScheduleSpec = {
      timeZone: "America/New_York",
      dailyUpdateTime: "16:00:00",
      publicationDays: weekdays,
      countryCode: ["US"],
      cadence: { days: { kind: "afterQuarterEnd", count: 3 }, covers: "previousQuarterEnd" },
    };
    // 1 January 2027 (a Friday) is New Year's Day.
    expect(dates(spec, "2026-11-27T00:00:00Z", 4)).toEqual(["2027-01-04", "2027-01-05", "2027-01-06", "2027-04-01"]);
    expect(expectedNewestDate(spec, new Date("2027-01-05T22:00:00Z"))).toBe("2026-12-31");
    expect(expectedNewestDate(spec, new Date("2026-11-27T00:00:00Z"))).toBe("2026-09-30");
  });

  it("weekly, for the end of the month before", () => {
    const spec: ScheduleSpec = {
      ...base,
      publicationDays: [3],
      cadence: { days: { kind: "weekly" }, covers: "previousMonthEnd" },
    };
    expect(dates(spec, "2026-11-27T00:00:00Z", 3)).toEqual(["2026-12-02", "2026-12-09", "2026-12-16"]);
    expect(expectedNewestDate(spec, new Date("2026-12-03T00:00:00Z"))).toBe("2026-11-30");
  });

  it("names each covered date", () => {
    expect(coveredBy("runDay", "2026-11-19")).toBe("2026-11-19");
    expect(coveredBy("nextMonthStart", "2026-12-24")).toBe("2027-01-01");
    expect(coveredBy("previousMonthEnd", "2026-03-04")).toBe("2026-02-28");
    expect(coveredBy("previousQuarterEnd", "2026-07-02")).toBe("2026-06-30");
    expect(coveredBy("nextQuarterStart", "2026-12-20")).toBe("2027-01-01");
    expect(coveredBy("nextQuarterStart", "2026-01-31")).toBe("2026-04-01");
  });

  it("is refused on a daily source, and with a count of 0", () => {
    const daily = { ...hmrc.bank, supportedFrequencies: undefined };
    expect(descriptorProblems(daily)).toContain(
      "a cadence is for a period source (supportedFrequencies other than Daily)",
    );
    const zero = {
      ...hmrc.bank,
      cadence: { days: { kind: "lastInMonth" as const, count: 0 }, covers: "runDay" as const },
    };
    expect(descriptorProblems(zero)).toContain("a cadence's n or count must be 1 to 5");
    expect(descriptorProblems(hmrc.bank)).toEqual([]);
  });
});

describe("the other period sources' own cadences", () => {
  it("the US Treasury: the first five working days after a quarter ends, expecting that quarter's end", () => {
    const spec = ust.bank;
    expect(descriptorProblems(spec)).toEqual([]);
    // 1 January 2027 (a Friday) is New Year's Day: the first five working days are 4 to 8 January.
    expect(dates(spec, "2026-12-15T00:00:00Z", 5)).toEqual([
      "2027-01-04",
      "2027-01-05",
      "2027-01-06",
      "2027-01-07",
      "2027-01-08",
    ]);
    expect(nextRuns(spec, new Date("2027-01-09T00:00:00Z"), 1)[0]!.date).toBe("2027-04-01");
    // 13:00 in New York is 18:00 UTC in January.
    expect(expectedNewestDate(spec, new Date("2027-01-04T17:59:00Z"))).toBe("2026-09-30");
    expect(expectedNewestDate(spec, new Date("2027-01-04T18:01:00Z"))).toBe("2026-12-31");
    expect(expectedNewestDate(spec, new Date("2027-02-15T00:00:00Z"))).toBe("2026-12-31");
  });

  it("InforEuro: the last two working days of the month, expecting the next month's 1st", () => {
    const spec = inforeuro.bank;
    expect(descriptorProblems(spec)).toEqual([]);
    // 27 November 2026 is a Friday, the 30th a Monday; 30 and 31 December a Wednesday and Thursday.
    expect(dates(spec, "2026-11-01T00:00:00Z", 4)).toEqual(["2026-11-27", "2026-11-30", "2026-12-30", "2026-12-31"]);
    // Noon in Brussels is 11:00 UTC in winter.
    expect(expectedNewestDate(spec, new Date("2026-11-27T10:59:00Z"))).toBe("2026-11-01");
    expect(expectedNewestDate(spec, new Date("2026-11-27T11:01:00Z"))).toBe("2026-12-01");
  });

  it("the BIS: every Wednesday, expecting the month before's end", () => {
    const spec = bis.bank;
    expect(descriptorProblems(spec)).toEqual([]);
    expect(dates(spec, "2026-11-01T00:00:00Z", 4)).toEqual(["2026-11-04", "2026-11-11", "2026-11-18", "2026-11-25"]);
    // Noon in Zurich is 11:00 UTC in winter; the run of 28 October expected September's end.
    expect(expectedNewestDate(spec, new Date("2026-11-04T10:59:00Z"))).toBe("2026-09-30");
    expect(expectedNewestDate(spec, new Date("2026-11-04T11:01:00Z"))).toBe("2026-10-31");
  });
});

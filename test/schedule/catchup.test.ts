import { describe, expect, it } from "vitest";

import { planFetch } from "../../src/schedule/catchup.js";
import type { BankDescriptor } from "../../src/types.js";

type Bank = Parameters<typeof planFetch>[0];
const cnb: Bank = {
  timeZone: "Europe/Prague",
  dailyUpdateTime: "14:30:00",
  publicationDays: [1, 2, 3, 4, 5],
  maxRangeDays: 366,
  coverageStart: "1991-01-01",
};
const cbr: Bank = {
  timeZone: "Europe/Moscow",
  dailyUpdateTime: "15:30:00",
  publicationDays: [2, 3, 4, 5, 6],
  maxRangeDays: 365,
  coverageStart: "1992-07-01",
};
// Prague is UTC+1 in November: 14:30 local = 13:30Z.
const MONDAY_MORNING = new Date("2026-11-23T09:00:00Z");
const MONDAY_AFTER_PUBLICATION = new Date("2026-11-23T14:00:00Z");
const SATURDAY = new Date("2026-11-21T12:00:00Z");

describe("planFetch (catch-up decisions)", () => {
  it("nothing stored: fetch the newest publication", () => {
    const plan = planFetch(cnb, undefined, MONDAY_AFTER_PUBLICATION);
    expect(plan).toMatchObject({ action: "latest", expected: "2026-11-23", reason: "nothing stored yet" });
  });

  it("up to date, including over the weekend and before today's publication time", () => {
    expect(planFetch(cnb, "2026-11-20", SATURDAY)).toMatchObject({ action: "none", expected: "2026-11-20" });
    expect(planFetch(cnb, "2026-11-20", MONDAY_MORNING)).toMatchObject({ action: "none", expected: "2026-11-20" });
    expect(planFetch(cnb, "2026-11-23", MONDAY_AFTER_PUBLICATION).action).toBe("none");
    // A bank whose stored date runs ahead (CBR dates Friday's fixing Saturday) is up to date too.
    expect(planFetch(cbr, "2026-11-24", new Date("2026-11-23T18:00:00Z")).action).toBe("none");
  });

  it("one publication behind across the weekend: only the newest is fetched", () => {
    const plan = planFetch(cnb, "2026-11-20", MONDAY_AFTER_PUBLICATION);
    expect(plan).toMatchObject({ action: "latest", expected: "2026-11-23", missing: ["2026-11-23"], ranges: [] });
  });

  it("behind over a weekend by two publications: the gap is fetched as a range", () => {
    const plan = planFetch(cnb, "2026-11-19", MONDAY_AFTER_PUBLICATION);
    expect(plan.action).toBe("range");
    expect(plan.missing).toEqual(["2026-11-20", "2026-11-23"]);
    expect(plan.ranges).toEqual([{ kind: "range", from: "2026-11-20", to: "2026-11-23" }]);
  });

  it("behind over a week: one range from the day after the newest to today", () => {
    const plan = planFetch(cnb, "2026-11-12", MONDAY_AFTER_PUBLICATION);
    expect(plan.action).toBe("range");
    expect(plan.missing).toEqual([
      "2026-11-13",
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
      "2026-11-23",
    ]);
    expect(plan.ranges).toEqual([{ kind: "range", from: "2026-11-13", to: "2026-11-23" }]);
  });

  it("behind by months: the daemon fills only the last 31 days and says so", () => {
    const plan = planFetch(cnb, "2026-01-05", MONDAY_AFTER_PUBLICATION);
    expect(plan.ranges).toEqual([{ kind: "range", from: "2026-10-23", to: "2026-11-23" }]);
    expect(plan.reason).toContain("exrates backfill");
  });

  it("splits the gap by the bank's maxRangeDays", () => {
    const plan = planFetch({ ...cnb, maxRangeDays: 5 }, "2026-11-12", MONDAY_AFTER_PUBLICATION);
    expect(plan.ranges).toEqual([
      { kind: "range", from: "2026-11-13", to: "2026-11-17" },
      { kind: "range", from: "2026-11-18", to: "2026-11-22" },
      { kind: "range", from: "2026-11-23", to: "2026-11-23" },
    ]);
  });

  it("uses the bank's own publication days", () => {
    // Tuesday-to-Saturday bank on Monday evening: Saturday is the newest expected date.
    expect(planFetch(cbr, "2026-11-21", new Date("2026-11-23T18:00:00Z")).action).toBe("none");
    expect(planFetch(cbr, "2026-11-20", new Date("2026-11-23T18:00:00Z"))).toMatchObject({
      action: "latest",
      missing: ["2026-11-21"],
    });
    const descriptorShape: Partial<BankDescriptor> = cbr;
    expect(descriptorShape.publicationDays).toHaveLength(5);
  });
});

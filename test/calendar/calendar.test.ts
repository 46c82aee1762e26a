import { describe, expect, it } from "vitest";

import ecb from "../../adapters/ECB.js";
import {
  calendarYear,
  closingOn,
  holidayCountry,
  isPublicationDay,
  lastPublicationDay,
  observedExceptions,
  type CalendarSpec,
} from "../../src/calendar/calendar.js";
import { EURO_AREA, US_DOLLAR_AREA } from "../../src/feed/adapter.js";
import { planFetch } from "../../src/schedule/catchup.js";
import { expectedNewestDate, nextRun, previousRun } from "../../src/schedule/time.js";

const WEEKDAYS = [1, 2, 3, 4, 5] as CalendarSpec["publicationDays"];
const italy: CalendarSpec = { publicationDays: WEEKDAYS, countryCode: [...EURO_AREA], timeZone: "Europe/Rome" };
const fed: CalendarSpec = { publicationDays: WEEKDAYS, countryCode: [...US_DOLLAR_AREA], timeZone: "America/New_York" };

describe("the ECB's calendar (TARGET2 closings, not Frankfurt's holidays)", () => {
  const bank = ecb.bank;

  it("closes on Good Friday and Easter Monday 2026, and publishes on German Ascension Day", () => {
    expect(closingOn(bank, "2026-04-03")).toBe("Good Friday");
    expect(closingOn(bank, "2026-04-06")).toBe("Easter Monday");
    expect(isPublicationDay(bank, "2026-04-03")).toBe(false);
    expect(isPublicationDay(bank, "2026-05-14")).toBe(true); // Christi Himmelfahrt: TARGET2 is open
    expect(isPublicationDay(bank, "2026-10-05")).toBe(true);
  });

  it("lists 2026's publication days and its closings on working days, named", () => {
    const year = calendarYear(bank, 2026);
    expect(year.country).toBeNull();
    expect(year.closings).toEqual([
      { date: "2026-01-01", name: "New Year's Day" },
      { date: "2026-04-03", name: "Good Friday" },
      { date: "2026-04-06", name: "Easter Monday" },
      { date: "2026-05-01", name: "Labour Day" },
      { date: "2026-12-25", name: "Christmas Day" },
      // 26 December 2026 is a Saturday: not a working day, so not a closing
    ]);
    expect(year.publicationDays).toHaveLength(261 - 5);
    expect(year.publicationDays).not.toContain("2026-04-03");
    expect(year.publicationDays[0]).toBe("2026-01-02");
  });

  it("expects Maundy Thursday's rates all through Easter, and runs next on the Tuesday", () => {
    const goodFriday = new Date("2026-04-03T15:00:00Z"); // 17:00 in Frankfurt
    expect(expectedNewestDate(bank, goodFriday)).toBe("2026-04-02");
    expect(previousRun(bank, goodFriday).at.toISOString()).toBe("2026-04-02T14:00:00.000Z");
    expect(nextRun(bank, goodFriday)).toEqual({ date: "2026-04-07", at: new Date("2026-04-07T14:00:00.000Z") });
    expect(lastPublicationDay(bank, "2026-04-06")).toBe("2026-04-02");
  });

  it("has nothing to catch up on Easter Tuesday morning with Maundy Thursday stored", () => {
    const plan = planFetch(bank, "2026-04-02", new Date("2026-04-07T08:00:00Z"));
    expect(plan.action).toBe("none");
    expect(plan.expected).toBe("2026-04-02");
  });
});

describe("a bank's holiday country", () => {
  it("is the country of its currency area whose zones include its own", () => {
    expect(holidayCountry(italy)).toBe("IT");
    expect(holidayCountry(fed)).toBe("US");
    expect(
      holidayCountry({
        publicationDays: WEEKDAYS,
        countryCode: ["BJ", "BF", "CI", "GW", "ML", "NE", "SN", "TG"],
        timeZone: "Africa/Dakar",
      }),
    ).toBe("SN");
  });

  it("is the declared one, or none when the bank says so", () => {
    expect(holidayCountry({ ...italy, calendar: { holidays: "DE" } })).toBe("DE");
    expect(holidayCountry({ ...italy, calendar: { holidays: false } })).toBeUndefined();
    expect(isPublicationDay({ ...italy, calendar: { holidays: false } }, "2026-12-08")).toBe(true);
  });

  it("closes on the country's public holidays, substitute days included, not on half days or observances", () => {
    expect(closingOn(italy, "2026-12-08")).toBe("Immaculate Conception");
    expect(closingOn(fed, "2026-07-03")).toMatch(/Independence Day/); // the 4th is a Saturday
    expect(isPublicationDay(fed, "2026-04-03")).toBe(true); // Good Friday is no US public holiday
    expect(isPublicationDay(fed, "2026-11-27")).toBe(true); // day after Thanksgiving: an observance
    const germany: CalendarSpec = { publicationDays: WEEKDAYS, countryCode: ["DE"], timeZone: "Europe/Berlin" };
    expect(isPublicationDay(germany, "2026-12-24")).toBe(true); // a bank holiday from 14:00 only
    expect(closingOn(germany, "2026-05-14")).toBe("Ascension Day");
  });

  it("has working days only without a country", () => {
    const nowhere: CalendarSpec = { publicationDays: WEEKDAYS };
    expect(calendarYear(nowhere, 2026).closings).toEqual([]);
    expect(isPublicationDay(nowhere, "2026-12-25")).toBe(true);
    expect(isPublicationDay(nowhere, "2026-12-26")).toBe(false);
  });
});

describe("observed exceptions", () => {
  it("keeps a publication on a closing day and a publication day without one", () => {
    const stored = ["2026-03-31", "2026-04-01", "2026-04-03", "2026-04-07", "2026-04-09"];
    const seen = observedExceptions(ecb.bank, stored, 2026, "2026-04-09");
    expect(seen.publishedOnClosing).toEqual([{ date: "2026-04-03", name: "Good Friday" }]);
    expect(seen.notPublished).toEqual(["2026-04-02", "2026-04-08"]);
  });

  it("sees nothing missing before the first stored date nor after the expected one", () => {
    const seen = observedExceptions(ecb.bank, ["2026-04-07"], 2026, "2026-04-08");
    expect(seen).toEqual({ publishedOnClosing: [], notPublished: ["2026-04-08"] });
  });
});

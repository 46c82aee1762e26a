// A period source's calendar follows its cadence, the scheduler's own rule: HMRC the penultimate
// Thursday, the US Treasury the first five working days after a quarter, InforEuro the last two of a
// month, the BIS each Wednesday; over HTTP in JSON, CSV and iCalendar alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import bis from "../../adapters/BIS.js";
import hmrc from "../../adapters/HMRC.js";
import inforeuro from "../../adapters/INFOREURO.js";
import ust from "../../adapters/UST.js";
import { calendarYear, isPublicationDay, observedExceptions } from "../../src/calendar/calendar.js";
import { nextRun } from "../../src/schedule/time.js";
import { storeRates } from "../support/publish.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

describe("calendars of period sources", () => {
  it("HMRC: the penultimate Thursday of each month, twelve a year", () => {
    const year = calendarYear(hmrc.bank, 2026);
    expect(year.publicationDays).toEqual([
      "2026-01-22",
      "2026-02-19",
      "2026-03-19",
      "2026-04-23",
      "2026-05-21",
      "2026-06-18",
      "2026-07-23",
      "2026-08-20",
      "2026-09-17",
      "2026-10-22",
      "2026-11-19",
      "2026-12-24",
    ]);
    expect(year.closings).toEqual([]);
  });

  it("UST: the first five working days after each quarter, a holiday among them a closing", () => {
    const year = calendarYear(ust.bank, 2026);
    expect(year.publicationDays.filter((d) => d < "2026-02-01")).toEqual([
      "2026-01-02",
      "2026-01-05",
      "2026-01-06",
      "2026-01-07",
      "2026-01-08",
    ]);
    expect(year.publicationDays.filter((d) => d.startsWith("2026-07"))).toEqual([
      "2026-07-01",
      "2026-07-02",
      "2026-07-06",
      "2026-07-07",
      "2026-07-08",
    ]);
    expect(year.publicationDays).toHaveLength(20);
    // Only the closings that fall where the cadence would publish; Thanksgiving is no UST closing.
    expect(year.closings).toEqual([
      { date: "2026-01-01", name: "New Year's Day" },
      { date: "2026-07-03", name: "Independence Day (substitute day)" },
    ]);
  });

  it("InforEuro: the last two working days of each month; the BIS: every Wednesday", () => {
    const euro = calendarYear(inforeuro.bank, 2026).publicationDays;
    expect(euro).toHaveLength(24);
    expect(euro.slice(0, 4)).toEqual(["2026-01-29", "2026-01-30", "2026-02-26", "2026-02-27"]);
    const wednesdays = calendarYear(bis.bank, 2026).publicationDays;
    expect(wednesdays).toHaveLength(52);
    expect(wednesdays.every((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 3)).toBe(true);
  });

  it("is the scheduler's rule: each listed day is a publication day and the next run after the day before", () => {
    for (const adapter of [hmrc, ust, inforeuro, bis]) {
      const days = calendarYear(adapter.bank, 2026).publicationDays;
      expect(days.every((d) => isPublicationDay(adapter.bank, d))).toBe(true);
      const from = new Date(`2026-03-01T00:00:00Z`);
      expect(days).toContain(nextRun(adapter.bank, from).date);
    }
  });

  it("observes a publication day as not published when the period it brings is not stored", () => {
    // HMRC stores each month at its first day, published on the month before's penultimate Thursday.
    const stored = ["2026-01-01", "2026-02-01", "2026-04-01"];
    expect(observedExceptions(hmrc.bank, stored, 2026, "2026-06-01")).toEqual({
      publishedOnClosing: [],
      notPublished: ["2026-02-19", "2026-04-23", "2026-05-21"],
    });
    // The US Treasury's quarter end, published in the first days after it.
    expect(observedExceptions(ust.bank, ["2025-12-31", "2026-03-31"], 2026, "2026-06-30").notPublished).toEqual([
      "2026-07-01",
      "2026-07-02",
      "2026-07-06",
      "2026-07-07",
      "2026-07-08",
    ]);
    expect(observedExceptions(ust.bank, ["2025-12-31", "2026-03-31"], 2026, "2026-03-31").notPublished).toEqual([]);
  });
});

describe("a period source's Calendar over HTTP", () => {
  let h: InProcessServer;
  let token: string;
  beforeAll(async () => {
    h = await startTestServer();
    storeRates(h.store, "HMRC", [
      { effectiveDate: "2026-01-01", currency: "USD", rate: "1.3456", validTo: "2026-01-31" },
    ]);
    token = await h.token();
  });
  afterAll(() => h?.stop());
  const get = (path: string) => fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  it("JSON lists the cadence's days and the cadence itself", async () => {
    const doc = (await (await get("/v1/Banks/HMRC/Calendar?year=2026")).json()) as {
      publicationDays: string[];
      cadence: unknown;
    };
    expect(doc.publicationDays).toEqual(calendarYear(hmrc.bank, 2026).publicationDays);
    expect(doc.publicationDays).toHaveLength(12);
    expect(doc.cadence).toEqual(hmrc.bank.cadence);
  });

  it("CSV has one publication row per cadence day, no other Thursday", async () => {
    const lines = (await (await get("/v1/Banks/HMRC/Calendar.csv?year=2026")).text()).split("\r\n");
    // A day whose month is not stored by now is shown "not published" (only January is stored here).
    const days = lines.filter((l) => /,(publication|not published),$/.test(l));
    expect(days.map((l) => l.split(",")[1])).toEqual(calendarYear(hmrc.bank, 2026).publicationDays);
    expect(lines).toContain("HMRC,2026-02-19,not published,");
    expect(lines.some((l) => l.startsWith("HMRC,2026-08-27,"))).toBe(false);
  });

  it("iCalendar has one event per publication day", async () => {
    const text = await (await get("/v1/Banks/HMRC/Calendar.ics?year=2026")).text();
    expect(text).toContain("X-WR-CALNAME:HMRC: publication days and closings\r\n");
    expect(text.match(/SUMMARY:HMRC publishes\r\n/g)).toHaveLength(12);
    expect(text).toContain("DTSTART;VALUE=DATE:20260820\r\nDTEND;VALUE=DATE:20260821\r\nSUMMARY:HMRC publishes\r\n");
  });
});

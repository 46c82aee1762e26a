// GET /v1/Banks/{bankId}/Calendar: the ECB's 2026 in JSON, CSV and iCalendar, with a publication
// stored on Good Friday shown as observed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { storeRates } from "../support/publish.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

let h: InProcessServer;
let token: string;
beforeAll(async () => {
  h = await startTestServer();
  for (const date of ["2026-04-01", "2026-04-02", "2026-04-03"])
    storeRates(h.store, "ECB", [{ effectiveDate: date, currency: "USD", rate: "1.08" }]);
  token = await h.token();
});
afterAll(() => h?.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe("a bank's calendar", () => {
  it("lists the publication days and the closings by name, and the day published although closed", async () => {
    const r = await get("/v1/Banks/ECB/Calendar?year=2026");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const doc = (await r.json()) as {
      bankId: string;
      publicationDays: string[];
      closings: Array<{ date: string; name: string }>;
      observed: { publishedOnClosing: Array<{ date: string; name: string }>; notPublished: string[] };
    };
    expect(doc.bankId).toBe("ECB");
    expect(doc.closings).toContainEqual({ date: "2026-04-03", name: "Good Friday" });
    expect(doc.closings).toHaveLength(5);
    expect(doc.publicationDays).toContain("2026-04-02");
    expect(doc.publicationDays).not.toContain("2026-04-06");
    expect(doc.observed.publishedOnClosing).toEqual([{ date: "2026-04-03", name: "Good Friday" }]);
    expect(doc.observed.notPublished[0]).toBe("2026-04-07"); // nothing stored after Good Friday
  });

  it("answers CSV, one row per day it says something about", async () => {
    const r = await get("/v1/Banks/ECB/Calendar.csv?year=2026");
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await r.text()).split("\r\n");
    expect(lines[0]).toBe("bank,date,day,name");
    expect(lines).toContain("ECB,2026-04-03,published on closing,Good Friday");
    expect(lines).toContain("ECB,2026-04-06,closed,Easter Monday");
    expect(lines).toContain("ECB,2026-04-02,publication,");
  });

  it("answers iCalendar to Accept: text/calendar, one all-day event per closing", async () => {
    const r = await get("/v1/Banks/ECB/Calendar?year=2026", { accept: "text/calendar" });
    expect(r.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await r.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(text).toContain(
      "DTSTART;VALUE=DATE:20260403\r\nDTEND;VALUE=DATE:20260404\r\nSUMMARY:ECB closed: Good Friday\r\n",
    );
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(6); // five closings, one day observed
    expect((await get("/v1/Banks/ECB/Calendar.ics?year=2026")).headers.get("content-type")).toBe(
      "text/calendar; charset=utf-8",
    );
  });

  it("a dated lookup on a closing day answers the rates in force and names the closing in X-Closed", async () => {
    const monday = await get("/v1/Banks/ECB/DailyRates/2026-04-06.json");
    expect(monday.status).toBe(200);
    expect(monday.headers.get("x-closed")).toBe("Easter Monday");
    expect(monday.headers.get("content-location")).toBe("/v1/Banks/ECB/DailyRates/2026-04-03.json");
    // A date with a publication of its own (even a closing day's, observed) has no X-Closed.
    expect((await get("/v1/Banks/ECB/DailyRates/2026-04-03.json")).headers.get("x-closed")).toBeNull();
    expect((await get("/v1/Banks/ECB/DailyRates/2026-04-02.json")).headers.get("x-closed")).toBeNull();
  });

  it("refuses a year that is not one, and an unknown bank", async () => {
    expect((await get("/v1/Banks/ECB/Calendar?year=20x6")).status).toBe(400);
    expect((await get("/v1/Banks/NOPE/Calendar?year=2026")).status).toBe(404);
    expect((await fetch(`${h.url}/v1/Banks/ECB/Calendar`)).status).toBe(401);
  });
});

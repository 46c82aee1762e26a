// Events are recorded by the publisher after the switch: a new date, a revision of the served date,
// nothing for a re-render with the same figures or an older date imported by a backfill.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { publish } from "../support/unsigned.js";
import { eventsAfter, recordEvents, RETENTION_DAYS, type RatesPublished } from "../../src/store/events.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let ctx: Awaited<ReturnType<typeof tempStore>>;
let out: string;
const AAA = testBank("AAA");
const BBB = testBank("BBB");

beforeEach(async () => {
  ctx = await tempStore();
  out = join(ctx.dir, "out");
  storeRates(ctx.store, "AAA", [
    { effectiveDate: "2026-03-02", currency: "EUR", rate: "24.170" },
    { effectiveDate: "2026-03-02", currency: "USD", rate: "20.100" },
  ]);
});
afterEach(() => ctx.cleanup());

describe("events of a publish", () => {
  it("records a first publication, a new date with the currencies that changed, and a revision", async () => {
    await publish(ctx.store, [AAA, BBB], out);
    let events = await eventsAfter(ctx.store, 0);
    expect(events.map((e) => e.data)).toEqual([
      {
        bankId: "AAA",
        effectiveDate: "2026-03-02",
        publishedAt: "2026-03-02T13:31:00.000Z",
        currencies: ["EUR", "USD"],
        revision: false,
        latest: {
          json: "/v1/Banks/AAA/DailyRates/Latest.json",
          xml: "/v1/Banks/AAA/DailyRates/Latest.xml",
          csv: "/v1/Banks/AAA/DailyRates/Latest.csv",
          xlsx: "/v1/Banks/AAA/DailyRates/Latest.xlsx",
        },
      },
    ]);
    const first = events[0]!.id;

    // Nothing new: no event.
    await publish(ctx.store, [AAA, BBB], out);
    expect(await eventsAfter(ctx.store, first)).toEqual([]);

    // A new date where only EUR moved.
    storeRates(
      ctx.store,
      "AAA",
      [
        { effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" },
        { effectiveDate: "2026-03-03", currency: "USD", rate: "20.100" },
      ],
      new Date("2026-03-03T13:31:00Z"),
    );
    await publish(ctx.store, [AAA, BBB], out);
    events = await eventsAfter(ctx.store, first);
    expect(
      events.map((e) => [
        (e.data as RatesPublished).effectiveDate,
        (e.data as RatesPublished).currencies,
        (e.data as RatesPublished).revision,
      ]),
    ).toEqual([["2026-03-03", ["EUR"], false]]);
    // When it is recorded the new files are the ones served.
    expect(readFileSync(join(out, "v1/Banks/AAA/DailyRates/Latest.json"), "utf8")).toContain("2026-03-03");

    // The bank corrects USD of the same date.
    storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "USD", rate: "20.105" }]);
    await publish(ctx.store, [AAA, BBB], out);
    events = await eventsAfter(ctx.store, events[0]!.id);
    expect(
      events.map((e) => [
        (e.data as RatesPublished).effectiveDate,
        (e.data as RatesPublished).currencies,
        (e.data as RatesPublished).revision,
      ]),
    ).toEqual([["2026-03-03", ["USD"], true]]);

    // A backfill of older dates changes no Latest: no event.
    const last = events[0]!.id;
    storeRates(ctx.store, "AAA", [{ effectiveDate: "2026-02-27", currency: "EUR", rate: "24.000" }]);
    await publish(ctx.store, [AAA, BBB], out);
    expect(await eventsAfter(ctx.store, last)).toEqual([]);
  });

  it("prunes events older than the retention and keeps the ids increasing", async () => {
    const data = {
      bankId: "AAA",
      effectiveDate: "2026-03-02",
      publishedAt: "2026-03-02T13:31:00.000Z",
      currencies: ["EUR"],
      revision: false,
      latest: { json: "/j", xml: "/x", csv: "/c", xlsx: "/s" },
    };
    const [old] = await recordEvents(ctx.store, [{ data, generation: "g1" }], new Date("2026-03-01T00:00:00Z"));
    const recent = new Date(Date.parse("2026-03-01T00:00:00Z") + (RETENTION_DAYS - 1) * 86_400_000);
    const [kept] = await recordEvents(ctx.store, [{ data, generation: "g2" }], recent);
    expect(kept).toBeGreaterThan(old!);
    expect((await eventsAfter(ctx.store, 0)).map((e) => e.id)).toEqual([old, kept]);
    const later = new Date(Date.parse("2026-03-01T00:00:00Z") + (RETENTION_DAYS + 1) * 86_400_000);
    const [newest] = await recordEvents(ctx.store, [{ data, generation: "g3" }], later);
    expect((await eventsAfter(ctx.store, 0)).map((e) => e.id)).toEqual([kept, newest]);
  });
});

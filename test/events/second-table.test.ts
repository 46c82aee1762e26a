// Events of a bank's second table (NBP's weekly Table B, stored under the source id NBPB) name the bank,
// never the internal id: a correction links to NBP's Corrections; a late table says its frequency, and a
// daily and a weekly table late on the same day are two events, each recorded once.
import { afterEach, describe, expect, it } from "vitest";

import { correctionOf } from "../../src/events/corrections.js";
import { eventsAfter, recordLateEvent, type RatesLate } from "../../src/store/events.js";
import { tempStore } from "../support/store.js";

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe("events of NBP's weekly table", () => {
  it("a correction is NBP's, linking to NBP's Corrections", () => {
    const data = correctionOf("NBPB", [
      { effective_date: "2026-03-11", currency: "AFN", revised_at: "2026-03-12T10:00:00.000Z" },
    ]);
    expect(data).toMatchObject({
      bankId: "NBP",
      dates: ["2026-03-11"],
      currencies: ["AFN"],
      corrections: "/v1/Banks/NBP/Corrections?from=2026-03-12&to=2026-03-12",
    });
  });

  it("a late daily and a late weekly table of the same day are two events, each once", async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const late = (frequency?: string): RatesLate => ({
      bankId: "NBP",
      ...(frequency ? { frequency } : {}),
      expectedDate: "2026-03-18",
      dueAt: "2026-03-18T11:15:00.000Z",
      dueLocal: "2026-03-18 12:15 Europe/Warsaw",
      lateByMinutes: 75,
      newestDate: "2026-03-11",
    });
    const now = new Date("2026-03-18T12:30:00Z");
    expect(await recordLateEvent(ctx.store, late(), now)).toBeDefined();
    expect(await recordLateEvent(ctx.store, late("Weekly"), now)).toBeDefined();
    expect(await recordLateEvent(ctx.store, late("Weekly"), now)).toBeUndefined();
    expect(await recordLateEvent(ctx.store, late(), now)).toBeUndefined();
    const events = await eventsAfter(ctx.store, 0);
    expect(events.map((e) => [(e.data as RatesLate).bankId, (e.data as RatesLate).frequency])).toEqual([
      ["NBP", undefined],
      ["NBP", "Weekly"],
    ]);
  });
});

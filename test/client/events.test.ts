// The event stream through the client against a real `exrates serve`: an event received, the server
// stopped, a publication made while it is down, the server started again; the client reconnects with
// Last-Event-ID and receives the missed event, then the next live one, with no id skipped.
import { afterAll, describe, expect, it } from "vitest";

import { ExratesClient, type DebugEvent, type RatesPublishedEvent } from "@exrates/client";
import { serveRates, weekdays, type ServedRates } from "../support/served-rates.js";

describe("events through the client", { timeout: 180_000 }, () => {
  let served: ServedRates | undefined;
  afterAll(async () => {
    await served?.close();
  });

  it("receives an event, reconnects after a server restart, and misses nothing", async () => {
    served = await serveRates(weekdays("2026-02-02", "2026-03-03"));
    const debug: DebugEvent[] = [];
    const client = new ExratesClient({
      baseUrl: served.url,
      clientId: served.clientId,
      clientSecret: served.clientSecret,
      maxReconnectMs: 1000,
      debug: (e) => debug.push(e),
    });
    const received: RatesPublishedEvent[] = [];
    const stop = new AbortController();
    const reading = (async () => {
      for await (const event of client.events({ banks: ["CNB"], signal: stop.signal })) received.push(event);
    })();
    // Each step waits on a child server starting or publishing: generous under a loaded CI machine.
    const until = async (what: string, check: () => boolean, ms = 60_000) => {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(debug.slice(-5))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const streamsOpen = () =>
      debug.filter((e) => e.event === "answer" && e.url?.endsWith("/v1/events") && e.status === 200).length;
    try {
      await until("the stream", () => streamsOpen() === 1);
      await served.addDates(["2026-03-04"]);
      await until("the first event", () => received.length === 1);

      await served.stopServer();
      await served.addDates(["2026-03-05"]);
      await served.startServer();
      await until("the missed event", () => received.length === 2);
      expect(streamsOpen()).toBe(2);
      const reconnect = debug.filter((e) => e.event === "reconnect");
      expect(reconnect.length).toBeGreaterThan(0);
      expect(reconnect.every((e) => e.lastEventId === String(received[0]!.id))).toBe(true);

      await served.addDates(["2026-03-06"]);
      await until("the next live event", () => received.length === 3);
    } finally {
      stop.abort();
      // Bounded, so that a step that failed above is reported rather than hidden behind the test's timeout.
      await Promise.race([reading.catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
    }
    expect(received.map((e) => [e.bankId, e.effectiveDate, e.revision])).toEqual([
      ["CNB", "2026-03-04", false],
      ["CNB", "2026-03-05", false],
      ["CNB", "2026-03-06", false],
    ]);
    const first = received[0]!.id;
    expect(received.map((e) => e.id)).toEqual([first, first + 1, first + 2]);
    expect(received[2]!.latest.json).toBe(`${served.url}/v1/Banks/CNB/DailyRates/Latest.json`);
    expect(received[2]!.currencies).toEqual(["EUR", "JPY", "USD", "XDR"]);
  });
});

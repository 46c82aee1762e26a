// The client's event stream yields every kind of event it is asked for, told apart by `type`: a
// rates.corrected (an older figure changed by an ingest) and a rates.late (recorded by the scheduler)
// come only when `types` names them; by default the stream yields rates.published alone, as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ExratesClient, type RatesEvent } from "@exrates/client";
import cnb from "../../adapters/CNB.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import { recordLateEvent } from "../../src/store/events.js";
import type { FeedDocument } from "../../src/types.js";
import { startTestServer, type InProcessServer } from "../support/server.js";

let server: InProcessServer;
let client: ExratesClient;

const answer = (day: string, eur: string, at: string): FeedDocument => ({
  url: `https://api.cnb.cz/cnbapi/exrates/daily?date=${day}`,
  method: "GET",
  status: 200,
  contentType: "application/json",
  body: Buffer.from(`{"rates":[{"validFor":"${day}","currencyCode":"EUR","amount":1,"rate":${eur}}]}`),
  startedAt: new Date(at),
  finishedAt: new Date(at),
});
const ingest = async (day: string, eur: string, at: string) =>
  storeParsed(server.store, cnb.bank, await parseDocuments(cnb, [answer(day, eur, at)]), "fetch");

beforeAll(async () => {
  server = await startTestServer();
  client = new ExratesClient({
    baseUrl: server.url,
    tokenUrl: server.tokenUrl,
    clientId: server.client.id,
    clientSecret: server.client.secret,
    cache: false,
  });
  await ingest("2026-03-02", "24.170", "2026-03-02T13:31:00Z");
  await ingest("2026-03-03", "24.200", "2026-03-03T13:31:00Z");
}, 60_000);
afterAll(() => server?.stop());

/** The first `count` events of a stream opened from the start, then the stream closed. */
async function firstEvents(count: number, types?: RatesEvent["type"][]): Promise<RatesEvent[]> {
  const stop = new AbortController();
  const got: RatesEvent[] = [];
  const timer = setTimeout(() => stop.abort(), 15_000);
  try {
    const stream = types
      ? client.events({ lastEventId: 0, signal: stop.signal, types })
      : client.events({ lastEventId: 0, signal: stop.signal });
    for await (const event of stream) {
      got.push(event);
      if (got.length === count) break;
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return got;
}

describe("client.events({ types })", () => {
  it("yields corrections and late publications when asked, each with its type", async () => {
    await ingest("2026-03-02", "24.185", "2026-03-03T14:00:00Z");
    await recordLateEvent(server.store, {
      bankId: "CNB",
      expectedDate: "2026-03-04",
      dueAt: "2026-03-04T13:30:00.000Z",
      dueLocal: "2026-03-04 14:30 Europe/Prague",
      lateByMinutes: 75,
      newestDate: "2026-03-03",
    });
    const events = await firstEvents(2, ["rates.corrected", "rates.late"]);
    expect(events.map((e) => e.type)).toEqual(["rates.corrected", "rates.late"]);
    const [corrected, late] = events;
    expect(corrected).toMatchObject({ bankId: "CNB", dates: ["2026-03-02"], currencies: ["EUR"], figures: 1 });
    expect(late).toMatchObject({ bankId: "CNB", expectedDate: "2026-03-04", lateByMinutes: 75 });
  });

  it("refuses a kind it does not know, at the call", () => {
    expect(() => client.events({ types: ["rates.deleted" as RatesEvent["type"]] })).toThrow(TypeError);
  });
});

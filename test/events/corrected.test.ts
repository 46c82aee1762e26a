// The `rates.corrected` event: an ingest that changes a figure already stored, of a date that is not
// the Latest one, records one event naming the dates and currencies and linking to the Corrections
// resource; a first import or the same answer again records none. It reaches an SSE client (the link
// absolute, and what it links to lists the correction) and a webhook, signed.

import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";

import cnb from "../../adapters/CNB.js";
import { createWebhookWorker } from "../../src/events/webhooks.js";
import { parseDocuments, storeParsed } from "../../src/ingest/ingest.js";
import type { Store } from "../../src/store/database.js";
import { addWebhook, eventsAfter } from "../../src/store/events.js";
import type { FeedDocument, RatesCorrected } from "../../src/types.js";
import { startHarness, type Harness } from "../serve/support.js";
import { startReceiver } from "../support/receiver.js";
import { tempStore } from "../support/store.js";

const silent = pino({ level: "silent" });

const answer = (day: string, eur: string, at: string): FeedDocument => ({
  url: `https://api.cnb.cz/cnbapi/exrates/daily?date=${day}`,
  method: "GET",
  status: 200,
  contentType: "application/json",
  body: Buffer.from(
    `{"rates":[{"validFor":"${day}","currencyCode":"EUR","amount":1,"rate":${eur}},` +
      `{"validFor":"${day}","currencyCode":"HUF","amount":100,"rate":6.304}]}`,
  ),
  startedAt: new Date(at),
  finishedAt: new Date(at),
});

async function ingest(store: Store, day: string, eur: string, at: string) {
  return storeParsed(store, cnb.bank, await parseDocuments(cnb, [answer(day, eur, at)]), "fetch");
}

/** Two days stored, then the older one corrected: the correction is not of Latest's date. */
async function correctAnOlderDay(store: Store): Promise<void> {
  await ingest(store, "2026-03-02", "24.170", "2026-03-02T13:31:00Z");
  await ingest(store, "2026-03-03", "24.200", "2026-03-03T13:31:00Z");
  await ingest(store, "2026-03-03", "24.200", "2026-03-03T13:35:00Z"); // the same again: no correction
  expect(await eventsAfter(store, 0)).toEqual([]);
  const outcome = await ingest(store, "2026-03-02", "24.185", "2026-03-03T14:00:00Z");
  expect(outcome.revised).toBe(1);
}

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe("rates.corrected", () => {
  it("is recorded once per correcting ingest, naming the dates, currencies and the Corrections resource", async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    await correctAnOlderDay(ctx.store);
    const events = await eventsAfter(ctx.store, 0);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe("rates.corrected");
    const data = events[0]!.data as RatesCorrected;
    expect(data).toMatchObject({
      bankId: "CNB",
      dates: ["2026-03-02"],
      currencies: ["EUR"],
      figures: 1,
    });
    const day = data.correctedAt.slice(0, 10);
    expect(data.corrections).toBe(`/v1/Banks/CNB/Corrections?from=${day}&to=${day}`);
  });

  it("is POSTed to a webhook, signed, with the link made absolute", async () => {
    const ctx = await tempStore();
    cleanups.push(ctx.cleanup);
    const receiver = await startReceiver("/hook", 200);
    cleanups.push(receiver.close);
    const { received } = receiver;
    const hook = await addWebhook(ctx.store, { url: receiver.url, banks: ["CNB"] });
    await correctAnOlderDay(ctx.store);
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "https://rates.example/" });
    expect(await worker.tick()).toBe(1);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    const message = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as {
      type: string;
      data: RatesCorrected & { id: number };
    };
    expect(message.type).toBe("rates.corrected");
    expect(message.data.dates).toEqual(["2026-03-02"]);
    expect(message.data.corrections).toMatch(
      /^https:\/\/rates\.example\/v1\/Banks\/CNB\/Corrections\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/,
    );
  });

  it("reaches an SSE client, and its link lists the correction", async () => {
    const h: Harness = await startHarness();
    cleanups.push(() => h.close());
    const auth = { authorization: `Bearer ${await h.token()}` };
    const controller = new AbortController();
    cleanups.push(() => Promise.resolve(controller.abort()));
    const res = await fetch(`${h.url}/v1/events?banks=CNB`, { headers: auth, signal: controller.signal });
    expect(res.status).toBe(200);
    await correctAnOlderDay(h.store);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    const deadline = Date.now() + 5000;
    while (
      !text.includes("event: rates.corrected") ||
      !text.slice(text.indexOf("event: rates.corrected")).includes("\n\n")
    ) {
      if (Date.now() > deadline) throw new Error(`no rates.corrected frame; got: ${text}`);
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const frame = text.slice(text.indexOf("event: rates.corrected")).split("\n\n")[0]!;
    const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as RatesCorrected;
    expect(data.currencies).toEqual(["EUR"]);
    expect(data.corrections.startsWith(`${h.url}/v1/Banks/CNB/Corrections?`)).toBe(true);
    const listed = (await (await fetch(data.corrections, { headers: auth })).json()) as {
      corrections: Array<{
        effectiveDate: string;
        currency: string;
        previous: { rate: string };
        current: { rate: string };
      }>;
    };
    expect(listed.corrections.map((c) => [c.effectiveDate, c.currency, c.previous.rate, c.current.rate])).toEqual([
      ["2026-03-02", "EUR", "24.170", "24.185"],
    ]);
  });
});

// GET /v1/events: an import + publish reaches a listening client within a second; a reconnection with
// Last-Event-ID replays what it missed; ?banks= filters; the bearer check applies; an expired token
// ends the stream with an event saying so.
import { request, type IncomingMessage } from "node:http";

import { Validator } from "@seriousme/openapi-schema-validator";
import { afterEach, describe, expect, it } from "vitest";

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { TOKEN_TTL_SECONDS } from "../../src/auth/keys.js";
import { createEventStream } from "../../src/serve/resources/events/stream.js";
import { publish } from "../support/unsigned.js";
import { storeRates, testBank } from "../support/publish.js";
import { silentLog, startHarness, type Harness } from "./support.js";

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** A minimal SSE client: frames as they arrive, and waiting for one. */
function openStream(url: string, headers: Record<string, string>) {
  const frames: Frame[] = [];
  let waiters: Array<() => void> = [];
  let ended = false;
  let buffer = "";
  let response: IncomingMessage | undefined;
  const req = request(url, { headers });
  const ready = new Promise<IncomingMessage>((resolve, reject) => {
    req.on("response", (res) => {
      response = res;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const frame: Frame = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) frame.comment = line.slice(1).trim();
            const m = /^(id|event|data): ?(.*)$/.exec(line);
            if (m) frame[m[1] as "id" | "event" | "data"] = m[2];
          }
          frames.push(frame);
        }
        for (const w of waiters) w();
      });
      res.on("end", () => {
        ended = true;
        for (const w of waiters) w();
      });
      resolve(res);
    });
    req.on("error", reject);
  });
  req.end();
  return {
    frames,
    ready,
    ended: () => ended,
    /** Resolves once `test` holds, or rejects after `ms`. */
    until(test: () => boolean, ms: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test()) {
            clearTimeout(timer);
            waiters = waiters.filter((w) => w !== check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          reject(new Error(`timed out; frames: ${JSON.stringify(frames)}`));
        }, ms);
        waiters.push(check);
        check();
      });
    },
    close: () => {
      response?.destroy();
      req.destroy();
    },
  };
}

const events = (frames: Frame[]) => frames.filter((f) => f.event === "rates.published");

let h: Harness | undefined;
let streams: Array<ReturnType<typeof openStream>> = [];
afterEach(async () => {
  for (const s of streams) s.close();
  streams = [];
  await h?.close();
  h = undefined;
});

const AAA = testBank("AAA");
const BBB = testBank("BBB");

function importAndPublish(harness: Harness, bank: string, date: string, rate: string) {
  storeRates(harness.store, bank, [{ effectiveDate: date, currency: "EUR", rate }], new Date(`${date}T13:31:00Z`));
  return publish(harness.store, [AAA, BBB], harness.config.outDir);
}

describe("GET /v1/events", () => {
  it("needs a bearer token", async () => {
    h = await startHarness();
    const response = await fetch(`${h.url}/v1/events`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  // (How fast an event arrives is measured by bench/events.mjs, not here: a loaded machine is slow.)
  it("streams an import + publish as it happens, then replays from Last-Event-ID", async () => {
    h = await startHarness();
    const auth = { authorization: `Bearer ${await h.token()}` };
    const stream = openStream(`${h.url}/v1/events`, auth);
    streams.push(stream);
    const res = await stream.ready;
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");

    await importAndPublish(h, "AAA", "2026-04-02", "24.170");
    await stream.until(() => events(stream.frames).length === 1, 10_000);
    const [first] = events(stream.frames);
    const data = JSON.parse(first!.data!) as Record<string, unknown>;
    expect(data).toMatchObject({
      id: Number(first!.id),
      bankId: "AAA",
      effectiveDate: "2026-04-02",
      currencies: ["EUR"],
      revision: false,
      latest: { json: `${h.url}/v1/Banks/AAA/DailyRates/Latest.json` },
    });
    // What the event points at is already served.
    await h.server.refresh();
    const latest = await fetch((data.latest as { json: string }).json, { headers: auth });
    expect(await latest.text()).toContain("2026-04-02");

    // The client goes away; two publications happen; it comes back with the last id it saw.
    stream.close();
    await importAndPublish(h, "AAA", "2026-04-03", "24.180");
    await importAndPublish(h, "BBB", "2026-04-03", "1.0850");
    const again = openStream(`${h.url}/v1/events`, { ...auth, "last-event-id": first!.id! });
    streams.push(again);
    await again.until(() => events(again.frames).length === 2, 10_000);
    const replayed = events(again.frames).map((f) => JSON.parse(f.data!) as { bankId: string; effectiveDate: string });
    expect(replayed.map((d) => [d.bankId, d.effectiveDate])).toEqual([
      ["AAA", "2026-04-03"],
      ["BBB", "2026-04-03"],
    ]);
    expect(Number(events(again.frames)[1]!.id)).toBeGreaterThan(Number(events(again.frames)[0]!.id));

    // A filtered client sees only its banks, replayed and live. (The test banks have no adapter: the
    // server knows BBB once its tree shows it published.)
    await h.server.refresh();
    const onlyBbb = openStream(`${h.url}/v1/events?banks=bbb`, { ...auth, "last-event-id": first!.id! });
    streams.push(onlyBbb);
    await onlyBbb.until(() => events(onlyBbb.frames).length === 1, 10_000);
    await importAndPublish(h, "AAA", "2026-04-06", "24.190");
    await importAndPublish(h, "BBB", "2026-04-06", "1.0860");
    await onlyBbb.until(() => events(onlyBbb.frames).length === 2, 10_000);
    await again.until(() => events(again.frames).length === 4, 10_000);
    expect(events(onlyBbb.frames).map((f) => (JSON.parse(f.data!) as { bankId: string }).bankId)).toEqual([
      "BBB",
      "BBB",
    ]);
  });

  it("refuses a malformed filter or Last-Event-ID", async () => {
    h = await startHarness();
    const auth = { authorization: `Bearer ${await h.token()}` };
    expect((await fetch(`${h.url}/v1/events?banks=../x`, { headers: auth })).status).toBe(400);
    expect((await fetch(`${h.url}/v1/events`, { headers: { ...auth, "last-event-id": "abc" } })).status).toBe(400);
  });

  it("ends the stream with token.expired when the token expires", async () => {
    // The server's clock runs TTL - 1 s behind: its tokens expire a second from now in real time.
    h = await startHarness({ server: { now: () => Date.now() - (TOKEN_TTL_SECONDS - 1) * 1000 } });
    const stream = openStream(`${h.url}/v1/events`, { authorization: `Bearer ${await h.token()}` });
    streams.push(stream);
    expect((await stream.ready).statusCode).toBe(200);
    await stream.until(() => stream.ended(), 5000);
    expect(stream.frames.at(-1)?.event).toBe("token.expired");
  });

  it("is in the OpenAPI document, with the webhook, and the document stays valid", async () => {
    h = await startHarness();
    const doc = (await (await fetch(`${h.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
      webhooks: Record<string, unknown>;
    };
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.paths["/v1/events"]!.get.responses["200"]!.content).toHaveProperty(["text/event-stream"]);
    expect(doc.webhooks).toHaveProperty(["rates.published"]);
  });

  it("sends keep-alive comments on an idle stream and ends every stream when closed", async () => {
    h = await startHarness();
    const stream = createEventStream({
      databasePath: h.config.databasePath,
      publicUrl: "http://x",
      log: silentLog,
      keepAliveMs: 20,
    });
    const server = createServer((req, res) => stream.handle(req, res, false, ""));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const client = openStream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {});
      streams.push(client);
      expect((await client.ready).statusCode).toBe(200);
      await client.until(() => client.frames.filter((f) => f.comment === "keep-alive").length >= 2, 2000);
      expect(stream.size()).toBe(1);
      stream.close();
      await client.until(() => client.ended(), 2000);
      expect(stream.size()).toBe(0);
    } finally {
      stream.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

// Webhook delivery: signed so that the standardwebhooks package verifies it, retried with backoff on
// 5xx until a 200 (one success in the receiver's log), not retried on a 4xx, paused after failing too
// long, and still delivered by a new worker after the process that had it queued was killed (-9).
import { spawn } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { ANSWER_READ_LIMIT, createWebhookWorker, sendSigned } from "../../src/events/webhooks.js";
import { publish } from "../support/unsigned.js";
import { addWebhook, getWebhook, listWebhooks, removeWebhook, resumeWebhook } from "../../src/store/events.js";
import { endlessReceiver } from "../support/endless.js";
import { storeRates, testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

const silent = pino({ level: "silent" });
const AAA = testBank("AAA");
const BBB = testBank("BBB");

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A receiver on 127.0.0.1 answering each request with the next of `answers` (then the last one). */
async function receiver(answers: Array<number | "hang">) {
  const log: Received[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const answer = answers[Math.min(n++, answers.length - 1)]!;
      if (answer === "hang") return;
      log.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status: answer });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/exrates?token=abc`;
  return {
    url,
    log,
    successes: () => log.filter((r) => r.status === 200),
    /** Requests received, answered or not. */
    requests: () => n,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let ctx: Awaited<ReturnType<typeof tempStore>>;
let receivers: Array<Awaited<ReturnType<typeof receiver>>> = [];
beforeEach(async () => {
  ctx = await tempStore();
});
afterEach(async () => {
  for (const r of receivers) await r.close();
  receivers = [];
  await ctx.cleanup();
});

async function publishDay(date: string, rate: string) {
  storeRates(ctx.store, "AAA", [{ effectiveDate: date, currency: "EUR", rate }], new Date(`${date}T13:31:00Z`));
  await publish(ctx.store, [AAA, BBB], join(ctx.dir, "out"));
}

/** A clock the test moves. */
function clock(start = Date.now()) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe("webhooks", () => {
  it("POSTs each publication signed the Standard Webhooks way; the receiver verifies it", async () => {
    const r = await receiver([200]);
    receivers.push(r);
    const hook = await addWebhook(ctx.store, { url: r.url });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const other = await addWebhook(ctx.store, { url: r.url, banks: ["bbb"] });
    await publishDay("2026-04-02", "24.170");
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "https://rates.example/" });
    expect(await worker.tick()).toBe(1);
    expect(r.log).toHaveLength(1);
    const got = r.log[0]!;
    const verified = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as {
      type: string;
      data: { bankId: string; latest: { json: string } };
    };
    expect(verified.type).toBe("rates.published");
    expect(verified.data.bankId).toBe("AAA");
    expect(verified.data.latest.json).toBe("https://rates.example/v1/Banks/AAA/DailyRates/Latest.json");
    // Signed with another secret, or altered, it does not verify.
    expect(() => new Webhook(other.secret).verify(got.body, got.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(hook.secret).verify(`${got.body} `, got.headers as Record<string, string>)).toThrow();
    expect(await worker.tick()).toBe(0);
    const [listed] = await listWebhooks(ctx.store);
    expect(listed).toMatchObject({ id: hook.id, lastStatus: "delivered", lastResponseStatus: 200, failures: 0 });
    expect(JSON.stringify(await listWebhooks(ctx.store))).not.toContain(hook.secret);
  });

  it("retries a 500 with exponential backoff; 500, 500, 200 is one success in the receiver's log", async () => {
    const r = await receiver([500, 500, 200]);
    receivers.push(r);
    const hook = await addWebhook(ctx.store, { url: r.url });
    await publishDay("2026-04-02", "24.170");
    const c = clock();
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "http://x", now: c.now });
    expect(await worker.tick()).toBe(1);
    expect(await worker.tick()).toBe(0); // not due yet
    c.advance(29_000);
    expect(await worker.tick()).toBe(0);
    c.advance(1_000); // 30 s after the first
    expect(await worker.tick()).toBe(1);
    c.advance(59_000);
    expect(await worker.tick()).toBe(0);
    c.advance(1_000); // 60 s after the second
    expect(await worker.tick()).toBe(1);
    c.advance(3_600_000);
    expect(await worker.tick()).toBe(0);
    expect(r.log.map((x) => x.status)).toEqual([500, 500, 200]);
    expect(r.successes()).toHaveLength(1);
    // Every attempt carried the same message id.
    expect(new Set(r.log.map((x) => x.headers["webhook-id"]))).toEqual(new Set([r.log[0]!.headers["webhook-id"]]));
    const [listed] = await listWebhooks(ctx.store);
    expect(listed).toMatchObject({ id: hook.id, lastStatus: "delivered", delivered: 1, failures: 2, pending: 0 });
    expect(listed!.pausedAt).toBeUndefined();
  });

  it("reads at most a few KB of a receiver's answer: an endless 200 is delivered and dropped at once", async () => {
    const r = await endlessReceiver();
    try {
      await addWebhook(ctx.store, { url: r.url });
      await publishDay("2026-04-02", "24.170");
      // The timeout is long: only the read limit can end the answer early.
      const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "http://x", timeoutMs: 15_000 });
      const started = Date.now();
      expect(await worker.tick()).toBe(1);
      await r.hungUp(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      // What the server got out before the worker hung up: the limit, plus what socket buffers hold.
      expect(ANSWER_READ_LIMIT).toBeLessThanOrEqual(8192);
      expect(r.sent[0]).toBeLessThan(32 * 1024 * 1024);
      expect((await listWebhooks(ctx.store))[0]).toMatchObject({ lastStatus: "delivered", lastResponseStatus: 200 });

      // sendSigned itself (what `exrates webhooks test` calls) too.
      const at = new Date();
      const sent = sendSigned(
        { url: r.url, secret: "whsec_" + "A".repeat(43) + "=", id: "msg_1", body: "{}", at },
        { timeoutMs: 15_000 },
      );
      expect(await sent).toEqual({ ok: true, status: 200 });
      await r.hungUp(1);
      expect(r.sent[1]).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await r.close();
    }
  });

  it("does not retry a 4xx other than 429", async () => {
    const r = await receiver([404, 200]);
    receivers.push(r);
    await addWebhook(ctx.store, { url: r.url });
    await publishDay("2026-04-02", "24.170");
    const c = clock();
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "http://x", now: c.now });
    await worker.tick();
    c.advance(86_400_000);
    expect(await worker.tick()).toBe(0);
    expect(r.log.map((x) => x.status)).toEqual([404]);
    expect((await listWebhooks(ctx.store))[0]).toMatchObject({ lastStatus: "abandoned", failures: 1 });
  });

  it("pauses a receiver that keeps failing for a day; a paused one gets nothing new; resume and remove", async () => {
    const r = await receiver([503]);
    receivers.push(r);
    const hook = await addWebhook(ctx.store, { url: r.url });
    await publishDay("2026-04-02", "24.170");
    const c = clock();
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "http://x", now: c.now });
    for (let i = 0; i < 60; i++) {
      await worker.tick();
      c.advance(3_600_000);
    }
    // 30 s, 1, 2, 4 ... 64 min, then hourly: the day's attempts, then paused.
    const attempts = r.log.length;
    expect(attempts).toBeGreaterThan(10);
    expect(attempts).toBeLessThan(40);
    const paused = await getWebhook(ctx.store, hook.id);
    expect(paused?.pausedAt).toBeDefined();
    // Paused: a new publication is not queued for it, nothing is sent.
    await publishDay("2026-04-03", "24.180");
    c.advance(3_600_000);
    expect(await worker.tick()).toBe(0);
    expect(r.log.length).toBe(attempts);
    expect(await resumeWebhook(ctx.store, hook.id, c.now())).toBe(true);
    expect(await removeWebhook(ctx.store, hook.id)).toBe(true);
    expect(await listWebhooks(ctx.store)).toEqual([]);
  });

  it("a process killed (-9) while delivering leaves the delivery queued; the next worker delivers it", async () => {
    const r = await receiver(["hang", 200]);
    receivers.push(r);
    const hook = await addWebhook(ctx.store, { url: r.url });
    await publishDay("2026-04-02", "24.170");
    // Another process runs the worker (as the daemon does) and dies mid-request.
    const script = `
      import pino from "pino";
      import { openStore } from "./dist/src/store/database.js";
      import { createWebhookWorker } from "./dist/src/events/webhooks.js";
      const store = await openStore(process.argv[1]);
      createWebhookWorker({ store, log: pino({ level: "silent" }), publicUrl: "http://x", pollMs: 50 }).start();
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, join(ctx.dir, "exrates.db")], {
      cwd: join(import.meta.dirname, "../.."),
      stdio: "ignore",
    });
    const deadline = Date.now() + 20_000;
    // Until the request the receiver leaves unanswered has arrived.
    while (r.requests() === 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    expect(r.requests()).toBe(1);
    child.kill("SIGKILL");
    await new Promise((res) => child.once("exit", res));
    expect(r.log).toHaveLength(0);
    // The restarted daemon's worker.
    const worker = createWebhookWorker({ store: ctx.store, log: silent, publicUrl: "http://x" });
    expect(await worker.tick()).toBe(1);
    expect(r.successes()).toHaveLength(1);
    expect(() =>
      new Webhook(hook.secret).verify(r.log[0]!.body, r.log[0]!.headers as Record<string, string>),
    ).not.toThrow();
  });
});

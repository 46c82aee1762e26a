// Webhook delivery, run by the daemon (`exrates start`): every `pollMs` the queue in the store
// (webhook_deliveries, filled by the publisher with each event) is read for attempts that are due, and
// each is POSTed as JSON signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
// `webhook-signature`: HMAC-SHA256 with the webhook's secret, through the `standardwebhooks` package).
// At least once: an attempt is marked done only after the receiver's answer, so a daemon killed
// mid-way sends it again after its restart. A timeout, a network error, 429 or 5xx is retried with
// exponential backoff (Retry-After honoured) for `windowMs` after the event; any other answer is not.
// A webhook whose attempts fail `pauseAfter` times in a row, or whose retries run out, is paused.
// The secret is never logged, and neither is a URL's query. Of a receiver's answer only the status
// counts: at most ANSWER_READ_LIMIT bytes of its body are read.
import { Webhook } from "standardwebhooks";

import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { dueDeliveries, eventPayload, recordAttempt, type DueDelivery, type StoredEvent } from "../store/events.js";

export interface WebhookWorkerOptions {
  store: Store;
  log: Logger;
  /** The API's base URL: the events' Latest paths are made absolute with it. */
  publicUrl: string;
  now?: () => Date;
  fetch?: typeof fetch;
  /** A receiver's answer is awaited this long (ms). */
  timeoutMs?: number;
  pollMs?: number;
  /** The first retry's delay; each next one doubles, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Retries stop this long after the event was queued. */
  windowMs?: number;
  /** Failed attempts in a row that pause a webhook. */
  pauseAfter?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
}

export const DELIVERY_DEFAULTS = {
  timeoutMs: 10_000,
  pollMs: 1000,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  windowMs: 86_400_000,
  pauseAfter: 50,
  concurrency: 8,
};

/** A Standard Webhooks message: `type`, `timestamp` and the event's data (Latest URLs absolute). */
export function webhookBody(event: StoredEvent, publicUrl: string): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt, data: eventPayload(event, publicUrl) });
}

/** The message id of an event: the same for every attempt, so a receiver can drop duplicates. */
export const messageId = (eventId: number) => `evt_${eventId}`;

export type SendResult =
  | { ok: true; status: number }
  | { ok: false; status: number | undefined; error: string; retryable: boolean; retryAfterMs: number | undefined };

/** The most of a receiver's answer that is read, in bytes (a read may end one network chunk past it). */
export const ANSWER_READ_LIMIT = 4096;

/** Reads up to `limit` bytes of an answer's body and cancels the rest; the bytes read. */
async function readAtMost(response: Response, limit: number): Promise<number> {
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (!reader) return 0;
  let read = 0;
  try {
    while (read < limit) {
      const { done, value } = await reader.read();
      if (done) return read;
      read += value.byteLength;
    }
    return read;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** POSTs one signed message and classifies the answer. */
export async function sendSigned(
  input: { url: string; secret: string; id: string; body: string; at: Date },
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<SendResult> {
  const doFetch = options.fetch ?? fetch;
  const signature = new Webhook(input.secret).sign(input.id, input.at, input.body);
  let response: Response;
  try {
    response = await doFetch(input.url, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/json",
        "user-agent": "exrates-webhooks/1",
        "webhook-id": input.id,
        "webhook-timestamp": String(Math.floor(input.at.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: input.body,
      signal: AbortSignal.timeout(options.timeoutMs ?? DELIVERY_DEFAULTS.timeoutMs),
    });
    // Only the status counts: at most a few KB of the answer are read (a receiver streaming an endless
    // 200 would otherwise be read into memory until the timeout), then the rest is dropped.
    await readAtMost(response, ANSWER_READ_LIMIT).catch(() => undefined);
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const timedOut = e.name === "TimeoutError" || e.name === "AbortError";
    const reason = timedOut ? "timeout" : (e.cause?.code ?? e.message);
    return {
      ok: false,
      status: undefined,
      error: `request failed: ${reason}`,
      retryable: true,
      retryAfterMs: undefined,
    };
  }
  const status = response.status;
  if (status >= 200 && status < 300) return { ok: true, status };
  const retryable = status === 429 || status >= 500;
  return {
    ok: false,
    status,
    error: `answered ${status}`,
    retryable,
    retryAfterMs: retryable ? retryAfterMs(response.headers.get("retry-after")) : undefined,
  };
}

function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A URL as logged: no query, no credentials. */
export function loggableUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

export interface WebhookWorker {
  /** Attempts what is due now; resolves with how many were attempted. */
  tick(): Promise<number>;
  start(): void;
  /** Stops polling and waits for the attempts in flight. */
  stop(): Promise<void>;
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const o = { ...DELIVERY_DEFAULTS, ...stripUndefined(options) };
  const now = options.now ?? (() => new Date());
  const { store, log } = options;
  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** One attempt; true when delivered. */
  async function attempt(d: DueDelivery): Promise<boolean> {
    const at = now();
    const result = await sendSigned(
      { url: d.url, secret: d.secret, id: messageId(d.eventId), body: webhookBody(d.event, options.publicUrl), at },
      { fetch: options.fetch, timeoutMs: o.timeoutMs },
    );
    const where = { webhookId: d.webhookId, url: loggableUrl(d.url), eventId: d.eventId, attempt: d.attempt };
    if (result.ok) {
      await recordAttempt(store, d, { kind: "delivered", responseStatus: result.status }, now(), o.pauseAfter);
      log.info({ event: "webhook.delivered", ...where, status: result.status }, "webhook delivered");
      return true;
    }
    let retryAt: Date | undefined;
    if (result.retryable) {
      const backoff = Math.min(o.baseDelayMs * 2 ** (d.attempt - 1), o.maxDelayMs);
      const delay = Math.min(Math.max(backoff, result.retryAfterMs ?? 0), o.maxDelayMs);
      const next = new Date(now().getTime() + delay);
      if (next.getTime() <= Date.parse(d.queuedAt) + o.windowMs) retryAt = next;
    }
    const { paused } = await recordAttempt(
      store,
      d,
      {
        kind: "failed",
        responseStatus: result.status,
        error: result.error,
        retryAt,
        pause: result.retryable && !retryAt,
      },
      now(),
      o.pauseAfter,
    );
    log.warn(
      {
        event: "webhook.failed",
        ...where,
        status: result.status,
        error: result.error,
        retryAt: retryAt?.toISOString(),
      },
      retryAt ? "webhook delivery failed; retried later" : "webhook delivery failed; not retried",
    );
    if (paused) log.warn({ event: "webhook.paused", webhookId: d.webhookId, url: where.url }, "webhook paused");
    return false;
  }

  async function run(): Promise<number> {
    const due = await dueDeliveries(store, now(), 200);
    // One attempt at a time per webhook (a failing receiver is not hit in parallel), webhooks in parallel.
    const byHook = new Map<string, DueDelivery[]>();
    for (const d of due) byHook.set(d.webhookId, [...(byHook.get(d.webhookId) ?? []), d]);
    const queues = [...byHook.values()];
    let attempted = 0;
    const lane = async () => {
      for (let q = queues.shift(); q; q = queues.shift()) {
        for (const d of q) {
          attempted++;
          const delivered = await attempt(d).catch((error: Error) => {
            log.error({ err: error.message, webhookId: d.webhookId }, "webhook attempt not recorded");
            return false;
          });
          // A receiver that just failed gets no more attempts in this round.
          if (!delivered) break;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency, queues.length) }, lane));
    return attempted;
  }

  return {
    tick() {
      running ??= run().finally(() => (running = undefined));
      return running;
    },
    start() {
      timer ??= setInterval(() => {
        if (!running)
          void this.tick().catch((error: Error) => log.error({ err: error.message }, "webhook worker failed"));
      }, o.pollMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// Events, webhooks and their deliveries (migration 005). An event is recorded by the publisher once a
// generation carrying a bank's new or corrected Latest rates is current; the same transaction queues
// one delivery for every webhook that wants it, so a delivery is never lost between the two. Events
// are kept RETENTION_DAYS (a reconnecting SSE client replays from them), deliveries as long as their event.
import { randomBytes, randomUUID } from "node:crypto";

import type { Transaction } from "./kysely.js";

import type { RatesCorrected, RatesLate, RatesPublished } from "../types.js";
import type { Store } from "./database.js";
import type { Database } from "./schema.js";

export const EVENT_TYPE = "rates.published";
/** Events older than this are pruned (at the next event recorded). */
export const RETENTION_DAYS = 8;

// What an event says is part of the API (GET /v1/events, webhooks): declared in src/types.ts.
export type { RatesCorrected, RatesPublished };

export const CORRECTED_EVENT_TYPE = "rates.corrected";

export const LATE_EVENT_TYPE = "rates.late";

/** A bank past its time (and its usual allowance) on a publication day without the day's rates. */
export type { RatesLate };

export interface StoredEvent {
  id: number;
  type: string;
  createdAt: string;
  data: RatesPublished | RatesLate | RatesCorrected;
}

/**
 * An event's data as subscribers receive it (server-sent events and webhooks alike): its id beside the
 * publication, the Latest URLs made absolute with the service's public base URL.
 */
export function eventPayload(
  event: StoredEvent,
  publicUrl: string,
): (RatesPublished | RatesLate | RatesCorrected) & { id: number } {
  const base = publicUrl.replace(/\/+$/, "");
  if ("corrections" in event.data) return { id: event.id, ...event.data, corrections: base + event.data.corrections };
  if (!("latest" in event.data)) return { id: event.id, ...event.data };
  const { latest } = event.data;
  return {
    id: event.id,
    ...event.data,
    latest: { json: base + latest.json, xml: base + latest.xml, csv: base + latest.csv, xlsx: base + latest.xlsx },
  };
}

export interface NewEvent {
  data: RatesPublished;
  generation: string;
}

/** Records the events of one publish and queues their deliveries, in one transaction; their ids. */
export async function recordEvents(store: Store, events: NewEvent[], now: Date = new Date()): Promise<number[]> {
  if (events.length === 0) return [];
  const at = now.toISOString();
  return store.db.transaction().execute(async (tx) => {
    const hooks = await tx.selectFrom("webhooks").select(["id", "banks"]).where("paused_at", "is", null).execute();
    const ids: number[] = [];
    for (const { data, generation } of events) {
      const row = await tx
        .insertInto("events")
        .values({
          type: EVENT_TYPE,
          bank_id: data.bankId,
          effective_date: data.effectiveDate,
          published_at: data.publishedAt,
          generation,
          currencies: JSON.stringify(data.currencies),
          revision: data.revision ? 1 : 0,
          payload: JSON.stringify(data),
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
      for (const hook of hooks) {
        if (!wantsBank(hook.banks, data.bankId)) continue;
        await tx
          .insertInto("webhook_deliveries")
          .values({
            event_id: row.id,
            webhook_id: hook.id,
            attempt: 1,
            next_attempt_at: at,
            status: "pending",
            queued_at: at,
          })
          .execute();
      }
    }
    const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000).toISOString();
    const old = tx.selectFrom("events").select("id").where("created_at", "<", cutoff);
    await tx.deleteFrom("webhook_deliveries").where("event_id", "in", old).execute();
    await tx.deleteFrom("events").where("created_at", "<", cutoff).execute();
    return ids;
  });
}

/**
 * Records that a bank is late with a publication and queues its deliveries, in one transaction; once
 * per bank and expected date, however many runs and processes see it. The new event's id, or undefined.
 */
export async function recordLateEvent(
  store: Store,
  data: RatesLate,
  now: Date = new Date(),
): Promise<number | undefined> {
  const at = now.toISOString();
  // Kept once per table: a bank's two tables due the same day are two events.
  const column = data.frequency ? `${data.bankId}/${data.frequency}` : data.bankId;
  return store.db.transaction().execute(async (tx) => {
    const seen = await tx
      .selectFrom("events")
      .select("id")
      .where("type", "=", LATE_EVENT_TYPE)
      .where("bank_id", "=", column)
      .where("effective_date", "=", data.expectedDate)
      .executeTakeFirst();
    if (seen) return undefined;
    const row = await tx
      .insertInto("events")
      .values({
        type: LATE_EVENT_TYPE,
        bank_id: column,
        effective_date: data.expectedDate,
        published_at: data.dueAt,
        generation: "",
        currencies: "[]",
        revision: 0,
        payload: JSON.stringify(data),
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await queueDeliveries(tx, row.id, data.bankId, at);
    return row.id;
  });
}

/** Queues one delivery of an event for every webhook not paused that wants its bank. */
async function queueDeliveries(tx: Transaction<Database>, eventId: number, bankId: string, at: string): Promise<void> {
  const hooks = await tx.selectFrom("webhooks").select(["id", "banks"]).where("paused_at", "is", null).execute();
  for (const hook of hooks) {
    if (!wantsBank(hook.banks, bankId)) continue;
    await tx
      .insertInto("webhook_deliveries")
      .values({
        event_id: eventId,
        webhook_id: hook.id,
        attempt: 1,
        next_attempt_at: at,
        status: "pending",
        queued_at: at,
      })
      .execute();
  }
}

/**
 * Records a `rates.corrected` event (figures already stored changed, of any date) and queues its
 * deliveries, in one transaction; its id.
 */
export async function recordCorrectionEvent(
  store: Store,
  data: RatesCorrected,
  now: Date = new Date(),
): Promise<number> {
  const at = now.toISOString();
  return store.db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto("events")
      .values({
        type: CORRECTED_EVENT_TYPE,
        bank_id: data.bankId,
        effective_date: data.dates.at(-1) ?? "",
        published_at: data.correctedAt,
        generation: "",
        currencies: JSON.stringify(data.currencies),
        revision: 1,
        payload: JSON.stringify(data),
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await queueDeliveries(tx, row.id, data.bankId, at);
    return row.id;
  });
}

export function wantsBank(banks: string | null, bankId: string): boolean {
  return banks === null || banks.split(",").includes(bankId);
}

/** Events after `afterId`, oldest first. */
export async function eventsAfter(store: Store, afterId: number, limit = 1000): Promise<StoredEvent[]> {
  const rows = await store.db
    .selectFrom("events")
    .select(["id", "type", "payload", "created_at"])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

export function toEvent(row: { id: number; type: string; payload: string; created_at: string }): StoredEvent {
  return { id: row.id, type: row.type, createdAt: row.created_at, data: JSON.parse(row.payload) as RatesPublished };
}

// ---------------------------------------------------------------- webhooks

export interface Webhook {
  id: string;
  url: string;
  /** Undefined: every bank. */
  banks: string[] | undefined;
  createdAt: string;
  pausedAt: string | undefined;
  pausedReason: string | undefined;
  consecutiveFailures: number;
}

export interface WebhookSummary extends Webhook {
  lastStatus: string | undefined;
  lastResponseStatus: number | undefined;
  lastAttemptAt: string | undefined;
  lastError: string | undefined;
  delivered: number;
  failures: number;
  pending: number;
}

/** A signing secret the Standard Webhooks way: `whsec_` and base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Adds a webhook; its secret is returned this once (`webhooks list` never shows it). */
export async function addWebhook(
  store: Store,
  input: { url: string; banks?: string[] },
  now: Date = new Date(),
): Promise<Webhook & { secret: string }> {
  const id = `wh_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const secret = newSigningSecret();
  const banks = input.banks?.length ? [...new Set(input.banks.map((b) => b.toUpperCase()))].sort() : undefined;
  const createdAt = now.toISOString();
  await store.db
    .insertInto("webhooks")
    .values({ id, url: input.url, banks: banks ? banks.join(",") : null, secret, created_at: createdAt })
    .execute();
  return {
    id,
    url: input.url,
    banks,
    createdAt,
    pausedAt: undefined,
    pausedReason: undefined,
    consecutiveFailures: 0,
    secret,
  };
}

export async function removeWebhook(store: Store, id: string): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom("webhook_deliveries").where("webhook_id", "=", id).execute();
    const result = await tx.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  });
}

/** Resumes a paused webhook: its failure count restarts and its pending deliveries are due now. */
export async function resumeWebhook(store: Store, id: string, now: Date = new Date()): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable("webhooks")
      .set({ paused_at: null, paused_reason: null, consecutive_failures: 0 })
      .where("id", "=", id)
      .executeTakeFirst();
    await tx
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at: now.toISOString() })
      .where("webhook_id", "=", id)
      .where("status", "=", "pending")
      .execute();
    return result.numUpdatedRows > 0n;
  });
}

type WebhookRow = {
  id: string;
  url: string;
  banks: string | null;
  created_at: string;
  paused_at: string | null;
  paused_reason: string | null;
  consecutive_failures: number;
};

function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    banks: r.banks ? r.banks.split(",") : undefined,
    createdAt: r.created_at,
    pausedAt: r.paused_at ?? undefined,
    pausedReason: r.paused_reason ?? undefined,
    consecutiveFailures: r.consecutive_failures,
  };
}

const WEBHOOK_COLUMNS = [
  "id",
  "url",
  "banks",
  "created_at",
  "paused_at",
  "paused_reason",
  "consecutive_failures",
] as const;

export async function getWebhook(store: Store, id: string): Promise<(Webhook & { secret: string }) | undefined> {
  const row = await store.db
    .selectFrom("webhooks")
    .select([...WEBHOOK_COLUMNS, "secret"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { ...toWebhook(row), secret: row.secret };
}

/** Every webhook with its last attempt and counts of its log (never the secret). */
export async function listWebhooks(store: Store): Promise<WebhookSummary[]> {
  const hooks = await store.db.selectFrom("webhooks").select(WEBHOOK_COLUMNS).orderBy("created_at").execute();
  const out: WebhookSummary[] = [];
  for (const hook of hooks) {
    const last = await store.db
      .selectFrom("webhook_deliveries")
      .select(["status", "response_status", "attempted_at", "error"])
      .where("webhook_id", "=", hook.id)
      .where("attempted_at", "is not", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    const counts = await store.db
      .selectFrom("webhook_deliveries")
      .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
      .where("webhook_id", "=", hook.id)
      .groupBy("status")
      .execute();
    const count = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
    out.push({
      ...toWebhook(hook),
      lastStatus: last?.status,
      lastResponseStatus: last?.response_status ?? undefined,
      lastAttemptAt: last?.attempted_at ?? undefined,
      lastError: last?.error ?? undefined,
      delivered: count("delivered"),
      failures: count("failed") + count("abandoned"),
      pending: count("pending"),
    });
  }
  return out;
}

// ---------------------------------------------------------------- the delivery queue

export interface DueDelivery {
  id: number;
  eventId: number;
  webhookId: string;
  attempt: number;
  queuedAt: string;
  url: string;
  secret: string;
  event: StoredEvent;
}

/** Pending deliveries due at `now` to webhooks not paused, oldest first. */
export async function dueDeliveries(store: Store, now: Date, limit = 50): Promise<DueDelivery[]> {
  const rows = await store.db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhook_id")
    .innerJoin("events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.event_id",
      "d.webhook_id",
      "d.attempt",
      "d.queued_at",
      "w.url",
      "w.secret",
      "e.type",
      "e.payload",
      "e.created_at",
    ])
    .where("d.status", "=", "pending")
    .where("d.next_attempt_at", "<=", now.toISOString())
    .where("w.paused_at", "is", null)
    .orderBy("d.next_attempt_at")
    .orderBy("d.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    webhookId: r.webhook_id,
    attempt: r.attempt,
    queuedAt: r.queued_at,
    url: r.url,
    secret: r.secret,
    event: toEvent({ id: r.event_id, type: r.type, payload: r.payload, created_at: r.created_at }),
  }));
}

export type AttemptOutcome =
  | { kind: "delivered"; responseStatus: number }
  /** `retryAt` undefined: no retry (abandoned). */
  | {
      kind: "failed";
      responseStatus: number | undefined;
      error: string;
      retryAt: Date | undefined;
      /** Pause the webhook now (its retries ran out). */
      pause: boolean;
    };

/**
 * Records an attempt's outcome; a failure with a retry queues the next attempt. A webhook whose
 * failures reach `pauseAfter` in a row (or whose retries ran out) is paused.
 */
export async function recordAttempt(
  store: Store,
  delivery: DueDelivery,
  outcome: AttemptOutcome,
  now: Date,
  pauseAfter: number,
): Promise<{ paused: boolean }> {
  const at = now.toISOString();
  return store.db.transaction().execute(async (tx) => {
    if (outcome.kind === "delivered") {
      await tx
        .updateTable("webhook_deliveries")
        .set({ status: "delivered", response_status: outcome.responseStatus, error: null, attempted_at: at })
        .where("id", "=", delivery.id)
        .execute();
      await tx.updateTable("webhooks").set({ consecutive_failures: 0 }).where("id", "=", delivery.webhookId).execute();
      return { paused: false };
    }
    const retry = outcome.retryAt;
    await tx
      .updateTable("webhook_deliveries")
      .set({
        status: retry ? "failed" : "abandoned",
        response_status: outcome.responseStatus ?? null,
        error: outcome.error.slice(0, 500),
        attempted_at: at,
      })
      .where("id", "=", delivery.id)
      .execute();
    if (retry) {
      await tx
        .insertInto("webhook_deliveries")
        .values({
          event_id: delivery.eventId,
          webhook_id: delivery.webhookId,
          attempt: delivery.attempt + 1,
          next_attempt_at: retry.toISOString(),
          status: "pending",
          queued_at: delivery.queuedAt,
        })
        .execute();
    }
    const hook = await tx
      .updateTable("webhooks")
      .set((eb) => ({ consecutive_failures: eb("consecutive_failures", "+", 1) }))
      .where("id", "=", delivery.webhookId)
      .returning(["consecutive_failures", "paused_at"])
      .executeTakeFirst();
    if (!hook || hook.paused_at) return { paused: false };
    if (hook.consecutive_failures >= pauseAfter || outcome.pause) {
      const reason = outcome.pause
        ? `retries of a delivery ran out (${outcome.error.slice(0, 200)})`
        : `${hook.consecutive_failures} failed attempts in a row`;
      await tx
        .updateTable("webhooks")
        .set({ paused_at: at, paused_reason: reason })
        .where("id", "=", delivery.webhookId)
        .execute();
      return { paused: true };
    }
    return { paused: false };
  });
}

import { sql, type Kysely, type Migration } from "../kysely.js";

// Events (one row per publication of a bank's new or corrected Latest rates, kept at least 7 days so a
// reconnecting client can replay what it missed), the webhooks subscribed to them, and their
// deliveries: one row per attempt, so the table is both the queue (`pending` rows) and the log.
export const migration005Events: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("events")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("bank_id", "text", (c) => c.notNull())
      .addColumn("effective_date", "text", (c) => c.notNull())
      /** When the newest of the published rates was stored (the Latest document's publishedAt). */
      .addColumn("published_at", "text", (c) => c.notNull())
      /** The generation whose switch published it. */
      .addColumn("generation", "text", (c) => c.notNull())
      /** JSON array of the currencies whose figure changed. */
      .addColumn("currencies", "text", (c) => c.notNull())
      /** 1: a correction of a date already published. */
      .addColumn("revision", "integer", (c) => c.notNull())
      /** The event's data as sent (URLs as paths under the API's base URL). */
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("events_created").on("events").column("created_at").execute();
    await db.schema
      .createTable("webhooks")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("url", "text", (c) => c.notNull())
      /** Comma-separated bank ids; null: every bank. */
      .addColumn("banks", "text")
      /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). Never logged. */
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("paused_at", "text")
      .addColumn("paused_reason", "text")
      .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("event_id", "integer", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      /** pending | delivered | failed (this attempt; a retry follows) | abandoned (no retry) */
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("response_status", "integer")
      .addColumn("error", "text")
      /** When the first attempt was queued: retries stop a day after it. */
      .addColumn("queued_at", "text", (c) => c.notNull())
      .addColumn("attempted_at", "text")
      .addUniqueConstraint("webhook_deliveries_attempt", ["event_id", "webhook_id", "attempt"])
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_due")
      .on("webhook_deliveries")
      .columns(["status", "next_attempt_at"])
      .where(sql.ref("status"), "=", "pending")
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_webhook")
      .on("webhook_deliveries")
      .columns(["webhook_id", "id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("webhook_deliveries").execute();
    await db.schema.dropTable("webhooks").execute();
    await db.schema.dropTable("events").execute();
  },
};

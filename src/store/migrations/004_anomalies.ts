import { type Kysely, type Migration } from "../kysely.js";

// Rows held at ingest (a bad row of an answer, or a figure the cross-bank check doubts) and figures
// published with a warning: one row per distinct figure and reason, so that an answer re-sent every
// day adds nothing new. `fingerprint` is that identity (see src/store/anomalies.ts).
export const migration004Anomalies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("anomalies")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("bank_id", "text", (c) => c.notNull())
      /** As the answer gave them (may be no date, no code, no number at all). */
      .addColumn("effective_date", "text")
      .addColumn("currency", "text")
      .addColumn("rate", "text")
      .addColumn("unit_multiplier", "integer")
      .addColumn("derivation", "text")
      /** bad-rate | bad-date | unknown-currency | unknown-unit | conflict | bad-row | unit-slip | direction-slip | off-consensus | jump */
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      /** Where in the answer: `row 12`, `line 40`. */
      .addColumn("source", "text")
      /** held | released | warned */
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("fingerprint", "text", (c) => c.notNull().unique())
      .addColumn("first_seen_at", "text", (c) => c.notNull())
      .addColumn("last_seen_at", "text", (c) => c.notNull())
      .addColumn("times_seen", "integer", (c) => c.notNull().defaultTo(1))
      /** The answer it was first seen in. */
      .addColumn("fetch_id", "integer", (c) => c.notNull().references("fetches.id"))
      .addColumn("released_at", "text")
      .addColumn("released_by", "text")
      .execute();
    await db.schema.createIndex("anomalies_bank").on("anomalies").columns(["bank_id", "effective_date"]).execute();
    // How each bank that has stored rates quotes them, so the cross-bank check can read any bank's
    // figures as prices without loading its adapter. Written by every ingest.
    await db.schema
      .createTable("bank_quoting")
      .addColumn("bank_id", "text", (c) => c.primaryKey())
      .addColumn("base_currency", "text", (c) => c.notNull())
      .addColumn("quote_type", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("bank_quoting").execute();
    await db.schema.dropTable("anomalies").execute();
  },
};

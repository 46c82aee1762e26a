import type { Kysely, Migration } from "../kysely.js";

// The daemon's and backfill's own state. `bank_runs`: one row per bank, the outcome of its latest
// scheduled (or catch-up, or manual) run, so that status survives restarts and is visible to other
// processes (`exrates banks` while the daemon runs). `backfill_chunks`: the date ranges a backfill
// has completed, so a killed or interrupted backfill resumes where it stopped.
export const migration003Runs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("bank_runs")
      .addColumn("bank_id", "text", (c) => c.primaryKey())
      /** running | ok | waiting | gave-up | failed | stopped */
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .addColumn("expected_date", "text")
      .addColumn("message", "text")
      .addColumn("last_error", "text")
      .addColumn("last_error_at", "text")
      .addColumn("pid", "integer")
      .execute();

    await db.schema
      .createTable("backfill_chunks")
      .addColumn("bank_id", "text", (c) => c.notNull())
      .addColumn("from_date", "text", (c) => c.notNull())
      .addColumn("to_date", "text", (c) => c.notNull())
      .addColumn("completed_at", "text", (c) => c.notNull())
      .addColumn("inserted", "integer", (c) => c.notNull())
      .addColumn("revised", "integer", (c) => c.notNull())
      .addColumn("unchanged", "integer", (c) => c.notNull())
      .addColumn("days_without", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("backfill_chunks_pk", ["bank_id", "from_date", "to_date"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("backfill_chunks").execute();
    await db.schema.dropTable("bank_runs").execute();
  },
};

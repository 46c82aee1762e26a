import { sql, type Kysely, type Migration } from "../kysely.js";

import { dialectOf } from "../dialect.js";

// What was known at an instant: each revision keeps when its old figure was stored (`old_stored_at`),
// so a revision is the interval [old_stored_at, revised_at) in which its old figure was in force, and
// the figure of `rates` is in force from its `stored_at`. Revisions made before this migration get
// the time of the revision before them, else the time the old figure's answer was fetched. An index
// by bank and time serves the corrections list.
export const migration007AsOf: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === "postgres";
    await db.schema.alterTable("rate_revisions").addColumn("old_stored_at", "text").execute();
    await sql`
      update rate_revisions set old_stored_at = coalesce(
        (select max(p.revised_at) from rate_revisions p
          where p.bank_id = rate_revisions.bank_id and p.effective_date = rate_revisions.effective_date
            and p.currency = rate_revisions.currency and p.id < rate_revisions.id),
        (select coalesce(f.finished_at, f.started_at) from fetches f where f.id = rate_revisions.old_fetch_id),
        rate_revisions.revised_at)`.execute(db);
    await db.schema
      .createIndex("rate_revisions_bank_revised")
      .on("rate_revisions")
      .columns(["bank_id", "revised_at"])
      .execute();
    if (postgres) {
      await sql`
        create or replace function rates_keep_revision() returns trigger language plpgsql as $$
        begin
          insert into rate_revisions (bank_id, effective_date, currency, old_rate, old_unit_multiplier, old_derivation,
            old_fetch_id, old_stored_at, new_rate, new_unit_multiplier, new_derivation, new_fetch_id, revised_at)
          values (old.bank_id, old.effective_date, old.currency, old.rate, old.unit_multiplier, old.derivation,
            old.fetch_id, old.stored_at, new.rate, new.unit_multiplier, new.derivation, new.fetch_id, new.stored_at);
          return null;
        end $$`.execute(db);
      return;
    }
    await sql`drop trigger rates_keep_revision`.execute(db);
    await sql`
      create trigger rates_keep_revision after update on rates
      when old.rate is not new.rate or old.unit_multiplier is not new.unit_multiplier or old.derivation is not new.derivation
      begin
        insert into rate_revisions (bank_id, effective_date, currency, old_rate, old_unit_multiplier, old_derivation,
          old_fetch_id, old_stored_at, new_rate, new_unit_multiplier, new_derivation, new_fetch_id, revised_at)
        values (old.bank_id, old.effective_date, old.currency, old.rate, old.unit_multiplier, old.derivation,
          old.fetch_id, old.stored_at, new.rate, new.unit_multiplier, new.derivation, new.fetch_id, new.stored_at);
      end`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("rate_revisions_bank_revised").execute();
    await db.schema.alterTable("rate_revisions").dropColumn("old_stored_at").execute();
  },
};

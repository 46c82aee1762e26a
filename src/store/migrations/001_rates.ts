import { sql, type Kysely, type Migration } from "../kysely.js";

import { dialectOf } from "../dialect.js";

export const migration001Rates: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = dialectOf(db) === "postgres";
    await db.schema
      .createTable("fetches")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("bank_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("method", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .addColumn("http_status", "integer")
      .addColumn("bytes", "integer")
      .addColumn("sha256", "text")
      .addColumn("error", "text")
      .execute();
    await db.schema.createIndex("fetches_bank_started").on("fetches").columns(["bank_id", "started_at"]).execute();

    await db.schema
      .createTable("rates")
      .addColumn("bank_id", "text", (c) => c.notNull())
      .addColumn("effective_date", "text", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("rate", "text", (c) => c.notNull())
      .addColumn("unit_multiplier", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("derivation", "text")
      .addColumn("fetch_id", "integer", (c) => c.notNull().references("fetches.id"))
      .addColumn("stored_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("rates_pk", ["bank_id", "effective_date", "currency"])
      // SQLite: the key is the table (no rowid b-tree beside it). PostgreSQL has no such option.
      .$call((t) => (postgres ? t : t.modifyEnd(sql`without rowid`)))
      .execute();

    await db.schema
      .createTable("rate_revisions")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("bank_id", "text", (c) => c.notNull())
      .addColumn("effective_date", "text", (c) => c.notNull())
      .addColumn("currency", "text", (c) => c.notNull())
      .addColumn("old_rate", "text", (c) => c.notNull())
      .addColumn("old_unit_multiplier", "integer", (c) => c.notNull())
      .addColumn("old_derivation", "text")
      .addColumn("old_fetch_id", "integer", (c) => c.notNull())
      .addColumn("new_rate", "text", (c) => c.notNull())
      .addColumn("new_unit_multiplier", "integer", (c) => c.notNull())
      .addColumn("new_derivation", "text")
      .addColumn("new_fetch_id", "integer", (c) => c.notNull())
      .addColumn("revised_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("rate_revisions_key")
      .on("rate_revisions")
      .columns(["bank_id", "effective_date", "currency"])
      .execute();

    // A correction is never lost: whenever a stored figure changes, the old one is kept here.
    if (postgres) {
      await sql`
        create function rates_keep_revision() returns trigger language plpgsql as $$
        begin
          insert into rate_revisions (bank_id, effective_date, currency, old_rate, old_unit_multiplier, old_derivation,
            old_fetch_id, new_rate, new_unit_multiplier, new_derivation, new_fetch_id, revised_at)
          values (old.bank_id, old.effective_date, old.currency, old.rate, old.unit_multiplier, old.derivation,
            old.fetch_id, new.rate, new.unit_multiplier, new.derivation, new.fetch_id, new.stored_at);
          return null;
        end $$`.execute(db);
      await sql`
        create trigger rates_keep_revision after update on rates for each row
        when (old.rate is distinct from new.rate or old.unit_multiplier is distinct from new.unit_multiplier
          or old.derivation is distinct from new.derivation)
        execute function rates_keep_revision()`.execute(db);
      return;
    }
    await sql`
      create trigger rates_keep_revision after update on rates
      when old.rate is not new.rate or old.unit_multiplier is not new.unit_multiplier or old.derivation is not new.derivation
      begin
        insert into rate_revisions (bank_id, effective_date, currency, old_rate, old_unit_multiplier, old_derivation,
          old_fetch_id, new_rate, new_unit_multiplier, new_derivation, new_fetch_id, revised_at)
        values (old.bank_id, old.effective_date, old.currency, old.rate, old.unit_multiplier, old.derivation,
          old.fetch_id, new.rate, new.unit_multiplier, new.derivation, new.fetch_id, new.stored_at);
      end`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialectOf(db) === "postgres") await sql`drop function if exists rates_keep_revision() cascade`.execute(db);
    await db.schema.dropTable("rate_revisions").execute();
    await db.schema.dropTable("rates").execute();
    await db.schema.dropTable("fetches").execute();
  },
};

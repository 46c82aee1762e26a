import { sql, type Kysely, type Migration } from "../kysely.js";

import { dialectOf } from "../dialect.js";

// PostgreSQL checks a foreign key row by row: every inserted rate ran its own `select ... for key share`
// on `fetches`, half of a history import's time (203,490 rows: 1,250-1,380 ms with the key, 624-632 ms
// without). An ingest writes one fetch and thousands of rates that name it, so the same guarantee is kept
// here once per statement: the rows a statement inserted or updated (its transition table) must name
// recorded fetches, whose rows are locked `for key share` as the key locked them (a concurrent delete of
// such a fetch waits, then fails below), and a fetch that rates name is never deleted nor renumbered
// (after the statement, a fetch id it removed must not be named).
// SQLite keeps its key: there the check is one index probe in the same process.
const CONSTRAINT = "rates_fetch_id_fkey";

export const migration010RatesFetchCheck: Migration = {
  async up(db: Kysely<unknown>) {
    if (dialectOf(db) !== "postgres") return;
    await sql`
      create function rates_name_recorded_fetches() returns trigger language plpgsql as $$
      declare
        missing integer;
      begin
        perform 1 from fetches where id in (select distinct fetch_id from changed) for key share;
        select n.fetch_id into missing from (select distinct fetch_id from changed) n
          where not exists (select 1 from fetches f where f.id = n.fetch_id) limit 1;
        if found then
          raise foreign_key_violation using
            message = format('rates name fetch %s, which is not recorded', missing),
            constraint = '${sql.raw(CONSTRAINT)}';
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function fetches_keep_named() returns trigger language plpgsql as $$
      declare
        named integer;
      begin
        select o.id into named from gone o
          where not exists (select 1 from fetches f where f.id = o.id)
            and exists (select 1 from rates r where r.fetch_id = o.id) limit 1;
        if found then
          raise foreign_key_violation using
            message = format('fetch %s is named by stored rates', named),
            constraint = '${sql.raw(CONSTRAINT)}';
        end if;
        return null;
      end $$`.execute(db);
    // A trigger with a transition table takes one event, so inserts and updates have one each.
    await sql`create trigger rates_insert_names_fetches after insert on rates referencing new table as changed
      for each statement execute function rates_name_recorded_fetches()`.execute(db);
    await sql`create trigger rates_update_names_fetches after update on rates referencing new table as changed
      for each statement execute function rates_name_recorded_fetches()`.execute(db);
    await sql`create trigger fetches_delete_keeps_named after delete on fetches referencing old table as gone
      for each statement execute function fetches_keep_named()`.execute(db);
    await sql`create trigger fetches_update_keeps_named after update on fetches referencing old table as gone
      for each statement execute function fetches_keep_named()`.execute(db);
    await sql`alter table rates drop constraint ${sql.raw(CONSTRAINT)}`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialectOf(db) !== "postgres") return;
    await sql`alter table rates add constraint ${sql.raw(CONSTRAINT)} foreign key (fetch_id) references fetches (id)`.execute(
      db,
    );
    for (const [trigger, table] of [
      ["rates_insert_names_fetches", "rates"],
      ["rates_update_names_fetches", "rates"],
      ["fetches_delete_keeps_named", "fetches"],
      ["fetches_update_keeps_named", "fetches"],
    ] as const) {
      await sql`drop trigger ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db);
    }
    await sql`drop function fetches_keep_named()`.execute(db);
    await sql`drop function rates_name_recorded_fetches()`.execute(db);
  },
};

import type { Kysely, Migration } from "kysely";

// A period source's figures (a month's, a quarter's) carry the last day they are valid for; they are
// valid from their effective date. Null for a daily source's figures. An added nullable column: no
// rewrite of the table on either engine.
export const migration008Periods: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("rates").addColumn("valid_to", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("rates").dropColumn("valid_to").execute();
  },
};

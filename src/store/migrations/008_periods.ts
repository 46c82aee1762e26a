import type { Kysely, Migration } from "../kysely.js";

// A period source's figures (a month's, a quarter's) carry the last day they are valid for; they are
// valid from their effective date. Null for a daily source's figures. An added nullable column: no
// rewrite of the table on either engine. A held figure keeps its validity too (`anomalies.valid_to`), so
// that a person's release stores it in force over its period.
export const migration008Periods: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("rates").addColumn("valid_to", "text").execute();
    await db.schema.alterTable("anomalies").addColumn("valid_to", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("anomalies").dropColumn("valid_to").execute();
    await db.schema.alterTable("rates").dropColumn("valid_to").execute();
  },
};

import type { Kysely, Migration } from "../kysely.js";

// An imported file is recorded as an import, not as an answer of the bank: its base name (`file_name`)
// and who imported it (`imported_by`), beside the sha256 and the time already kept. For an import the
// `url` column holds the URL the importer declared (`--url`), or "" when none was declared. Imports
// stored before this migration keep null file and importer, and the URL they were recorded under.
// Added nullable columns: no rewrite of the table on either engine.
export const migration009ImportProvenance: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("fetches").addColumn("file_name", "text").execute();
    await db.schema.alterTable("fetches").addColumn("imported_by", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("fetches").dropColumn("imported_by").execute();
    await db.schema.alterTable("fetches").dropColumn("file_name").execute();
  },
};

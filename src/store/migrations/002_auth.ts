import type { Kysely, Migration } from "../kysely.js";

import { dialectOf } from "../dialect.js";

// Clients of the embedded single sign-on. Secrets are 256-bit random values, so a salted SHA-256 is
// the right hash (a slow password KDF would only cap the token endpoint). `not_before` (epoch
// seconds) is raised by a secret reset or a disable: tokens issued before it stop working at once.
export const migration002Auth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("clients")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("client_id", "text", (c) => c.notNull().unique())
      .addColumn("secret_salt", "text", (c) => c.notNull())
      .addColumn("secret_hash", "text", (c) => c.notNull())
      .addColumn("scope", "text", (c) => c.notNull())
      .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
      // PostgreSQL's integer is 32 bits: epoch seconds past 2038 need bigint (read back as a number).
      .addColumn("not_before", dialectOf(db) === "postgres" ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("clients").execute();
  },
};

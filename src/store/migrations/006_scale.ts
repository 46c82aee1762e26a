import type { Kysely, Migration } from "../kysely.js";

// What several instances on one PostgreSQL database share beyond rates and clients: the embedded
// SSO's signing keys (one row holding the same JSON document SQLite installations keep in
// `<dataDir>/keys/signing-keys.json`, so a rotation is one atomic update that every replica sees),
// and which instance leads the scheduler (written by the leader when it takes the advisory lock).
// The portable schema builder only: the migration runs on SQLite too, where both tables stay unused
// (keys stay in their file; the daemon lock file says who runs the scheduler).
export const migration006Scale: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("signing_keys")
      /** Always 1: one document per database. */
      .addColumn("id", "integer", (c) => c.primaryKey())
      /** Raised by every write: replicas re-read the document when it moves. */
      .addColumn("revision", "integer", (c) => c.notNull())
      /** JSON `{ keys: StoredKey[] }` with the private JWKs (src/auth/keys.ts). Never logged. */
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("scheduler_leader")
      /** Always 1: one leader per database. */
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("instance", "text", (c) => c.notNull())
      .addColumn("since", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("scheduler_leader").execute();
    await db.schema.dropTable("signing_keys").execute();
  },
};

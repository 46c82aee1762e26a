// Opening the database: SQLite in WAL mode through kysely on better-sqlite3, migrated on open.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from "kysely";

import { migrations } from "./migrations/index.js";
import type { Database } from "./schema.js";

export interface Store {
  db: Kysely<Database>;
  /** The raw connection, for the few hot statements prepared once (see rates.ts). */
  sqlite: BetterSqlite3.Database;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function openStore(path: string): Promise<Store> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a committed ingest survives a power cut; ingest is small, so the fsync costs little.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(
      `database migration ${failed?.migrationName ?? ""} failed: ${(error as Error)?.message ?? "unknown"}`,
    );
  }
  let closed = false;
  return {
    db,
    sqlite,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

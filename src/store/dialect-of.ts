// Which engine a store runs on, for the few modules that keep a faster path on SQLite (prepared
// better-sqlite3 statements, data_version) and a portable kysely path for PostgreSQL.
import type BetterSqlite3 from "better-sqlite3";
import type { Pool } from "pg";

import type { Store } from "./database.js";

/** The raw SQLite connection of a SQLite store; undefined on PostgreSQL. */
export function sqliteOf(store: Store): BetterSqlite3.Database | undefined {
  return (store as { sqlite?: BetterSqlite3.Database }).sqlite;
}

/** True when the store is a shared PostgreSQL database. */
export function isShared(store: Store): boolean {
  return sqliteOf(store) === undefined;
}

/** The connection pool of a shared PostgreSQL store; undefined on SQLite. */
export function poolOf(store: Store): Pool | undefined {
  return (store as { pool?: Pool }).pool;
}

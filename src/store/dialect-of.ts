// For the few modules that keep a faster path on SQLite (prepared better-sqlite3 statements,
// data_version) and take a portable kysely path on a shared PostgreSQL database: the raw handle of
// each, or undefined on the other engine (database.ts's sqliteOf throws instead, for code with no
// PostgreSQL path).
import type BetterSqlite3 from "better-sqlite3";
import type { Pool } from "pg";

import type { Store } from "./database.js";

/** The raw SQLite connection of a SQLite store; undefined on PostgreSQL. */
export function rawSqlite(store: Store): BetterSqlite3.Database | undefined {
  return store.dialect === "sqlite" ? store.sqlite : undefined;
}

/** The connection pool of a shared PostgreSQL store; undefined on SQLite. */
export function poolOf(store: Store): Pool | undefined {
  return store.dialect === "postgres" ? store.pool : undefined;
}

/** True when the store is a shared PostgreSQL database. */
export function isShared(store: Store): boolean {
  return store.dialect === "postgres";
}

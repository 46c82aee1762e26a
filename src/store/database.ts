// Opening the database: SQLite in WAL mode through kysely on better-sqlite3, migrated on open.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from "kysely";

import { installSecretRedaction } from "../secrets.js";
import { migrations } from "./migrations/index.js";
import type { Database } from "./schema.js";

export interface Store {
  db: Kysely<Database>;
  /** The raw connection, for the few hot statements prepared once (see rates.ts). */
  sqlite: BetterSqlite3.Database;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/**
 * The database holds the clients' secret hashes: its directory is created 0700, the file 0600 before
 * SQLite opens it (SQLite gives its -wal and -shm files the database file's mode), and files an
 * earlier version left readable by others are narrowed to 0600.
 */
function ownerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Created here only when absent: closing a descriptor of a database this process has open would
  // drop that connection's locks (POSIX advisory locks are per process).
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, "wx", 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

export interface OpenOptions {
  /** An existing database, for reading only: nothing is created, written or migrated. */
  readonly?: boolean;
}

export async function openStore(path: string, options: OpenOptions = {}): Promise<Store> {
  if (options.readonly) return openReadOnly(path);
  if (path !== ":memory:") ownerOnly(path);
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
  installSecretRedaction(sqlite);
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

/**
 * Opens an existing database read-only (`exrates banks`, `clients list`...): it must exist and carry
 * every migration of this version, since a reader cannot apply them.
 */
async function openReadOnly(path: string): Promise<Store> {
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    sqlite.pragma("busy_timeout = 10000");
    const applied = new Set(
      (await new Migrator({ db, provider }).getMigrations()).filter((m) => m.executedAt).map((m) => m.name),
    );
    const missing = Object.keys(migrations).filter((name) => !applied.has(name));
    if (missing.length)
      throw new Error(
        `the database ${path} predates this version (without ${missing.join(", ")}); a command that writes (exrates start) upgrades it`,
      );
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, sqlite, close: () => db.destroy() };
}

// Opening the database: SQLite in WAL mode through kysely on better-sqlite3 (a file path, the
// default), or PostgreSQL through kysely on pg (a postgres:// URL); migrated on open.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from "./kysely.js";
import type pg from "pg";

import { installSecretRedaction } from "../secrets.js";
import { isDatabaseUrl, maskDatabaseUrl, type Dialect } from "./dialect.js";
import { migrations } from "./migrations/index.js";
import type { Database } from "./schema.js";

export { isDatabaseUrl, maskDatabaseUrl } from "./dialect.js";

interface StoreBase {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface SqliteStore extends StoreBase {
  dialect: "sqlite";
  /** The raw connection, for the few hot statements prepared once (see rates.ts). */
  sqlite: BetterSqlite3.Database;
}

export interface PostgresStore extends StoreBase {
  dialect: "postgres";
  pool: pg.Pool;
}

export type Store = SqliteStore | PostgresStore;

export function isPostgres(store: Store): store is PostgresStore {
  return store.dialect === "postgres";
}

// For the few modules that keep a faster path on SQLite (prepared better-sqlite3 statements,
// data_version) and take a portable kysely path on a shared PostgreSQL database.

/** The raw SQLite connection of a SQLite store; undefined on PostgreSQL. */
export function rawSqlite(store: Store): BetterSqlite3.Database | undefined {
  return store.dialect === "sqlite" ? store.sqlite : undefined;
}

/** The connection pool of a shared PostgreSQL store; undefined on SQLite. */
export function poolOf(store: Store): pg.Pool | undefined {
  return store.dialect === "postgres" ? store.pool : undefined;
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

/** A SQLite file path (or `:memory:`), or a `postgres://` / `postgresql://` URL. */
export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  return isDatabaseUrl(location) ? openPostgresStore(location, options) : openSqliteStore(location, options);
}

/**
 * The migrations in their names' order by code point ("001_rates" < "002_auth"), the order kysely's default
 * (localeCompare) gives such names, without loading ICU's collation data (about 2 MiB resident in every
 * process that opens the store).
 */
const nameComparator = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Brings the schema to this version; a failure names the migration. */
async function migrate(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, nameComparator }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    await db.destroy();
    throw new Error(
      `database migration ${failed?.migrationName ?? ""} failed: ${(error as Error)?.message ?? "unknown"}`,
    );
  }
}

/** A reader cannot migrate: the database must carry every migration of this version. */
async function requireMigrated(db: Kysely<Database>, where: string): Promise<void> {
  const applied = new Set(
    (await new Migrator({ db, provider, nameComparator }).getMigrations())
      .filter((m) => m.executedAt)
      .map((m) => m.name),
  );
  const missing = Object.keys(migrations).filter((name) => !applied.has(name));
  if (missing.length)
    throw new Error(
      `the database ${where} predates this version (without ${missing.join(", ")}); a command that writes (exrates start) upgrades it`,
    );
}

/** Whether this version has migrations the database does not carry (an estimate: migrate decides). */
function migrationsPending(sqlite: BetterSqlite3.Database): boolean {
  const tracked = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'");
  if (tracked.get() === undefined) return true;
  const applied = sqlite.prepare("select count(*) from kysely_migration").pluck().get() as number;
  return applied < Object.keys(migrations).length;
}

export async function openSqliteStore(path: string, options: OpenOptions = {}): Promise<SqliteStore> {
  if (options.readonly) return openSqliteReadOnly(path);
  if (path !== ":memory:") ownerOnly(path);
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma("journal_mode = WAL");
  // FULL: a committed ingest survives a power cut; ingest is small, so the fsync costs little.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  // Deleted rows are overwritten with zeros, not left in free pages: a removed webhook's secret, a
  // deleted client's hash, are not in the file's bytes any more.
  sqlite.pragma("secure_delete = ON");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Every pending migration in one transaction: kysely runs SQLite's DDL outside one, so a new database
  // was one commit per statement, each waiting for its fsync (about 120 ms of a first import), and a
  // migration that failed half way left the ones before it applied. A failure closes the connection
  // (migrate), which rolls back all of it. Taken only when some migration is pending: opening a current
  // database takes no write lock.
  const pending = migrationsPending(sqlite);
  if (pending) sqlite.exec("begin immediate");
  await migrate(db);
  if (pending) sqlite.exec("commit");
  installSecretRedaction(sqlite);
  let closed = false;
  return {
    db,
    dialect: "sqlite",
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
async function openSqliteReadOnly(path: string): Promise<SqliteStore> {
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    sqlite.pragma("busy_timeout = 10000");
    await requireMigrated(db, path);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect: "sqlite", sqlite, close: () => db.destroy() };
}

/**
 * PostgreSQL: migrated on open (kysely's migrator takes an advisory lock, so instances starting
 * together migrate once); read-only sessions only check that the schema is current.
 */
export async function openPostgresStore(url: string, options: OpenOptions = {}): Promise<PostgresStore> {
  // Loaded only here: a store on SQLite never loads pg.
  const { connectPostgres } = await import("./postgres.js");
  const { db, pool } = await connectPostgres(url, options);
  const where = maskDatabaseUrl(url);
  if (options.readonly) {
    try {
      await requireMigrated(db, where);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  } else {
    await migrate(db);
  }
  let closed = false;
  return {
    db,
    dialect: "postgres",
    pool,
    async close() {
      if (closed) return;
      closed = true;
      // kysely's destroy ends the pool.
      await db.destroy();
    },
  };
}

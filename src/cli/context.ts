// What every command gets: configuration, a logger, the store, and a uniform way to fail.
import { statSync } from "node:fs";

import { loadConfig, storeLocation, type Config } from "../config.js";
import { FeedError, HttpError, UserError, describeError } from "../errors.js";
import { logger, type Logger } from "../log.js";
import { openStore, type Store } from "../store/database.js";

export interface CliContext {
  config(): Config;
  log(): Logger;
  /**
   * Opens the database once; closed by the runner after the command. By default it is created and
   * migrated as needed; `readonly` (commands that only read) opens an existing one and writes nothing.
   */
  store(options?: { readonly?: boolean }): Promise<Store>;
  /** Command output (stdout). */
  print(text: string): void;
}

export function createCliContext(): CliContext & { close(): Promise<void> } {
  let config: Config | undefined;
  let store: Promise<Store> | undefined;
  return {
    config: () => (config ??= loadConfig()),
    log: () => logger(),
    store: (options = {}) => (store ??= openFor((config ??= loadConfig()), options.readonly === true)),
    print: (text) => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    async close() {
      if (store) await (await store.catch(() => undefined))?.close();
    },
  };
}

/** The one way every command opens the configured store (SQLite file or EXRATES_DATABASE_URL). */
export async function openFor(config: Config, readonly: boolean): Promise<Store> {
  if (readonly && !config.databaseUrl) requireDatabase(config);
  try {
    return await openStore(storeLocation(config), { readonly });
  } catch (error) {
    throw new UserError(knownError(error, config) ?? describeError(error), { cause: error });
  }
}

/** A command that only reads never creates a database: a mistyped EXRATES_DATA_DIR says so. */
function requireDatabase(config: Config): void {
  for (const [path, what] of [
    [config.dataDir, "data directory"],
    [config.databasePath, "database"],
  ] as const) {
    try {
      statSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT")
        throw new UserError(
          `no ${what} at ${path}: set EXRATES_DATA_DIR to the directory \`exrates start\` stores into (this command only reads; it creates nothing)`,
        );
      if (code === "EACCES")
        throw new UserError(
          `cannot read the ${what} ${path}: permission denied (run as the user that owns EXRATES_DATA_DIR, e.g. sudo -u exrates)`,
        );
      throw error;
    }
  }
}

const ERRNO_REASON: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exceeded",
};

const READING = new Set(["scandir", "stat", "lstat", "access", "read", "readlink"]);

/**
 * The one line for an error an operator can fix (a busy port, a directory they cannot write, a
 * database they cannot read, a host that does not resolve), naming what to fix; undefined for others.
 */
export function knownError(error: unknown, config: Config | undefined): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof UserError || error instanceof FeedError || error instanceof HttpError) return undefined;
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };
  if (typeof e.code !== "string") return undefined;
  if (e.syscall === "listen" || e.syscall === "bind") {
    const where = `${e.address ?? config?.host}:${e.port ?? config?.port}`;
    if (e.code === "EADDRINUSE")
      return `cannot listen on ${where}: the port is in use (another exrates, or another server); stop it or set EXRATES_PORT`;
    if (e.code === "EACCES")
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); set EXRATES_PORT to 1024 or above`;
    if (e.code === "EADDRNOTAVAIL")
      return `cannot listen on ${where}: not an address of this machine; set EXRATES_HOST to one (127.0.0.1, 0.0.0.0, ::)`;
  }
  if (e.syscall === "getaddrinfo" && (!config || e.hostname === config.host))
    return `EXRATES_HOST "${e.hostname ?? config?.host}" does not resolve (${e.code}); set it to an address or a name of this machine`;
  const reason = ERRNO_REASON[e.code];
  // A write on a full disk that does not say where (writeSync names no file): the directories it may be.
  if ((e.code === "ENOSPC" || e.code === "EDQUOT") && !e.path)
    return `no space left on the device${config ? ` (EXRATES_DATA_DIR is ${config.dataDir}, EXRATES_OUT_DIR is ${config.outDir})` : ""}: free some space and run it again`;
  if (reason && e.path) {
    const verb = READING.has(e.syscall ?? "") ? "read" : e.syscall === "open" ? "open" : "write";
    return `cannot ${verb} ${e.path}: ${reason}${settingFor(e.path, config)}`;
  }
  if (e.code.startsWith("SQLITE_") && config) {
    const db = config.databasePath;
    const fix = "run as the user that owns EXRATES_DATA_DIR, or fix its permissions";
    if (e.code === "SQLITE_READONLY_DIRECTORY" || e.code === "SQLITE_READONLY_CANTINIT")
      return `cannot open the database ${db}: this user cannot write its directory ${config.dataDir}, where SQLite keeps ${db}-shm while it is open; ${fix}`;
    if (e.code.startsWith("SQLITE_READONLY"))
      return `cannot write the database ${db}: it is read-only for this user; ${fix}`;
    if (e.code === "SQLITE_CANTOPEN" || e.code === "SQLITE_PERM" || e.code === "SQLITE_AUTH")
      return `cannot open the database ${db}: permission denied or missing; ${fix}`;
    if (e.code === "SQLITE_FULL") return `cannot write the database ${db}: the disk is full`;
  }
  return undefined;
}

/** Which setting names a path, for the message. */
function settingFor(path: string, config: Config | undefined): string {
  if (!config) return "";
  if (path.startsWith(config.dataDir)) return ` (EXRATES_DATA_DIR is ${config.dataDir})`;
  if (path.startsWith(config.outDir)) return ` (EXRATES_OUT_DIR is ${config.outDir})`;
  return "";
}

/** The line printed for an error that ends a command. */
export function errorLine(error: unknown, config: Config | undefined): string {
  return knownError(error, config) ?? describeError(error);
}

/**
 * Wraps a command's action: any error becomes one line on stderr and exit code 1, never a stack
 * trace (LOG_LEVEL=debug adds the stack for bug reports).
 */
export function action<A extends unknown[]>(
  ctx: CliContext & { close(): Promise<void> },
  fn: (...args: A) => Promise<void> | void,
) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (error) {
      let config: Config | undefined;
      try {
        config = ctx.config();
      } catch {
        config = undefined;
      }
      process.stderr.write(`exrates: ${errorLine(error, config)}\n`);
      if (process.env.LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
      process.exitCode = 1;
    } finally {
      await ctx.close().catch(() => undefined);
    }
  };
}

// One publisher at a time per out/ directory (the daemon and a manual `exrates publish` may overlap).
// The lock is an OS lock, not a pid in a file: an exclusive SQLite transaction on `out/.publish.lock`
// holds a POSIX lock on that file, which the kernel releases when the holder ends, however it ends
// (kill -9 included). A pid can be reused by another process; a kernel lock cannot outlive its owner,
// so nothing has to guess whether the holder is alive. The file stays (empty); its presence means
// nothing. A file left by an earlier version (a pid in text) is emptied and used.
// On a shared PostgreSQL database, instances on several hosts may publish one tree (a bucket, a
// shared volume): there the lock is a session-level advisory lock of the database instead, held on a
// connection of its own and released by the server when that session ends, kill -9 included.
import { statSync, truncateSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import type { Pool, PoolClient } from "pg";

import { pause } from "../feed/helpers.js";
import { advisoryUnlock, tryAdvisoryLock } from "../store/advisory-lock.js";
import { poolOf, type Store } from "../store/database.js";

/** Whether a process with this id exists (EPERM: it does, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export const LOCK_FILE = ".publish.lock";
const RETRY_MS = 50;

const sqliteCode = (error: unknown) => (error as { code?: unknown }).code;

/** An earlier version's lock: a few bytes of text (a pid), which SQLite calls "not a database". */
function isLegacyPidFile(path: string): boolean {
  try {
    return statSync(path).size < 64;
  } catch {
    return false;
  }
}

/** The lock if it is free now, else undefined. */
function tryLock(path: string): BetterSqlite3.Database | undefined {
  // timeout 0: never wait inside SQLite (that would block the event loop); the caller polls.
  const db = new BetterSqlite3(path, { timeout: 0 });
  try {
    db.exec("begin exclusive");
    return db;
  } catch (error) {
    db.close();
    const code = sqliteCode(error);
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return undefined;
    if (code === "SQLITE_NOTADB" && isLegacyPidFile(path)) {
      // Emptied in place, never removed: another process may be opening this very file.
      truncateSync(path, 0);
      return tryLock(path);
    }
    throw error;
  }
}

/** The file locks held now. */
const heldLocks = new Set<BetterSqlite3.Database>();

/** Where to publish: the out/ directory, and the store (a shared PostgreSQL one: its advisory lock). */
export interface PublishTarget {
  outDir: string;
  store?: Store;
}

export async function withPublishLock<T>(
  target: string | PublishTarget,
  fn: () => Promise<T>,
  timeoutMs = 60_000,
): Promise<T> {
  const { outDir, store } = typeof target === "string" ? { outDir: target, store: undefined } : target;
  const pool = store && poolOf(store);
  if (pool) return withAdvisoryLock(pool, fn, timeoutMs);
  const path = join(outDir, LOCK_FILE);
  const deadline = Date.now() + timeoutMs;
  let lock: BetterSqlite3.Database | undefined;
  while (!(lock = tryLock(path))) {
    if (Date.now() > deadline)
      throw new Error(`another publish holds ${path} (waited ${Math.round(timeoutMs / 1000)} s)`, {
        cause: { code: "SQLITE_BUSY" },
      });
    await pause(RETRY_MS);
  }
  // Held from here, not only by this call's frame: a collected connection would close and drop the lock.
  heldLocks.add(lock);
  try {
    return await fn();
  } finally {
    heldLocks.delete(lock);
    lock.exec("rollback");
    lock.close();
  }
}

async function withAdvisoryLock<T>(pool: Pool, fn: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const client: PoolClient = await pool.connect();
  // An error on the idle session (the server went away) must not end the process; the lock is gone with it.
  const ignore = () => undefined;
  client.on("error", ignore);
  let broken: Error | undefined;
  try {
    while (!(await tryAdvisoryLock(client, "publish"))) {
      if (Date.now() > deadline)
        throw new Error(`another publish holds the database's publish lock (waited ${Math.round(timeoutMs / 1000)} s)`);
      await pause(RETRY_MS);
    }
    try {
      return await fn();
    } finally {
      await advisoryUnlock(client, "publish").catch((error: Error) => (broken = error));
    }
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    // A session whose unlock failed is ended, not reused: its lock must not outlive this call (and a
    // late error from it stays ignored).
    if (!broken) client.off("error", ignore);
    client.release(broken);
  }
}

// One publisher at a time per out/ directory (the daemon and a manual `exrates publish` may overlap).
// The lock is an OS lock, not a pid in a file: an exclusive SQLite transaction on `out/.publish.lock`
// holds a POSIX lock on that file, which the kernel releases when the holder ends, however it ends
// (kill -9 included). A pid can be reused by another process; a kernel lock cannot outlive its owner,
// so nothing has to guess whether the holder is alive. The file stays (empty); its presence means
// nothing. A file left by an earlier version (a pid in text) is emptied and used.
import { statSync, truncateSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";

import { pause } from "../feed/helpers.js";

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

export async function withPublishLock<T>(outDir: string, fn: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
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
  try {
    return await fn();
  } finally {
    lock.exec("rollback");
    lock.close();
  }
}

// One daemon per data directory. `exrates start` holds an exclusive SQLite lock (a POSIX advisory lock
// underneath) on `daemon.lock` in the data directory for as long as it runs. The kernel drops the lock
// when the process ends, however it ends (kill -9, a crash, a power cut), so no stale lock outlives its
// holder and a reused pid cannot appear to hold it. `daemon.json` beside it says who holds it, for the
// message a second daemon prints.
import { hostname } from "node:os";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";

import { UserError } from "../errors.js";

export const LOCK_FILE = "daemon.lock";
export const HOLDER_FILE = "daemon.json";

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** Where it serves, once known. */
  url?: string;
}

export interface DaemonLock {
  /** Records where the holder serves, for the message a second daemon prints. */
  describe(details: Partial<LockHolder>): void;
  release(): void;
}

/** A second daemon on the same data directory. */
export class DaemonRunningError extends UserError {
  override name = "DaemonRunningError";
  override readonly code: string = "EXRATES_DAEMON_RUNNING";
}

function readHolder(dataDir: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), "utf8")) as LockHolder;
  } catch {
    return undefined;
  }
}

function holderText(holder: LockHolder | undefined): string {
  if (!holder) return "another process";
  const where = holder.url ? `, serving ${holder.url}` : "";
  return `pid ${holder.pid} on ${holder.host} (since ${holder.startedAt}${where})`;
}

/** Takes the data directory's daemon lock, or throws DaemonRunningError naming who holds it. */
export function acquireDaemonLock(dataDir: string, now: Date = new Date()): DaemonLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  let db: BetterSqlite3.Database | undefined;
  try {
    // timeout 0: a lock held elsewhere is an answer at once, not a wait.
    db = new BetterSqlite3(path, { timeout: 0 });
    db.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code;
    if (code === "SQLITE_BUSY")
      throw new DaemonRunningError(
        `another exrates daemon is running on the data directory ${dataDir}: ${holderText(readHolder(dataDir))}; ` +
          "stop it first, or give this one another EXRATES_DATA_DIR",
      );
    throw new UserError(
      `cannot take the daemon lock ${path} (${code ?? (error as Error).message}): the daemon writes in EXRATES_DATA_DIR; run it as the user that owns ${dataDir}, or fix its permissions`,
      { cause: error },
    );
  }
  const lock = db;
  let holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: now.toISOString() };
  const write = () => writeFileSync(join(dataDir, HOLDER_FILE), `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  write();
  let held = true;
  return {
    describe(details) {
      holder = { ...holder, ...details };
      if (held) write();
    },
    release() {
      if (!held) return;
      held = false;
      if (readHolder(dataDir)?.pid === process.pid) rmSync(join(dataDir, HOLDER_FILE), { force: true });
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}

// PostgreSQL advisory locks of exrates: session-level, so the server releases one when its
// connection ends, however the holder ended (kill -9 included). Keys are pairs (class, lock): the
// class is constant ("exrt") so that the application's locks stand apart from any other's.
import { sql, type Kysely } from "./kysely.js";

import type { Database } from "./schema.js";

export const LOCK_CLASS = 0x65787274;

/** What each lock guards. */
export const LOCKS = { scheduler: 1, publish: 2 } as const;

export type LockName = keyof typeof LOCKS;

/** What a lock's holder needs of its dedicated connection (a pg PoolClient is one). */
export interface LockConnection {
  query<R extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** Takes the lock on this connection if it is free now; true when taken (or held already by it). */
export async function tryAdvisoryLock(connection: LockConnection, name: LockName): Promise<boolean> {
  const { rows } = await connection.query<{ taken: boolean }>("select pg_try_advisory_lock($1, $2) as taken", [
    LOCK_CLASS,
    LOCKS[name],
  ]);
  return rows[0]?.taken === true;
}

export async function advisoryUnlock(connection: LockConnection, name: LockName): Promise<void> {
  await connection.query("select pg_advisory_unlock($1, $2)", [LOCK_CLASS, LOCKS[name]]);
}

/** Whether any session holds the lock now (pg_locks is readable by every role). */
export async function advisoryLockHeld(db: Kysely<Database>, name: LockName): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_locks
    where locktype = 'advisory' and classid = ${LOCK_CLASS}::int::oid and objid = ${LOCKS[name]}::int::oid
      and objsubid = 2 and granted`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

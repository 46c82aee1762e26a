// Where the event stream reads the events table: SQLite's file through a read-only connection of its
// own (synchronously; `PRAGMA data_version` says when another connection committed), or a shared
// PostgreSQL store through its pool (asked every poll).
import BetterSqlite3 from "better-sqlite3";

import type { Store } from "../../../store/database.js";

export interface EventRow {
  id: number;
  type: string;
  payload: string;
  created_at: string;
}

export interface EventReader {
  /** False when nothing can have changed since the last call (SQLite's data_version did not move). */
  changed(): boolean | Promise<boolean>;
  after(id: number, limit: number): EventRow[] | Promise<EventRow[]>;
  newestId(): number | Promise<number>;
  close(): void;
}

/** The read-only SQLite connection, or undefined while the database does not exist yet. */
export function sqliteReader(path: string): EventReader | undefined {
  let conn: BetterSqlite3.Database;
  try {
    conn = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    conn.pragma("busy_timeout = 2000");
  } catch {
    return undefined;
  }
  const after = conn.prepare<[number, number], EventRow>(
    "SELECT id, type, payload, created_at FROM events WHERE id > ? ORDER BY id LIMIT ?",
  );
  let dataVersion = -1;
  return {
    changed() {
      const version = conn.pragma("data_version", { simple: true }) as number;
      if (version === dataVersion) return false;
      dataVersion = version;
      return true;
    },
    after: (id, limit) => after.all(id, limit),
    newestId: () => conn.prepare<[], { id: number | null }>("SELECT max(id) AS id FROM events").get()?.id ?? 0,
    close: () => conn.close(),
  };
}

export function sharedReader(store: Store): EventReader {
  return {
    changed: () => true,
    after: (id, limit) =>
      store.db
        .selectFrom("events")
        .select(["id", "type", "payload", "created_at"])
        .where("id", ">", id)
        .orderBy("id")
        .limit(limit)
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, id: Number(r.id) }))),
    newestId: () =>
      store.db
        .selectFrom("events")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
        .then((row) => Number(row?.id ?? 0)),
    close: () => undefined,
  };
}

// The store, read-only, for the history and discovery endpoints: on SQLite a connection of its own (a
// WAL reader beside the daemon's writer), opened on first use and tried again every few seconds while
// the database does not exist; on a shared PostgreSQL store, the store's own pool.
import { isPostgres, type Store } from "../../store/database.js";
import { PostgresHistoryReader } from "../../store/history-postgres.js";
import { HistoryReader, type HistoryStore } from "../../store/history.js";

const REOPEN_MS = 5000;

export interface HistorySource {
  /** The reader, or undefined while there is no database to read. */
  reader(): HistoryStore | undefined;
  close(): void;
}

export function historySource(path: string, now: () => number = Date.now, store?: Store): HistorySource {
  if (store && isPostgres(store)) {
    const shared = new PostgresHistoryReader(store);
    return { reader: () => shared, close: () => shared.close() };
  }
  let reader: HistoryReader | undefined;
  let triedAt = -Infinity;
  return {
    reader() {
      if (!reader && now() - triedAt >= REOPEN_MS) {
        triedAt = now();
        try {
          reader = HistoryReader.open(path, { manualRefresh: true });
        } catch {
          reader = undefined;
        }
      }
      return reader;
    },
    close() {
      reader?.close();
      reader = undefined;
    },
  };
}

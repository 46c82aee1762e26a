// The store read as the server reads it (src/store/history.ts's HistoryStore), for the commands that
// resolve a query the way the API does (`exrates pair`, `exrates average`): same reads, same answers.
import { isPostgres, type Store } from "../store/database.js";
import { PostgresHistoryReader } from "../store/history-postgres.js";
import { HistoryReader, type HistoryStore } from "../store/history.js";

export function historyReaderOf(store: Store): HistoryStore {
  return isPostgres(store) ? new PostgresHistoryReader(store) : new HistoryReader(store.sqlite);
}

/** The format flag of a command (--json, --xml, --csv); undefined: the human table. */
export function formatFlag(options: {
  json?: boolean;
  xml?: boolean;
  csv?: boolean;
}): "json" | "xml" | "csv" | undefined {
  return options.json ? "json" : options.xml ? "xml" : options.csv ? "csv" : undefined;
}

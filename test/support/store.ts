// A fresh store in a temp directory, for tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { openSqliteStore, type SqliteStore } from "../../src/store/database.js";

export async function tempStore(): Promise<{ store: SqliteStore; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "exrates-test-"));
  const store = await openSqliteStore(join(dir, "exrates.db"));
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

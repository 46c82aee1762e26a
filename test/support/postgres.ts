// PostgreSQL for tests: the throwaway cluster of scripts/test-postgres.mjs (Debian's server binaries,
// installed by .ci/run), whether to skip, and a store of each dialect for suites that run on both.
// Without the binaries a test file skips with a message, except in CI (CI=true), where it fails.
import { afterAll } from "vitest";

import { postgresBinDir, POSTGRES_ROOT, startPostgres, type PostgresCluster } from "../../scripts/test-postgres.mjs";
import { openStore, type Store } from "../../src/store/database.js";
import { tempStore } from "./store.js";

export { startPostgres, type PostgresCluster };

const inCi = process.env.CI === "true";

/**
 * True when PostgreSQL tests must be skipped: no server binaries and not in CI. Use as
 * `describe.skipIf(skipPostgres)`; in CI a missing server makes startPostgres() throw instead.
 */
export const skipPostgres = postgresBinDir() === undefined && !inCi;
if (skipPostgres)
  console.warn(
    `PostgreSQL tests skipped: no server binaries under ${POSTGRES_ROOT}/*/bin (apt-get install postgresql; CI=true fails instead)`,
  );

/** A store of each dialect, for suites that must behave the same on both (`describe.each`). */
export interface StoreDialect {
  name: "sqlite" | "postgres";
  /** A fresh, migrated, empty store; cleanup closes it (and drops its directory or leaves its database). */
  open(): Promise<{ store: Store; cleanup: () => Promise<void> }>;
}

/**
 * SQLite always; PostgreSQL unless skipped (no binaries outside CI). One cluster per test file, started
 * on first use and stopped after the file's tests (call at the top level of the file).
 */
export function storeDialects(): StoreDialect[] {
  let cluster: Promise<PostgresCluster> | undefined;
  afterAll(async () => {
    if (cluster) await (await cluster.catch(() => undefined))?.stop();
  });
  const sqlite: StoreDialect = { name: "sqlite", open: () => tempStore() };
  const postgres: StoreDialect = {
    name: "postgres",
    async open() {
      const c = await (cluster ??= startPostgres());
      const store = await openStore(await c.createDatabase());
      return { store, cleanup: () => store.close() };
    },
  };
  return skipPostgres ? [sqlite] : [sqlite, postgres];
}

// Types of scripts/test-postgres.mjs (a throwaway PostgreSQL cluster for tests and benchmarks).
export declare const POSTGRES_ROOT: string;

/** The newest installed server's bin directory (EXRATES_TEST_PG_BIN overrides), or undefined. */
export declare function postgresBinDir(): string | undefined;

export interface PostgresCluster {
  /** The server's port on 127.0.0.1. */
  port: number;
  /** The admin password (to check that it never leaks). */
  password: string;
  /** The cluster's directory (data, socket, log), removed by stop(). */
  dir: string;
  /** A new, empty database (UTF-8, C collation); its URL, password included. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (by its postmaster's pid) and removes its directory. */
  stop(): Promise<void>;
}

export declare function startPostgres(): Promise<PostgresCluster>;

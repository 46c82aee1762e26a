// Opening a PostgreSQL store (EXRATES_DATABASE_URL=postgres://...): a pg pool behind kysely, migrated
// on open with the same migrations as SQLite (each branches on the dialect where the engines differ).
import { Kysely, type PostgresPool, type PostgresPoolClient } from "./kysely.js";
import pg from "pg";

import { redactWriteParameters, registerSecret } from "../secrets.js";
import { ExratesPostgresDialect, maskDatabaseUrl } from "./dialect.js";
import type { Database } from "./schema.js";

/** Numbers come back as numbers, as they do from SQLite: count(*) and bigint columns are int8 (20). */
const INT8 = 20;
const parseInt8 = (value: string): number => Number(value);
const types = {
  getTypeParser(oid: number, format: "text" | "binary" = "text"): (value: string) => unknown {
    if (oid === INT8 && format === "text") return parseInt8;
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

export interface PostgresConnection {
  db: Kysely<Database>;
  pool: pg.Pool;
}

/**
 * A pool on the URL, checked with one round trip so that a wrong host or password fails here with a
 * message naming the URL without its password. `readonly` sessions refuse every write.
 */
export async function connectPostgres(url: string, options: { readonly?: boolean } = {}): Promise<PostgresConnection> {
  const parsed = new URL(url);
  registerSecret(decodeURIComponent(parsed.password));
  // pg also takes the password from the environment.
  registerSecret(process.env.PGPASSWORD);
  const pool = new pg.Pool({
    connectionString: url,
    application_name: "exrates",
    max: 10,
    types,
    ...(options.readonly ? { options: "-c default_transaction_read_only=on" } : {}),
  });
  // An idle connection the server drops emits here; without a listener the process would exit. The
  // next query gets a fresh connection (or the error).
  pool.on("error", () => undefined);
  try {
    await pool.query("select 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot connect to the database ${maskDatabaseUrl(url)}: ${reason}`, { cause: error });
  }
  const db = new Kysely<Database>({ dialect: new ExratesPostgresDialect({ pool: redactingPool(pool) }) });
  return { db, pool };
}

/**
 * The pool as kysely sees it: every statement's parameters pass through the secret net first (the
 * counterpart of SQLite's redaction triggers, see src/secrets.ts).
 */
function redactingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query: ((text: unknown, parameters?: readonly unknown[]) =>
          typeof text === "string"
            ? client.query(text, redactWriteParameters(text, parameters ?? []) as unknown[])
            : client.query(text as pg.Submittable)) as unknown as PostgresPoolClient["query"],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

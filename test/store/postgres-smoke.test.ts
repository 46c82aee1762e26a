// A PostgreSQL store opens on a real server, migrates to the same tables, and reads back what kysely
// wrote; a wrong password fails with a message that does not show it.
import { sql, type Generated, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isPostgres, openStore, type Store } from "../../src/store/database.js";
import { lockBankForIngest } from "../../src/store/postgres-ingest.js";
import { storeBatches } from "../../src/store/rates.js";
import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";
import { tempStore } from "../support/store.js";

describe.skipIf(skipPostgres)("PostgreSQL store", () => {
  let cluster: PostgresCluster;
  let url: string;
  let store: Store;
  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase();
    store = await openStore(url);
  });
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
  });

  it("migrates to the same tables and columns as SQLite", async () => {
    expect(isPostgres(store)).toBe(true);
    const sqlite = await tempStore();
    try {
      // Every table of every migration (later ones included), each column with its nullability and
      // whether the engine fills it (identity / autoincrement). A primary-key column counts as not null
      // (SQLite lets a lone text key hold NULL, PostgreSQL never does; nothing writes one).
      const keys = new Set<string>();
      // SQLite's introspection calls every `integer primary key` auto-incrementing (a rowid alias);
      // what a migration asked for is `autoincrement` in the table's DDL.
      const auto = new Set<string>();
      for (const { name, sql: ddl } of sqlite.store.sqlite
        .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        .all() as Array<{ name: string; sql: string }>) {
        for (const c of sqlite.store.sqlite.pragma(`table_info("${name}")`) as Array<{ name: string; pk: number }>)
          if (c.pk > 0) keys.add(`${name}.${c.name}`);
        for (const m of ddl.matchAll(/"(\w+)" integer primary key autoincrement/gi)) auto.add(`${name}.${m[1]}`);
      }
      const shape = async (s: Store) =>
        (await s.db.introspection.getTables())
          .map((t) => ({
            table: t.name,
            columns: t.columns
              .map((c) => {
                const key = `${t.name}.${c.name}`;
                const nullable = c.isNullable && !keys.has(key);
                const filled = s.dialect === "sqlite" ? auto.has(key) : c.isAutoIncrementing;
                return `${c.name}${nullable ? "?" : ""}${filled ? " auto" : ""}`;
              })
              .sort(),
          }))
          .sort((a, b) => (a.table < b.table ? -1 : 1));
      const expected = await shape(sqlite.store);
      expect(expected.map((t) => t.table)).toEqual(expect.arrayContaining(["rates", "rate_revisions", "clients"]));
      expect(await shape(store)).toEqual(expected);
      // The same secondary indexes (keys and unique constraints have engine-made names on both).
      const sqliteIndexes = (
        sqlite.store.sqlite
          .prepare("select name from sqlite_master where type = 'index' and sql is not null")
          .all() as Array<{ name: string }>
      )
        .map((r) => r.name)
        .sort();
      const { rows } = await sql<{ name: string }>`
        select indexname as name from pg_indexes i where schemaname = current_schema()
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(store.db);
      expect(rows.map((r) => r.name).sort()).toEqual(sqliteIndexes);
      expect(sqliteIndexes).toContain("rate_revisions_key");
    } finally {
      await sqlite.cleanup();
    }
  });

  it("writes and reads a client row through kysely, numbers as numbers", async () => {
    const now = "2026-11-23T23:00:00.000Z";
    await store.db
      .insertInto("clients")
      .values({
        id: "0b6c0b8e-2a43-4c4e-9d0f-1f1e6a1c2b3d",
        client_id: "reader",
        secret_salt: "salt",
        secret_hash: "hash",
        scope: "exchange-rates",
        enabled: 1,
        not_before: 4_102_444_800, // 2100-01-01: past int4
        created_at: now,
        updated_at: now,
      })
      .execute();
    const row = await store.db
      .selectFrom("clients")
      .selectAll()
      .where("client_id", "=", "reader")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_id: "reader", enabled: 1, not_before: 4_102_444_800, created_at: now });
    const { n } = await store.db
      .selectFrom("clients")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(1);
  });

  it("keeps the old figure as a revision when a rate changes (the trigger), and ids are identities", async () => {
    const fetch = await store.db
      .insertInto("fetches")
      .values({ bank_id: "ECB", kind: "fetch", method: "GET", url: "https://x/", started_at: "2026-11-23T00:00:00Z" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(typeof fetch.id).toBe("number");
    const key = { bank_id: "ECB", effective_date: "2026-11-20", currency: "USD" };
    await store.db
      .insertInto("rates")
      .values({ ...key, rate: "1.0850", unit_multiplier: 0, derivation: null, fetch_id: fetch.id, stored_at: "a" })
      .execute();
    await store.db.updateTable("rates").set({ rate: "1.0850" }).execute();
    await store.db.updateTable("rates").set({ rate: "1.085", stored_at: "b" }).execute();
    const revisions = await store.db.selectFrom("rate_revisions").selectAll().execute();
    expect(revisions).toMatchObject([{ ...key, old_rate: "1.0850", new_rate: "1.085", revised_at: "b" }]);
  });

  it("runs a migration written with the portable schema builder alone (as 006+ are)", async () => {
    const db = store.db as unknown as Kysely<{ probe: { id: Generated<number>; name: string; n: Generated<number> } }>;
    await db.schema
      .createTable("probe")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("name", "text", (c) => c.notNull().unique())
      .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("probe_n").on("probe").column("n").where(sql.ref("n"), ">", 0).execute();
    const ids = await db
      .insertInto("probe")
      .values([{ name: "a" }, { name: "b", n: 2 }])
      .returning("id")
      .execute();
    expect(ids.map((r) => r.id)).toEqual([1, 2]);
    await db.schema.dropTable("probe").execute();
  });

  it("serialises two instances' ingests of one bank, not of two banks", async () => {
    const other = await openStore(url);
    try {
      const records = [{ effectiveDate: "2026-11-20", currency: "CHF", rate: "0.9400" }];
      const provenance = {
        kind: "import" as const,
        method: "GET" as const,
        url: "https://x/",
        startedAt: new Date(),
        finishedAt: new Date(),
        body: Buffer.from("x"),
      };
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const holding = store.db.transaction().execute(async (tx) => {
        await lockBankForIngest(tx, "LOCKED");
        await held;
      });
      await new Promise((r) => setTimeout(r, 100));
      let sameBankDone = false;
      const sameBank = storeBatches(other, "LOCKED", [{ provenance, records }]).then(() => (sameBankDone = true));
      // Another bank goes through while the first is held.
      await storeBatches(other, "FREE", [{ provenance, records }]);
      await new Promise((r) => setTimeout(r, 200));
      expect(sameBankDone).toBe(false);
      release();
      await holding;
      await sameBank;
      expect(sameBankDone).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("opens read-only: writes are refused", async () => {
    const reader = await openStore(url, { readonly: true });
    try {
      await expect(reader.db.deleteFrom("rates").execute()).rejects.toThrow(/read-only/);
    } finally {
      await reader.close();
    }
  });

  it("a wrong password fails with a message that hides the URL's password", async () => {
    const wrong = url.replace(cluster.password, "not-the-password-123");
    const error = (await openStore(wrong).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/cannot connect to the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    expect(error.message).not.toContain("not-the-password-123");
    expect(error.message).not.toContain(cluster.password);
  });
});

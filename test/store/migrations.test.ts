import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { openSqliteStore } from "../../src/store/database.js";
import { migrations } from "../../src/store/migrations/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-migrate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (file: string) => {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare("select name from sqlite_master where type = 'table' order by 1").pluck().all();
  } finally {
    db.close();
  }
};

describe("migrating a SQLite database", () => {
  it("applies every migration to a new database", async () => {
    const file = join(dir, "exrates.db");
    const store = await openSqliteStore(file);
    const applied = store.sqlite.prepare("select name from kysely_migration order by name").pluck().all();
    await store.close();
    expect(applied).toEqual(Object.keys(migrations).sort());
    expect(tables(file)).toEqual(expect.arrayContaining(["rates", "fetches", "anomalies", "webhooks", "clients"]));
  });

  it("orders the migrations by code point as kysely's default (localeCompare) does: databases migrated before agree", () => {
    const names = Object.keys(migrations);
    expect(names.length).toBeGreaterThan(8);
    expect([...names].sort()).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("applies none of them when one fails: the database is left as it was", async () => {
    const file = join(dir, "exrates.db");
    // A table in the way of 005_events: the migrations before it succeed, that one fails.
    const before = new BetterSqlite3(file);
    before.exec("create table webhooks (x text)");
    before.close();
    await expect(openSqliteStore(file)).rejects.toThrow(/database migration 005_events failed/);
    expect(tables(file)).toEqual(["webhooks"]);
  });

  it("opens a current database without a write lock: a writer elsewhere does not hold it up", async () => {
    const file = join(dir, "exrates.db");
    await (await openSqliteStore(file)).close();
    const writer = new BetterSqlite3(file);
    writer.exec("begin immediate");
    try {
      const store = await openSqliteStore(file); // would wait out the busy timeout (10 s) for a write lock
      await store.close();
    } finally {
      writer.exec("rollback");
      writer.close();
    }
  }, 5_000);
});

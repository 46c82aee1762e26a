// A deleted row's bytes do not stay in the database file's free space: secure_delete is on, so a removed
// webhook's signing secret cannot be read back from exrates.db with a hex editor.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { openSqliteStore } from "../../src/store/database.js";
import { addWebhook, removeWebhook } from "../../src/store/events.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the SQLite store's deleted rows", () => {
  it("are overwritten: a removed webhook's secret is nowhere in the file", async () => {
    dir = mkdtempSync(join(tmpdir(), "exrates-secure-delete-"));
    const path = join(dir, "exrates.db");
    const store = await openSqliteStore(path);
    expect(store.sqlite.pragma("secure_delete", { simple: true })).toBe(1);
    const hook = await addWebhook(store, { url: "https://erp.example/hooks" });
    store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const secret = Buffer.from(hook.secret);
    expect(readFileSync(path).includes(secret)).toBe(true); // it was written to the file
    expect(await removeWebhook(store, hook.id)).toBe(true);
    store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    await store.close();
    expect(readFileSync(path).includes(secret)).toBe(false);
    expect(readFileSync(`${path}-wal`, { flag: "a+" }).includes(secret)).toBe(false);
  });
});

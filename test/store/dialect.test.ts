// Choosing the store from EXRATES_DATABASE_URL, and a database URL's password never shown.
import { describe, expect, it } from "vitest";

import { loadConfig, storeLocation } from "../../src/config.js";
import { isDatabaseUrl, maskDatabaseUrl } from "../../src/store/database.js";

describe("store location", () => {
  it("is the SQLite file in the data dir when EXRATES_DATABASE_URL is unset", () => {
    const config = loadConfig({ EXRATES_DATA_DIR: "/srv/exrates" });
    expect(config.databaseUrl).toBeUndefined();
    expect(storeLocation(config)).toBe("/srv/exrates/exrates.db");
  });

  it("is the PostgreSQL URL when set", () => {
    const url = "postgresql://exrates:s3cret-pass@db.internal:5432/exrates";
    const config = loadConfig({ EXRATES_DATABASE_URL: url });
    expect(storeLocation(config)).toBe(url);
    expect(isDatabaseUrl(url)).toBe(true);
    expect(isDatabaseUrl("/srv/exrates/exrates.db")).toBe(false);
  });

  it("refuses another scheme without showing the password", () => {
    expect(() => loadConfig({ EXRATES_DATABASE_URL: "mysql://root:hunter2-pw@db/x" })).toThrow(
      'EXRATES_DATABASE_URL "mysql://root:***@db/x" is not a postgres:// or postgresql:// URL',
    );
  });

  it("masks the password and password-like parameters", () => {
    expect(maskDatabaseUrl("postgres://u:p%40ss@h:5432/d?sslmode=require&password=x1")).toBe(
      "postgres://u:***@h:5432/d?sslmode=require&password=***",
    );
    expect(maskDatabaseUrl("postgres://u@h/d")).toBe("postgres://u@h/d");
    expect(maskDatabaseUrl("postgres://u:pw@[bad")).toBe("postgres://***@[bad");
  });
});

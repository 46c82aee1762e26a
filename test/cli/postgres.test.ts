// The real binary on a PostgreSQL store (EXRATES_DATABASE_URL): import, publish and anomalies behave as
// on SQLite, and a wrong password or URL is reported without ever showing the password.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";
import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";
import type { LatestJson } from "../support/publish.js";

describe.skipIf(skipPostgres)("exrates on PostgreSQL", () => {
  let cluster: PostgresCluster;
  let dir: string;
  let url: string;
  const envOf = (engine: "sqlite" | "postgres") => ({
    EXRATES_DATA_DIR: join(dir, engine, "data"),
    EXRATES_OUT_DIR: join(dir, engine, "out"),
    ...(engine === "postgres" ? { EXRATES_DATABASE_URL: url } : {}),
  });
  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase();
    dir = mkdtempSync(join(tmpdir(), "exrates-cli-pg-"));
  });
  afterAll(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("imports, re-imports and publishes the same rates as on SQLite", () => {
    const file = join(FIXTURES_DIR, "CNB/daily-year.json");
    const latest: Record<string, LatestJson["rates"]> = {};
    for (const engine of ["sqlite", "postgres"] as const) {
      const env = envOf(engine);
      const first = exrates(["import", "CNB", file], env);
      expect(first.stderr).toBe("");
      expect(first.stdout).toMatch(/^CNB: 5 added, 0 revised, 0 unchanged/);
      expect(exrates(["import", "CNB", file], env).stdout).toMatch(/^CNB: 0 added, 0 revised, 5 unchanged/);
      const published = exrates(["publish"], env);
      expect(published.status, published.stderr).toBe(0);
      const doc = JSON.parse(
        readFileSync(join(env.EXRATES_OUT_DIR, "v1/Banks/CNB/DailyRates/Latest.json"), "utf8"),
      ) as LatestJson;
      latest[engine] = doc.rates;
      const anomalies = exrates(["anomalies", "--json"], env);
      expect(anomalies.status, anomalies.stderr).toBe(0);
    }
    expect(latest.postgres).toEqual(latest.sqlite);
    expect(JSON.stringify(latest.postgres)).toContain("2026-03-03");
  });

  it("reports a wrong password with the URL masked", () => {
    const wrong = url.replace(cluster.password, "wrong-password-5678");
    const r = exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json")], {
      ...envOf("postgres"),
      EXRATES_DATABASE_URL: wrong,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot connect to the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\//);
    expect(r.stderr + r.stdout).not.toContain("wrong-password-5678");
  });

  it("refuses a URL of another engine without showing its password", () => {
    const r = exrates(["anomalies"], { ...envOf("postgres"), EXRATES_DATABASE_URL: "mysql://root:hunter2-pw@db/x" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'EXRATES_DATABASE_URL "mysql://root:***@db/x" is not a postgres:// or postgresql:// URL',
    );
    expect(r.stderr).not.toContain("hunter2");
  });
});

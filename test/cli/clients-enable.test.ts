// `exrates clients enable` undoes `disable` (tokens issued before the disable stay refused), and
// `clients create --scope` warns when the scopes cannot reach the API (EXRATES_SCOPE).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { authenticateClient } from "../../src/auth/clients.js";
import { openStore } from "../../src/store/database.js";
import { exrates } from "../support/cli.js";

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-clients-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function authenticates(clientId: string, secret: string): Promise<string> {
  const store = await openStore(join(env.EXRATES_DATA_DIR!, "exrates.db"));
  try {
    const auth = await authenticateClient(store, clientId, secret);
    return auth.ok ? "ok" : auth.reason;
  } finally {
    await store.close();
  }
}

describe("exrates clients enable", () => {
  it("disable then enable: the client authenticates again; list shows each state", async () => {
    const created = exrates(["clients", "create", "erp", "--json"], env);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stderr).not.toContain("warning");
    const { client_secret: secret } = JSON.parse(created.stdout) as { client_secret: string };

    expect(exrates(["clients", "disable", "erp"], env).status).toBe(0);
    expect(await authenticates("erp", secret)).toBe("disabled");
    expect(exrates(["clients", "list"], env).stdout).toMatch(/erp\s+disabled/);

    const enabled = exrates(["clients", "enable", "erp"], env);
    expect(enabled.status, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain("client erp enabled");
    expect(await authenticates("erp", secret)).toBe("ok");
    expect(exrates(["clients", "list"], env).stdout).toMatch(/erp\s+enabled/);
  });

  it("an unknown client is one line and exit 1", () => {
    const r = exrates(["clients", "enable", "nobody"], env);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^exrates: /);
  });
});

describe("exrates clients create --scope", () => {
  it("warns when the scopes do not include the API scope, and creates the client anyway", () => {
    const r = exrates(["clients", "create", "odd", "--scope", "foo bar", "--json"], env);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ client_id: "odd", scope: "foo bar" });
    expect(r.stderr).toMatch(/warning: .*odd.*exchange-rates \(EXRATES_SCOPE\).*cannot read the API/);
  });

  it("follows EXRATES_SCOPE", () => {
    const scoped = { ...env, EXRATES_SCOPE: "rates-api" };
    expect(exrates(["clients", "create", "other", "--scope", "exchange-rates"], scoped).stderr).toContain("rates-api");
    expect(exrates(["clients", "create", "right", "--scope", "rates-api audit"], scoped).stderr).not.toContain(
      "warning",
    );
  });
});

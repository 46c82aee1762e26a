// The commands through the built binary: clients create/list/reset-secret/disable/delete, keys
// rotate, and `exrates serve` until SIGTERM (clean exit 0), with a reset made by the CLI while it runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";
import { testSite } from "../support/server.js";
import { publishGeneration } from "./support.js";

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-serve-cli-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exrates clients", () => {
  it("create --json prints the secret once; list never shows it", () => {
    const created = exrates(["clients", "create", "erp-prod", "--json"], env);
    expect(created.status, created.stderr).toBe(0);
    const body = JSON.parse(created.stdout) as { client_id: string; client_secret: string; scope: string };
    expect(Object.keys(body)).toEqual(["client_id", "client_secret", "scope"]);
    expect(body.client_id).toBe("erp-prod");
    expect(body.scope).toBe("exchange-rates");
    expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(created.stderr).not.toContain(body.client_secret);
    const text = exrates(["clients", "create", "reporting", "--scope", "exchange-rates audit"], env);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/client_secret: [A-Za-z0-9_-]{43}/);
    const list = exrates(["clients", "list"], env);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/erp-prod\s+enabled\s+exchange-rates/);
    expect(list.stdout).toMatch(/reporting\s+enabled\s+exchange-rates audit/);
    expect(list.stdout).not.toContain(body.client_secret);
  });

  it("refuses bad input with one line and exit 1", () => {
    for (const args of [
      ["clients", "create", "erp-prod"],
      ["clients", "create", "bad name"],
      ["clients", "reset-secret", "nobody"],
      ["clients", "disable", "nobody"],
      ["clients", "delete", "nobody"],
      ["clients", "create", "x", "--scope", 'a"b'],
    ]) {
      const r = exrates(args, env);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/^exrates: /);
    }
  });

  it("keys rotate makes a new active key", () => {
    const first = exrates(["keys", "rotate"], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^new signing key \S+; retired \S+/);
  });
});

describe("exrates serve", () => {
  it("serves with tokens from the CLI's clients; a CLI reset ends old tokens; SIGTERM exits 0", async () => {
    publishGeneration(env.EXRATES_OUT_DIR!, "g1", [{ id: "CNB", date: "2026-04-02" }]);
    const created = JSON.parse(exrates(["clients", "create", "live", "--json"], env).stdout) as {
      client_id: string;
      client_secret: string;
    };
    const site = await testSite({ env });
    try {
      const server = await site.serve({ client: { id: created.client_id, secret: created.client_secret } });
      const base = server.url;
      expect((await fetch(`${base}/healthz`)).ok).toBe(true);
      const tokenResponse = await fetch(`${base}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${created.client_id}:${created.client_secret}`).toString("base64")}`,
        },
        body: "grant_type=client_credentials&scope=exchange-rates",
      });
      expect(tokenResponse.status).toBe(200);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const get = () =>
        fetch(`${base}/v1/Banks/CNB/DailyRates/Latest.csv`, { headers: { authorization: `Bearer ${token}` } });
      expect((await get()).status).toBe(200);
      expect(exrates(["clients", "reset-secret", "live"], env).status).toBe(0);
      await new Promise((r) => setTimeout(r, 700));
      const after = await get();
      expect(after.status).toBe(401);
      expect(after.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      // Secrets and tokens never reach the log.
      const stderr = server.out.stderr;
      expect(stderr).not.toContain(created.client_secret);
      expect(stderr).not.toContain(token);
      expect((await server.stop("SIGTERM")).code).toBe(0);
    } finally {
      await site.close();
    }
  });
});

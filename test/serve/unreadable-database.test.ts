// `exrates serve` over a database that cannot be read (a damaged or overwritten file) still serves the
// published tree: tokens already issued are honoured by signature, scope and expiry, none is issued,
// and /v1/status and the log say the database is unreadable (issue 30, item 17).
import { rmSync, writeFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { startServer } from "../../src/serve/server.js";
import { silentLog, startHarness } from "./support.js";

describe("serving on a database that cannot be read", () => {
  it("serves the published tree and says the database is unreadable in /v1/status", async () => {
    const h = await startHarness();
    const token = await h.token();
    await h.server.close();
    await h.store.close();
    writeFileSync(h.config.databasePath, "this is not a SQLite database, just garbage ".repeat(200));
    for (const suffix of ["-wal", "-shm"]) rmSync(`${h.config.databasePath}${suffix}`, { force: true });
    // On the same port: the token names the issuer at that address.
    const port = Number(new URL(h.url).port);
    const server = await startServer({
      config: { ...h.config, port, publicUrl: h.config.publicUrl.replace(/:0$/, `:${port}`) },
      log: silentLog,
      databaseUnreadable: "file is not a database",
    });
    try {
      const auth = { authorization: `Bearer ${token}` };
      const latest = await fetch(`${server.url}/v1/Banks/CNB/DailyRates/Latest.json`, { headers: auth });
      expect(latest.status).toBe(200);
      expect(((await latest.json()) as { bankId: string }).bankId).toBe("CNB");
      const status = await fetch(`${server.url}/v1/status`, { headers: auth });
      expect(status.status).toBe(503);
      const body = (await status.json()) as { detail: string; database: string };
      expect(body).toMatchObject({ database: "unreadable" });
      expect(body.detail).toContain("file is not a database");
      // No token without the clients; none without a token either.
      const grant = await fetch(`${server.url}/auth/realms/${h.config.realm}/protocol/openid-connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: "erp", client_secret: "x" }),
      });
      expect(grant.status).toBe(503);
      expect((await fetch(`${server.url}/v1/Banks/CNB/DailyRates/Latest.json`)).status).toBe(401);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${server.url}/v1/Banks/CNB/DailyRates/2026-04-02`, { headers: auth })).status).toBe(503);
    } finally {
      await server.close();
      rmSync(h.root, { recursive: true, force: true });
    }
  });
});

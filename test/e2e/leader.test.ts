// Two `exrates start` (real child processes) on one PostgreSQL database (a real server,
// test/support/postgres.ts) with a feed mirror: exactly one schedules, and both say which in
// `/v1/status`; the leader killed with SIGKILL, the standby takes over within a minute (here within
// a few seconds: EXRATES_LEADER_RETRY_SECONDS=1) and catches up (a run of its own happens). With
// SQLite (no EXRATES_DATABASE_URL) the one daemon says it leads.
import type { Server } from "node:http";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";
import { testSite, type ChildServer, type TestSite } from "../support/server.js";
import { LAST, startSlowMirror } from "./support.js";

interface Status {
  banks: Array<{
    id: string;
    lastRun: { startedAt: string; reason: string } | null;
    lastSuccessAt: string | null;
    newestDate: string | null;
  }>;
  scheduler: { instance: string; leader: boolean; leaderInstance: string | null };
}

describe.skipIf(skipPostgres)("one scheduler among several exrates start", { timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let mirror: { url: string; server: Server };
  let site: TestSite;

  beforeAll(async () => {
    cluster = await startPostgres();
    mirror = await startSlowMirror(20);
    site = await testSite({
      env: {
        EXRATES_DATABASE_URL: await cluster.createDatabase(),
        EXRATES_PUBLIC_URL: "http://rates.example.test",
        EXRATES_FEED_MIRROR: mirror.url,
        EXRATES_LEADER_RETRY_SECONDS: "1",
      },
      prefix: "exrates-leader-",
    });
  });
  afterAll(async () => {
    await site?.close();
    mirror?.server.closeAllConnections();
    mirror?.server.close();
    await cluster?.stop();
  });

  /** An instance on the shared database and out/ directory, with a data directory and an id of its own. */
  const envOf = (instance: string) => ({ EXRATES_DATA_DIR: join(site.root, instance), EXRATES_INSTANCE_ID: instance });

  async function start(instance: string, ready: string): Promise<ChildServer> {
    return site.start({
      env: envOf(instance),
      ready: (o) => o.stdout.includes("exrates started") && o.stderr.includes(ready),
    });
  }

  it("exactly one leads; after kill -9 of the leader the standby leads within a minute and runs the banks", async () => {
    const created = await site.cli(["clients", "create", "ops", "--json"], envOf("operator"));
    expect(created.code, created.stderr).toBe(0);
    const { client_secret: secret } = JSON.parse(created.stdout) as { client_secret: string };

    const alpha = await start("alpha", "this instance leads the scheduler");
    const beta = await start("beta", "standing by");

    const tokenRes = await fetch(`${alpha.url}/auth/realms/exrates/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "ops",
        client_secret: secret,
        scope: "exchange-rates",
      }),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const status = async (url: string): Promise<Status> => {
      const res = await fetch(`${url}/v1/status`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as Status;
    };

    // Both agree: alpha leads, beta stands by.
    expect((await status(alpha.url)).scheduler).toEqual({ instance: "alpha", leader: true, leaderInstance: "alpha" });
    expect((await status(beta.url)).scheduler).toEqual({ instance: "beta", leader: false, leaderInstance: "alpha" });
    expect(beta.child.out.stderr).not.toContain("this instance leads the scheduler");

    const killedAt = new Date();
    expect((await alpha.kill()).signal).toBe("SIGKILL");

    // The standby takes over within a minute, and says so.
    for (;;) {
      const { scheduler } = await status(beta.url);
      if (scheduler.leader) {
        expect(scheduler).toEqual({ instance: "beta", leader: true, leaderInstance: "beta" });
        break;
      }
      expect(Date.now() - killedAt.getTime()).toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(beta.child.out.stderr).toContain("this instance leads the scheduler");

    // It catches up: CNB (behind: the mirror's newest day is past) gets a catch-up run started by beta
    // after the kill, which fetches from the mirror and stores through the mirror's newest day.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const cnb = (await status(beta.url)).banks.find((b) => b.id === "CNB");
      const after = killedAt.toISOString();
      if (cnb?.lastRun && cnb.lastRun.startedAt >= after && cnb.lastSuccessAt && cnb.lastSuccessAt >= after) {
        expect(cnb.lastRun.reason).toBe("catch-up");
        expect(cnb.newestDate).toBe(LAST);
        break;
      }
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }

    const end = await beta.stop("SIGTERM", 15_000);
    expect(end.code, end.stderr.slice(-1500)).toBe(0);
    expect(`${end.stdout}${end.stderr}`).not.toContain(cluster.password);
  });
});

describe("the scheduler in /v1/status with SQLite", { timeout: 90_000 }, () => {
  it("the one daemon leads, under its EXRATES_INSTANCE_ID", async () => {
    const site = await testSite({
      env: { EXRATES_FEED_MIRROR: "http://127.0.0.1:9", EXRATES_INSTANCE_ID: "solo" },
      prefix: "exrates-leader-sqlite-",
    });
    try {
      const daemon = await site.start({ ready: (o) => o.stdout.includes("client_secret:") });
      try {
        const token = await daemon.token();
        const status = (await (
          await fetch(`${daemon.url}/v1/status`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as Status;
        expect(status.scheduler).toEqual({ instance: "solo", leader: true, leaderInstance: "solo" });
        expect(status.banks.length).toBeGreaterThan(50);
      } finally {
        const end = await daemon.stop("SIGTERM", 15_000);
        expect(end.code, end.stderr.slice(-1500)).toBe(0);
      }
    } finally {
      await site.close();
    }
  });
});

// Two `exrates start` (real child processes) on one PostgreSQL database (a real server,
// test/support/postgres.ts) with a feed mirror: exactly one schedules, and both say which in
// `/v1/status`; the leader killed with SIGKILL, the standby takes over within a minute (here within
// a few seconds: EXRATES_LEADER_RETRY_SECONDS=1) and catches up (a run of its own happens). With
// SQLite (no EXRATES_DATABASE_URL) the one daemon says it leads.
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";
import { LAST, cli, finished, spawnCli, startSlowMirror, waitFor } from "./support.js";

type Child = ReturnType<typeof spawnCli>;

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
  let root: string;
  let databaseUrl: string;
  const children: Child[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    databaseUrl = await cluster.createDatabase();
    mirror = await startSlowMirror(20);
    root = mkdtempSync(join(tmpdir(), "exrates-leader-"));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    mirror?.server.closeAllConnections();
    mirror?.server.close();
    await cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const envOf = (instance: string) => ({
    EXRATES_DATABASE_URL: databaseUrl,
    EXRATES_DATA_DIR: join(root, instance),
    EXRATES_OUT_DIR: join(root, "out"),
    EXRATES_PORT: "0",
    EXRATES_PUBLIC_URL: "http://rates.example.test",
    EXRATES_FEED_MIRROR: mirror.url,
    EXRATES_INSTANCE_ID: instance,
    EXRATES_LEADER_RETRY_SECONDS: "1",
  });

  async function start(instance: string, ready: string): Promise<{ child: Child; url: string }> {
    const child = spawnCli(["start"], envOf(instance));
    children.push(child);
    await waitFor(child, (o) => o.stdout.includes("exrates started") && o.stderr.includes(ready), 60_000);
    return { child, url: /serving on (http:\/\/\S+) /.exec(child.out.stdout)![1]! };
  }

  it("exactly one leads; after kill -9 of the leader the standby leads within a minute and runs the banks", async () => {
    const created = await cli(["clients", "create", "ops", "--json"], envOf("operator"));
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
    process.kill(alpha.child.pid!, "SIGKILL");
    expect((await finished(alpha.child)).signal).toBe("SIGKILL");

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

    beta.child.kill("SIGTERM");
    const end = await finished(beta.child, 15_000);
    expect(end.code, end.stderr.slice(-1500)).toBe(0);
    expect(`${end.stdout}${end.stderr}`).not.toContain(cluster.password);
  });
});

describe("the scheduler in /v1/status with SQLite", { timeout: 90_000 }, () => {
  it("the one daemon leads, under its EXRATES_INSTANCE_ID", async () => {
    const root = mkdtempSync(join(tmpdir(), "exrates-leader-sqlite-"));
    const daemon = spawnCli(["start"], {
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_PORT: "0",
      EXRATES_FEED_MIRROR: "http://127.0.0.1:9",
      EXRATES_INSTANCE_ID: "solo",
    });
    try {
      await waitFor(daemon, (o) => o.stdout.includes("client_secret:"), 60_000);
      const url = /serving on (http:\/\/\S+) /.exec(daemon.out.stdout)![1]!;
      const secret = /client_secret: (\S+)/.exec(daemon.out.stdout)![1]!;
      const res = await fetch(`${url}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "exrates-client",
          client_secret: secret,
          scope: "exchange-rates",
        }),
      });
      const { access_token: token } = (await res.json()) as { access_token: string };
      const status = (await (
        await fetch(`${url}/v1/status`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as Status;
      expect(status.scheduler).toEqual({ instance: "solo", leader: true, leaderInstance: "solo" });
      expect(status.banks.length).toBeGreaterThan(50);
    } finally {
      daemon.kill("SIGTERM");
      const end = await finished(daemon, 15_000);
      expect(end.code, end.stderr.slice(-1500)).toBe(0);
      rmSync(root, { recursive: true, force: true });
    }
  });
});

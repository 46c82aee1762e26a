// The scheduler's election on a real PostgreSQL server (test/support/postgres.ts): exactly one of
// several instances leads; a standby takes over when the leader's session ends (its process killed,
// here: its backend terminated), and a leader whose lock connection is lost stops at once; a
// graceful stop hands over and clears the leader row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";

import { createLogger } from "../../src/log.js";
import { createElection, type Election } from "../../src/schedule/leader.js";
import { openStore, type PostgresStore } from "../../src/store/database.js";
import { skipPostgres, startPostgres, type PostgresCluster } from "../support/postgres.js";

const log = createLogger(process.env.DEBUG_LEADER ? "debug" : "silent", false);

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe.skipIf(skipPostgres)("one scheduler at a time on a shared database", { timeout: 60_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  const stores: PostgresStore[] = [];
  const elections: Election[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase();
  });
  afterAll(async () => {
    for (const e of elections) await e.stop().catch(() => undefined);
    for (const s of stores) await s.close();
    await cluster?.stop();
  });

  async function instance(name: string) {
    const store = (await openStore(url)) as PostgresStore;
    stores.push(store);
    const events: string[] = [];
    const election = createElection({
      pool: store.pool,
      db: store.db,
      instance: name,
      log,
      retryMs: 200,
      lead: () => {
        events.push("lead");
        return Promise.resolve();
      },
      abdicate: () => {
        events.push("abdicate");
        return Promise.resolve();
      },
    });
    elections.push(election);
    await election.start();
    return { election, events, store };
  }

  /** The backend holding the scheduler's advisory lock. */
  async function lockHolderPid(): Promise<number | undefined> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        "select pid from pg_locks where locktype = 'advisory' and objid = 1 and objsubid = 2 and granted",
      );
      return rows[0]?.pid;
    } finally {
      await client.end();
    }
  }

  it("one leads, the others stand by and agree on who leads", async () => {
    const alpha = await instance("alpha");
    const beta = await instance("beta");
    const gamma = await instance("gamma");
    expect(alpha.events).toEqual(["lead"]);
    expect(beta.events).toEqual([]);
    expect(gamma.events).toEqual([]);
    for (const { election } of [alpha, beta, gamma]) expect((await election.role()).leaderInstance).toBe("alpha");
    expect(await beta.election.role()).toEqual({ instance: "beta", leader: false, leaderInstance: "alpha" });
    expect(await alpha.election.role()).toEqual({ instance: "alpha", leader: true, leaderInstance: "alpha" });

    // The leader's session ends (as when its process is killed): it stops at once, one standby takes over.
    const pid = await lockHolderPid();
    expect(pid).toBeDefined();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await admin.end();
    await until(() => alpha.events.includes("abdicate"), 5000);
    await until(() => beta.election.leader() || gamma.election.leader(), 5000);
    // Exactly one: the other stays a standby, and everyone names the new leader.
    await new Promise((r) => setTimeout(r, 600));
    const leaders = [alpha, beta, gamma].filter((i) => i.election.leader());
    expect(leaders).toHaveLength(1);
    const leader = leaders[0]!;
    expect(leader.events).toEqual(["lead"]);
    const name = (await leader.election.role()).instance;
    expect(name).not.toBe("alpha");
    for (const { election } of [alpha, beta, gamma]) expect((await election.role()).leaderInstance).toBe(name);

    // A graceful stop hands over too; the row names the next leader, never a stopped one.
    await leader.election.stop();
    expect(leader.events).toEqual(["lead", "abdicate"]);
    const rest = [alpha, beta, gamma].filter((i) => i !== leader);
    await until(() => rest.some((i) => i.election.leader()), 5000);
    const next = rest.find((i) => i.election.leader())!;
    expect((await next.election.role()).leaderInstance).toBe((await next.election.role()).instance);
  });
});

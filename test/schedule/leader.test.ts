// The scheduler's election on a real PostgreSQL server (test/support/postgres.ts): exactly one of
// several instances leads; a standby takes over when the leader's session ends (its process killed,
// here: its backend terminated), and a leader whose lock connection is lost stops at once; a
// graceful stop hands over and clears the leader row. Publishes from two hosts take turns on the
// database's publish lock, which a killed holder's session gives back.
import { hostname } from "node:os";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";

import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { withPublishLock } from "../../src/publish/lock.js";
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

describe.skipIf(skipPostgres)(
  "one scheduler and one publisher at a time on a shared database",
  { timeout: 60_000 },
  () => {
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

    it("publishes through two stores take turns on the database's lock; a holder's ended session frees it", async () => {
      const [one, two] = [(await openStore(url)) as PostgresStore, (await openStore(url)) as PostgresStore];
      stores.push(one, two);
      const dir = "/nonexistent-out"; // the database's lock is taken instead of a file's: no file is touched
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const first = withPublishLock({ outDir: dir, store: one }, async () => {
        entered();
        await holding;
        return "first";
      });
      await inside;
      await expect(
        withPublishLock({ outDir: dir, store: two }, () => Promise.resolve("too early"), 300),
      ).rejects.toThrow("another publish holds the database's publish lock");
      const second = withPublishLock({ outDir: dir, store: two }, () => Promise.resolve("second"), 10_000);
      release();
      expect(await first).toBe("first");
      expect(await second).toBe("second");

      // A holder whose session ends (its process killed) holds nothing.
      let blocked!: () => void;
      const held = new Promise<void>((r) => (blocked = r));
      let finish!: (value: string) => void;
      const killed = withPublishLock({ outDir: dir, store: one }, () => {
        blocked();
        return new Promise<string>((r) => (finish = r));
      });
      await held;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(
        "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = 2 and objsubid = 2 and granted",
      );
      await admin.end();
      expect(await withPublishLock({ outDir: dir, store: two }, () => Promise.resolve("after"), 5000)).toBe("after");
      // Its work still ends normally (its session is gone; that connection is dropped, never reused).
      finish("done anyway");
      expect(await killed).toBe("done anyway");
    });

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
  },
);

describe("the leader's settings", () => {
  it("EXRATES_INSTANCE_ID names the instance (default host-pid); EXRATES_LEADER_RETRY_SECONDS is checked", () => {
    expect(loadConfig({}).instanceId).toBe(`${hostname()}-${process.pid}`);
    expect(loadConfig({}).leaderRetryMs).toBe(5000);
    expect(loadConfig({ EXRATES_INSTANCE_ID: "eu-1" }).instanceId).toBe("eu-1");
    expect(loadConfig({ EXRATES_LEADER_RETRY_SECONDS: "0.5" }).leaderRetryMs).toBe(500);
    for (const bad of ["0", "abc", "-1", "5000"])
      expect(() => loadConfig({ EXRATES_LEADER_RETRY_SECONDS: bad })).toThrow(
        `EXRATES_LEADER_RETRY_SECONDS "${bad}" is not a number of seconds from 0.1 to 3600`,
      );
  });
});

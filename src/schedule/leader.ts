// One scheduler at a time on a shared PostgreSQL database. Every `exrates start` contends for a
// session-level advisory lock (src/store/advisory-lock.ts) on a connection of its own, held for as
// long as it leads: the server drops the lock when that connection ends, however the process ended
// (kill -9 included), and a standby that tries again every few seconds takes it then. The leader
// writes its instance id into `scheduler_leader` (migration 006) for `/v1/status`, and checks its
// connection at the same interval: when the connection is lost, it stops scheduling at once (another
// instance may be taking over) and goes back to contending. On SQLite there is no election: the
// data directory's daemon lock (daemon-lock.ts) lets only one daemon run at all.
import type { Kysely } from "kysely";
import type { Pool, PoolClient } from "pg";

import { describeError } from "../errors.js";
import type { Logger } from "../log.js";
import { advisoryLockHeld, advisoryUnlock, tryAdvisoryLock } from "../store/advisory-lock.js";
import type { Database } from "../store/schema.js";

/** `/v1/status`'s `scheduler`: who this instance is, whether it leads, and who does. */
export interface SchedulerRole {
  instance: string;
  leader: boolean;
  /** null when no instance leads right now (the leader died and no standby has taken over yet). */
  leaderInstance: string | null;
}

/** How long a standby waits between two tries, and a leader between two checks of its connection. */
export const DEFAULT_LEADER_RETRY_MS = 5000;
/** A check of the lock's connection that takes longer than this counts as a lost connection. */
const CHECK_TIMEOUT_MS = 5000;
const LEADER_ROW = 1;

export interface ElectionOptions {
  pool: Pool;
  db: Kysely<Database>;
  instance: string;
  log: Logger;
  retryMs?: number;
  /** This instance has taken the lead: start scheduling (and catch up). A throw gives the lead back. */
  lead: () => Promise<void>;
  /** This instance no longer leads (its lock's connection was lost, or it stops): stop scheduling. */
  abdicate: () => Promise<void>;
}

export interface Election {
  /** Contends now, then every retry interval. */
  start(): Promise<void>;
  leader(): boolean;
  role(): Promise<SchedulerRole>;
  /** Stops contending; a leader stops scheduling, gives the lock back and clears its row. */
  stop(): Promise<void>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createElection(options: ElectionOptions): Election {
  const { pool, db, instance, log } = options;
  const retryMs = options.retryMs ?? DEFAULT_LEADER_RETRY_MS;
  let connection: PoolClient | undefined;
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;
  /** After a lost connection, this instance does not contend before then. */
  let heldOffUntil = 0;
  /** The lead changing hands here (a start or a stop of the scheduler), awaited by stop(). */
  let transition: Promise<void> = Promise.resolve();

  async function connect(): Promise<PoolClient> {
    if (connection) return connection;
    const client = await pool.connect();
    let released = false;
    // Stays attached after the release: a destroyed client may still emit an error, never unhandled.
    const drop = (error: Error) => {
      if (connection === client) connection = undefined;
      lose(error);
      if (!released) {
        released = true;
        // Destroyed, not returned to the pool: a session that held the lock must end with it.
        try {
          client.release(error);
        } catch (releaseError) {
          log.debug({ err: describeError(releaseError) }, "releasing the lost lock connection failed");
        }
      }
    };
    client.on("error", drop);
    client.on("end", () => drop(new Error("the connection ended")));
    connection = client;
    return client;
  }

  function lose(error: Error): void {
    if (!leading) return;
    leading = false;
    // Its connection is suspect: a standby should take over rather than this instance at once.
    heldOffUntil = Date.now() + 2 * retryMs;
    log.error(
      { instance, err: describeError(error) },
      "lost the connection holding the scheduler lock: scheduling stops here (a standby may take over)",
    );
    transition = transition.then(() => options.abdicate().catch(logFailure("stopping the scheduler")));
  }

  const logFailure = (what: string) => (error: unknown) => log.error({ err: describeError(error) }, `${what} failed`);

  async function contend(): Promise<void> {
    if (stopped || (!leading && Date.now() < heldOffUntil)) return;
    let client: PoolClient | undefined;
    try {
      client = await connect();
      if (leading) {
        await withTimeout(client.query("select 1"), CHECK_TIMEOUT_MS, "checking the scheduler lock's connection");
        return;
      }
      if (!(await tryAdvisoryLock(client, "scheduler"))) return;
    } catch (error) {
      // A failed check or try: the connection is suspect; a new one is made at the next try.
      if (client && connection === client) client.emit("error", error);
      else log.warn({ err: describeError(error) }, "cannot contend for the scheduler lock; trying again");
      return;
    }
    if (stopped) return void (await advisoryUnlock(client, "scheduler").catch(() => undefined));
    leading = true;
    const since = new Date().toISOString();
    await db
      .insertInto("scheduler_leader")
      .values({ id: LEADER_ROW, instance, since })
      .onConflict((oc) => oc.column("id").doUpdateSet({ instance, since }))
      .execute()
      .catch(logFailure("recording the scheduler's leader"));
    log.info({ instance }, "this instance leads the scheduler");
    const started = transition.then(() => options.lead());
    transition = started.catch(() => undefined);
    try {
      await started;
    } catch (error) {
      logFailure("starting the scheduler")(error);
      leading = false;
      await advisoryUnlock(client, "scheduler").catch(() => undefined);
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      tick = contend().finally(schedule);
    }, retryMs);
    timer.unref();
  }

  return {
    async start() {
      tick = contend();
      await tick;
      schedule();
    },
    leader: () => leading,
    async role() {
      if (leading) return { instance, leader: true, leaderInstance: instance };
      const [row, held] = await Promise.all([
        db.selectFrom("scheduler_leader").select("instance").where("id", "=", LEADER_ROW).executeTakeFirst(),
        advisoryLockHeld(db, "scheduler"),
      ]);
      return { instance, leader: false, leaderInstance: held ? (row?.instance ?? null) : null };
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await tick?.catch(() => undefined);
      if (leading) {
        leading = false;
        transition = transition.then(() => options.abdicate().catch(logFailure("stopping the scheduler")));
        await transition;
        await db
          .deleteFrom("scheduler_leader")
          .where("id", "=", LEADER_ROW)
          .where("instance", "=", instance)
          .execute()
          .catch(logFailure("clearing the scheduler's leader"));
      }
      await transition;
      const client = connection;
      connection = undefined;
      if (client) {
        client.removeAllListeners("end");
        client.removeAllListeners("error");
        client.on("error", () => undefined);
        // Ending the session gives the lock back.
        client.release(true);
      }
    },
  };
}

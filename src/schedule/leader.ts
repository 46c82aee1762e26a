// One scheduler at a time on a shared PostgreSQL database. Every `exrates start` contends for a
// session-level advisory lock (src/store/advisory-lock.ts) on a connection of its own, held for as
// long as it leads: the server drops the lock when that connection ends, however the process ended
// (kill -9 included), and a standby that tries again every few seconds takes it then. The leader
// writes its instance id into `scheduler_leader` (migration 006) for `/v1/status`, and checks its
// connection at the same interval: when the connection is lost, it stops scheduling at once (another
// instance may be taking over) and goes back to contending. On SQLite there is no election: the
// data directory's daemon lock (daemon-lock.ts) lets only one daemon run at all.
import type { Kysely } from "../store/kysely.js";
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
  const contender = new Contender(options);
  return {
    start: () => contender.start(),
    leader: () => contender.leading,
    role: () => contender.role(),
    stop: () => contender.stop(),
  };
}

/** One instance's part in the election: its lock connection, whether it leads, and its retry timer. */
class Contender {
  private readonly instance: string;
  private readonly retryMs: number;
  private connection: PoolClient | undefined;
  leading = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  /** After a lost connection, this instance does not contend before then. */
  private heldOffUntil = 0;
  /** The lead changing hands here (a start or a stop of the scheduler), awaited by stop(). */
  private transition: Promise<void> = Promise.resolve();

  constructor(private readonly options: ElectionOptions) {
    this.instance = options.instance;
    this.retryMs = options.retryMs ?? DEFAULT_LEADER_RETRY_MS;
  }

  private readonly logFailure = (what: string) => (error: unknown) =>
    this.options.log.error({ err: describeError(error) }, `${what} failed`);

  private async connect(): Promise<PoolClient> {
    if (this.connection) return this.connection;
    const client = await this.options.pool.connect();
    let released = false;
    // Stays attached after the release: a destroyed client may still emit an error, never unhandled.
    const drop = (error: Error) => {
      if (this.connection === client) this.connection = undefined;
      this.lose(error);
      if (!released) {
        released = true;
        // Destroyed, not returned to the pool: a session that held the lock must end with it.
        try {
          client.release(error);
        } catch (releaseError) {
          this.options.log.debug({ err: describeError(releaseError) }, "releasing the lost lock connection failed");
        }
      }
    };
    client.on("error", drop);
    client.on("end", () => drop(new Error("the connection ended")));
    this.connection = client;
    return client;
  }

  private lose(error: Error): void {
    if (!this.leading) return;
    this.leading = false;
    // Its connection is suspect: a standby should take over rather than this instance at once.
    this.heldOffUntil = Date.now() + 2 * this.retryMs;
    this.options.log.error(
      { instance: this.instance, err: describeError(error) },
      "lost the connection holding the scheduler lock: scheduling stops here (a standby may take over)",
    );
    this.abdicateNext();
  }

  /** Queues the scheduler's stop after whatever change of hands is under way. */
  private abdicateNext(): void {
    this.transition = this.transition.then(() =>
      this.options.abdicate().catch(this.logFailure("stopping the scheduler")),
    );
  }

  /** A leader checks its connection; a standby tries the lock and takes the lead when it gets it. */
  private async contend(): Promise<void> {
    if (this.stopped || (!this.leading && Date.now() < this.heldOffUntil)) return;
    const client = await this.tryLock();
    if (!client) return;
    if (this.stopped) return void (await advisoryUnlock(client, "scheduler").catch(() => undefined));
    await this.takeLead(client);
  }

  /** The connection that has just taken the lock; undefined when this instance already leads or did not get it. */
  private async tryLock(): Promise<PoolClient | undefined> {
    let client: PoolClient | undefined;
    try {
      client = await this.connect();
      if (this.leading) {
        await withTimeout(client.query("select 1"), CHECK_TIMEOUT_MS, "checking the scheduler lock's connection");
        return undefined;
      }
      return (await tryAdvisoryLock(client, "scheduler")) ? client : undefined;
    } catch (error) {
      // A failed check or try: the connection is suspect; a new one is made at the next try.
      if (client && this.connection === client) client.emit("error", error);
      else this.options.log.warn({ err: describeError(error) }, "cannot contend for the scheduler lock; trying again");
      return undefined;
    }
  }

  /** Records this instance as the leader and starts the scheduler; a failed start gives the lock back. */
  private async takeLead(client: PoolClient): Promise<void> {
    const db = this.options.db;
    const instance = this.instance;
    this.leading = true;
    const since = new Date().toISOString();
    await db
      .insertInto("scheduler_leader")
      .values({ id: LEADER_ROW, instance, since })
      .onConflict((oc) => oc.column("id").doUpdateSet({ instance, since }))
      .execute()
      .catch(this.logFailure("recording the scheduler's leader"));
    this.options.log.info({ instance }, "this instance leads the scheduler");
    const started = this.transition.then(() => this.options.lead());
    this.transition = started.catch(() => undefined);
    try {
      await started;
    } catch (error) {
      this.logFailure("starting the scheduler")(error);
      this.leading = false;
      await advisoryUnlock(client, "scheduler").catch(() => undefined);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick = this.contend().finally(() => this.schedule());
    }, this.retryMs);
    this.timer.unref();
  }

  async start(): Promise<void> {
    this.tick = this.contend();
    await this.tick;
    this.schedule();
  }

  async role(): Promise<SchedulerRole> {
    const db = this.options.db;
    const instance = this.instance;
    if (this.leading) return { instance, leader: true, leaderInstance: instance };
    const [row, held] = await Promise.all([
      db.selectFrom("scheduler_leader").select("instance").where("id", "=", LEADER_ROW).executeTakeFirst(),
      advisoryLockHeld(db, "scheduler"),
    ]);
    return { instance, leader: false, leaderInstance: held ? (row?.instance ?? null) : null };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick?.catch(() => undefined);
    if (this.leading) {
      this.leading = false;
      this.abdicateNext();
      await this.transition;
      await this.options.db
        .deleteFrom("scheduler_leader")
        .where("id", "=", LEADER_ROW)
        .where("instance", "=", this.instance)
        .execute()
        .catch(this.logFailure("clearing the scheduler's leader"));
    }
    await this.transition;
    this.releaseConnection();
  }

  /** Ends the lock's session, which gives the lock back; errors of the ended client are ignored. */
  private releaseConnection(): void {
    const client = this.connection;
    this.connection = undefined;
    if (client) {
      client.removeAllListeners("end");
      client.removeAllListeners("error");
      client.on("error", () => undefined);
      client.release(true);
    }
  }
}

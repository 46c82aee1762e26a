// `GET /v1/events`: server-sent events, one `rates.published` event per publication recorded by the
// publisher (src/events/publication.ts), whichever process published. The server learns of them by
// polling its own read-only connection: `PRAGMA data_version` (a counter SQLite moves when another
// connection commits) every `pollMs` while anyone listens, and the events table only when it moved.
// On a shared PostgreSQL database, the events after the newest one seen are read through the store
// (a range of the primary key) every `pollMs` (250 ms by default there) while anyone listens.
// `Last-Event-ID` replays what a reconnecting client missed (events are kept RETENTION_DAYS);
// `?banks=ECB,CNB` filters; a comment every `keepAliveMs` keeps proxies from cutting an idle stream;
// when the client's token expires it gets a `token.expired` event and the stream ends.
import type { IncomingMessage, ServerResponse } from "node:http";

import BetterSqlite3 from "better-sqlite3";
import { decodeJwt } from "jose";

import type { Logger } from "../../../log.js";
import type { Store } from "../../../store/database.js";
import { eventPayload, toEvent, type StoredEvent } from "../../../store/events.js";
import { sendProblem } from "../../http/respond.js";
import type { ApiHandlers } from "../../routes.js";

export interface EventsOptions {
  databasePath: string;
  /** A shared PostgreSQL store: events are read through it instead of a SQLite file. */
  shared?: Store;
  /** The API's base URL: the events' Latest paths are made absolute with it. */
  publicUrl: string;
  log: Logger;
  now?: () => number;
  /** How often the store is checked for new events while a client listens (ms). */
  pollMs?: number;
  /** How often an idle stream gets a comment (ms). */
  keepAliveMs?: number;
  /**
   * Called before new events go out: the server loads the published tree they announce, so that a
   * subscriber who reacts at once reads the new files from this server (another process may have
   * published, and the tree's own poller runs less often than this one).
   */
  beforeSend?: () => Promise<void>;
}

/** A stream whose client reads slower than events come is dropped past this many unsent bytes. */
const MAX_BUFFERED = 1 << 20;
const BANK_ID = /^[A-Za-z0-9]{2,10}$/;
/** Events replayed on one reconnection at most (the rest follow as the stream goes on). */
const REPLAY_LIMIT = 10_000;

interface Subscriber {
  res: ServerResponse;
  banks: Set<string> | undefined;
  /** The newest event id this client has (been sent or was past when it connected): no event twice. */
  sentUpTo: number;
  timers: NodeJS.Timeout[];
}

export interface EventStream {
  handle(req: IncomingMessage, res: ServerResponse, head: boolean, query: string): void;
  /** Subscribers connected now. */
  size(): number;
  /** Checks for new events now (tests; the timer does it while anyone listens). */
  poll(): Promise<void>;
  close(): void;
}

/** Where the events are read: SQLite's file (synchronously) or a shared store (through its pool). */
interface EventReader {
  /** False when nothing can have changed since the last call (SQLite's data_version did not move). */
  changed(): boolean | Promise<boolean>;
  after(id: number, limit: number): EventRow[] | Promise<EventRow[]>;
  newestId(): number | Promise<number>;
  close(): void;
}

/** The read-only SQLite connection, or undefined while the database does not exist yet. */
function sqliteReader(path: string): EventReader | undefined {
  let conn: BetterSqlite3.Database;
  try {
    conn = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    conn.pragma("busy_timeout = 2000");
  } catch {
    return undefined;
  }
  const after = conn.prepare<[number, number], EventRow>(
    "SELECT id, type, payload, created_at FROM events WHERE id > ? ORDER BY id LIMIT ?",
  );
  let dataVersion = -1;
  return {
    changed() {
      const version = conn.pragma("data_version", { simple: true }) as number;
      if (version === dataVersion) return false;
      dataVersion = version;
      return true;
    },
    after: (id, limit) => after.all(id, limit),
    newestId: () => conn.prepare<[], { id: number | null }>("SELECT max(id) AS id FROM events").get()?.id ?? 0,
    close: () => conn.close(),
  };
}

function sharedReader(store: Store): EventReader {
  return {
    changed: () => true,
    after: (id, limit) =>
      store.db
        .selectFrom("events")
        .select(["id", "type", "payload", "created_at"])
        .where("id", ">", id)
        .orderBy("id")
        .limit(limit)
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, id: Number(r.id) }))),
    newestId: () =>
      store.db
        .selectFrom("events")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
        .then((row) => Number(row?.id ?? 0)),
    close: () => undefined,
  };
}

export function createEventStream(options: EventsOptions): EventStream {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? (options.shared ? 250 : 50);
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const subscribers = new Set<Subscriber>();
  let reader: EventReader | undefined;
  let lastId = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Frames go out in order, each batch after `beforeSend` has settled. */
  let sending: Promise<void> = Promise.resolve();
  /** Polls and new subscribers' set-ups run one at a time, so that no event falls between them. */
  let exclusive: Promise<unknown> = Promise.resolve();
  const serially = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = exclusive.then(fn);
    exclusive = run.catch(() => undefined);
    return run;
  };

  /** The reader, opened on first use (a SQLite database may not exist yet). */
  function open(): EventReader | undefined {
    reader ??= options.shared ? sharedReader(options.shared) : sqliteReader(options.databasePath);
    return reader;
  }

  async function pollNow(): Promise<void> {
    const source = open();
    if (!source) return;
    try {
      if (!(await source.changed())) return;
      const frames: Array<{ id: number; bankId: string; bytes: Buffer }> = [];
      for (;;) {
        const rows = await source.after(lastId, 1000);
        for (const row of rows) {
          lastId = row.id;
          frames.push(eventFrame(toEvent(row)));
        }
        if (rows.length < 1000) break;
      }
      if (frames.length === 0) return;
      const ready = options.beforeSend?.().catch((error: Error) => {
        options.log.warn({ err: error.message }, "events: loading the published tree before sending failed");
      });
      sending = sending
        .then(() => ready)
        .then(() => {
          for (const frame of frames) for (const s of subscribers) send(s, frame);
        });
    } catch (error) {
      options.log.warn({ err: (error as Error).message }, "events: reading the store failed");
    }
  }

  let polling = false;
  function poll(): Promise<void> {
    // A tick while the previous poll still reads is skipped (a slow database never piles them up).
    if (polling) return exclusive.then(() => undefined);
    polling = true;
    return serially(pollNow).finally(() => (polling = false));
  }

  /** An event as written to every subscriber: encoded once. */
  function eventFrame(event: StoredEvent): { id: number; bankId: string; bytes: Buffer } {
    const data = JSON.stringify(eventPayload(event, options.publicUrl));
    return {
      id: event.id,
      bankId: event.data.bankId,
      bytes: Buffer.from(`id: ${event.id}\nevent: ${event.type}\ndata: ${data}\n\n`),
    };
  }

  function send(s: Subscriber, frame: { id: number; bankId: string; bytes: Buffer }): void {
    if (frame.id <= s.sentUpTo) return;
    s.sentUpTo = frame.id;
    if (s.banks && !s.banks.has(frame.bankId)) return;
    if (s.res.writableLength > MAX_BUFFERED) {
      options.log.warn({ event: "events.slow-client" }, "events: a client reading too slowly was dropped");
      s.res.destroy();
      return;
    }
    s.res.write(frame.bytes);
  }

  function drop(s: Subscriber): void {
    if (!subscribers.delete(s)) return;
    for (const t of s.timers) clearTimeout(t);
    if (subscribers.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    handle(req, res, head, query) {
      const params = new URLSearchParams(query);
      let banks: Set<string> | undefined;
      const banksParam = params.get("banks");
      if (banksParam !== null) {
        const ids = banksParam.split(",").filter(Boolean);
        if (ids.length === 0 || !ids.every((id) => BANK_ID.test(id)))
          return sendProblem(res, 400, { detail: "banks must be a comma-separated list of bank ids", head });
        banks = new Set(ids.map((id) => id.toUpperCase()));
      }
      const lastEventId = req.headers["last-event-id"];
      let replayFrom: number | undefined;
      if (typeof lastEventId === "string" && lastEventId.trim() !== "") {
        if (!/^\d{1,15}$/.test(lastEventId.trim()))
          return sendProblem(res, 400, { detail: "Last-Event-ID must be an event id", head });
        replayFrom = Number(lastEventId.trim());
      }
      const source = open();
      if (!source)
        return sendProblem(res, 503, { detail: "No event store yet", headers: { "retry-after": "5" }, head });

      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
      });
      if (head) return void res.end();
      // The server's idle timeout is for requests; this response is meant to stay open.
      req.socket.setTimeout(0);
      res.write(`retry: 3000\n\n`);
      void serially(() => subscribe(source, req, res, banks, replayFrom));
    },
    size: () => subscribers.size,
    poll,
    close() {
      for (const s of [...subscribers]) {
        drop(s);
        s.res.end();
      }
      if (timer) clearInterval(timer);
      timer = undefined;
      reader?.close();
      reader = undefined;
    },
  };

  /** Replays what the client missed and adds it to the subscribers (run serially with the polls). */
  async function subscribe(
    source: EventReader,
    req: IncomingMessage,
    res: ServerResponse,
    banks: Set<string> | undefined,
    replayFrom: number | undefined,
  ): Promise<void> {
    let catchUp: StoredEvent[] = [];
    try {
      if (subscribers.size === 0) {
        // Nobody listened, nothing was polled: start from what is there now.
        await pollNow();
        lastId = Math.max(lastId, await source.newestId());
        await source.changed();
      }
      if (replayFrom !== undefined && replayFrom < lastId) {
        const upTo = lastId;
        catchUp = (await source.after(replayFrom, REPLAY_LIMIT)).filter((r) => r.id <= upTo).map(toEvent);
      }
    } catch (error) {
      options.log.warn({ err: (error as Error).message }, "events: reading the store failed");
    }
    if (res.destroyed) return;
    // Events up to lastId were sent before this client came (or are replayed now); a batch still
    // waiting for the tree goes to it only for later ids.
    const s: Subscriber = { res, banks, timers: [], sentUpTo: replayFrom ?? lastId };
    for (const event of catchUp) send(s, eventFrame(event));
    subscribers.add(s);
    timer ??= setInterval(() => void poll(), pollMs);
    timer.unref();

    s.timers.push(setInterval(() => res.write(": keep-alive\n\n"), keepAliveMs).unref());
    const expiresAt = tokenExpiry(req.headers.authorization);
    if (expiresAt !== undefined) {
      const expire = () => {
        const data = JSON.stringify({ detail: "The access token has expired; reconnect with a new one" });
        res.end(`event: token.expired\ndata: ${data}\n\n`);
        drop(s);
      };
      // setTimeout holds at most 2^31-1 ms; a token living longer is checked again then.
      const arm = (): void => {
        const wait = expiresAt - now();
        if (wait <= 0) return expire();
        s.timers.push(setTimeout(wait > 0x7fffffff ? arm : expire, Math.min(wait, 0x7fffffff)).unref());
      };
      arm();
    }
    res.on("close", () => drop(s));
  }
}

interface EventRow {
  id: number;
  type: string;
  payload: string;
  created_at: string;
}

/** When the (already verified) bearer token expires, epoch ms. */
function tokenExpiry(authorization: string | undefined): number | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!token) return undefined;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The API handlers with `GET /v1/events` added. */
export function withEvents(api: ApiHandlers, stream: EventStream): ApiHandlers {
  return { ...api, events: (req, res, head, query) => stream.handle(req, res, head, query) };
}

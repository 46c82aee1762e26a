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

import { decodeJwt } from "jose";

import type { Logger } from "../../../log.js";
import type { Store } from "../../../store/database.js";
import { eventPayload, toEvent, type StoredEvent } from "../../../store/events.js";
import type { Handler, ServeContext } from "../../context.js";
import { keepOpen } from "../../http/idle.js";
import { PROBLEM_TYPES, sendProblem } from "../../http/respond.js";
import { sharedReader, sqliteReader, type EventReader } from "./readers.js";

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
  /** The client's address (behind trusted proxies, the one they name); default: the socket's. */
  clientAddress?: (req: IncomingMessage) => string;
  /** Streams open at once per bearer token (default 4) and per client address (default 16). */
  streamsPerToken?: number;
  streamsPerAddress?: number;
}

/** The route's handler: the stream of the context (built by server.ts), for banks that exist. */
export const events: Handler = async (ctx, req, res, head, _route, query) => {
  const unknown = query ? await unknownBanks(ctx, query) : [];
  if (unknown.length) {
    const detail = `Unknown bank${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} in banks`;
    return sendProblem(res, 400, { type: PROBLEM_TYPES.unknownBank, detail, extra: { unknown }, head });
  }
  ctx.events.handle(req, res, head, query);
};

/** The well-formed ids of `banks` that name no bank the service knows (published or among the adapters). */
async function unknownBanks(ctx: ServeContext, query: string): Promise<string[]> {
  const ids = (new URLSearchParams(query).get("banks") ?? "").split(",").filter((id) => BANK_ID.test(id));
  if (ids.length === 0) return [];
  const tree = ctx.tree();
  const unpublished = ids.map((id) => id.toUpperCase()).filter((id) => !tree?.banks.has(id));
  // The adapters are loaded only for an id the published tree does not name.
  if (unpublished.length === 0) return [];
  const known = await ctx.knownBanks();
  return unpublished.filter((id) => !known.has(id));
}

/** A stream whose client reads slower than events come is dropped past this many unsent bytes. */
const MAX_BUFFERED = 1 << 20;
const BANK_ID = /^[A-Za-z0-9]{2,10}$/;
/** Events replayed on one reconnection at most (the rest follow as the stream goes on). */
const REPLAY_LIMIT = 10_000;
/** Events read per query while polling. */
const BATCH = 1000;
/** setTimeout holds at most 2^31-1 ms. */
const MAX_TIMEOUT = 0x7fffffff;

interface Subscriber {
  res: ServerResponse;
  banks: Set<string> | undefined;
  /** The newest event id this client has (been sent or was past when it connected): no event twice. */
  sentUpTo: number;
  timers: NodeJS.Timeout[];
}

/** An event as written to every subscriber: encoded once. */
interface Frame {
  id: number;
  bankId: string;
  bytes: Buffer;
}

export interface EventStream {
  handle(req: IncomingMessage, res: ServerResponse, head: boolean, query: string): void;
  /** Subscribers connected now. */
  size(): number;
  /** Checks for new events now (tests; the timer does it while anyone listens). */
  poll(): Promise<void>;
  close(): void;
}

export function createEventStream(options: EventsOptions): EventStream {
  return new Stream(options);
}

/** What a stream request asks for: the banks filter and where to replay from, or why it is refused. */
function readStreamRequest(
  req: IncomingMessage,
  query: string,
): { banks: Set<string> | undefined; replayFrom: number | undefined } | { refused: string } {
  const params = new URLSearchParams(query);
  let banks: Set<string> | undefined;
  const banksParam = params.get("banks");
  if (banksParam !== null) {
    const ids = banksParam.split(",").filter(Boolean);
    if (ids.length === 0 || !ids.every((id) => BANK_ID.test(id)))
      return { refused: "banks must be a comma-separated list of bank ids" };
    banks = new Set(ids.map((id) => id.toUpperCase()));
  }
  const lastEventId = req.headers["last-event-id"];
  let replayFrom: number | undefined;
  if (typeof lastEventId === "string" && lastEventId.trim() !== "") {
    if (!/^\d{1,15}$/.test(lastEventId.trim())) return { refused: "Last-Event-ID must be an event id" };
    replayFrom = Number(lastEventId.trim());
  }
  return { banks, replayFrom };
}

class Stream implements EventStream {
  private readonly now: () => number;
  private readonly pollMs: number;
  private readonly keepAliveMs: number;
  private readonly subscribers = new Set<Subscriber>();
  private reader: EventReader | undefined;
  private lastId = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Frames go out in order, each batch after `beforeSend` has settled. */
  private sending: Promise<void> = Promise.resolve();
  /** Polls and new subscribers' set-ups run one at a time, so that no event falls between them. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private polling = false;
  /** Open streams per bearer token and per client address. */
  private readonly byToken = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly options: EventsOptions) {
    this.now = options.now ?? Date.now;
    this.pollMs = options.pollMs ?? (options.shared ? 250 : 50);
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
  }

  handle(req: IncomingMessage, res: ServerResponse, head: boolean, query: string): void {
    const asked = readStreamRequest(req, query);
    if ("refused" in asked) return sendProblem(res, 400, { detail: asked.refused, head });
    const source = this.open();
    if (!source) return sendProblem(res, 503, { detail: "No event store yet", headers: { "retry-after": "5" }, head });
    if (head) return this.open200(res, head);
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const address = this.options.clientAddress?.(req) ?? req.socket.remoteAddress ?? "";
    const tooMany =
      (this.byToken.get(token) ?? 0) >= (this.options.streamsPerToken ?? 4)
        ? "this token"
        : (this.byAddress.get(address) ?? 0) >= (this.options.streamsPerAddress ?? 16)
          ? "this address"
          : undefined;
    if (tooMany) {
      const detail = `Too many event streams are open for ${tooMany}; close one first`;
      return sendProblem(res, 429, { detail, headers: { "retry-after": "30" }, head });
    }
    count(this.byToken, token, 1);
    count(this.byAddress, address, 1);
    res.once("close", () => {
      count(this.byToken, token, -1);
      count(this.byAddress, address, -1);
    });
    this.open200(res, head);
    // The server's idle sweep is for requests; this response is meant to stay open, so a peer that
    // vanished is found by TCP keep-alive probes instead.
    keepOpen(req.socket);
    req.socket.setKeepAlive(true, 30_000);
    res.write(`retry: 3000\n\n`);
    void this.serially(() => this.subscribe(source, req, res, asked.banks, asked.replayFrom));
  }

  private open200(res: ServerResponse, head: boolean): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
      "x-content-type-options": "nosniff",
    });
    if (head) res.end();
  }

  size(): number {
    return this.subscribers.size;
  }

  poll(): Promise<void> {
    // A tick while the previous poll still reads is skipped (a slow database never piles them up).
    if (this.polling) return this.exclusive.then(() => undefined);
    this.polling = true;
    return this.serially(() => this.pollNow()).finally(() => (this.polling = false));
  }

  close(): void {
    for (const s of [...this.subscribers]) {
      this.drop(s);
      s.res.end();
    }
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.reader?.close();
    this.reader = undefined;
  }

  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.exclusive.then(fn);
    this.exclusive = run.catch(() => undefined);
    return run;
  }

  /** The reader, opened on first use (a SQLite database may not exist yet). */
  private open(): EventReader | undefined {
    this.reader ??= this.options.shared ? sharedReader(this.options.shared) : sqliteReader(this.options.databasePath);
    return this.reader;
  }

  private async pollNow(): Promise<void> {
    const source = this.open();
    if (!source) return;
    try {
      if (!(await source.changed())) return;
      const frames: Frame[] = [];
      for (;;) {
        const rows = await source.after(this.lastId, BATCH);
        for (const row of rows) {
          this.lastId = row.id;
          frames.push(this.frame(toEvent(row)));
        }
        if (rows.length < BATCH) break;
      }
      if (frames.length === 0) return;
      const ready = this.options.beforeSend?.().catch((error: Error) => {
        this.options.log.warn({ err: error.message }, "events: loading the published tree before sending failed");
      });
      this.sending = this.sending
        .then(() => ready)
        .then(() => {
          for (const frame of frames) for (const s of this.subscribers) this.send(s, frame);
        });
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, "events: reading the store failed");
    }
  }

  private frame(event: StoredEvent): Frame {
    const data = JSON.stringify(eventPayload(event, this.options.publicUrl));
    return {
      id: event.id,
      bankId: event.data.bankId,
      bytes: Buffer.from(`id: ${event.id}\nevent: ${event.type}\ndata: ${data}\n\n`),
    };
  }

  private send(s: Subscriber, frame: Frame): void {
    if (frame.id <= s.sentUpTo) return;
    s.sentUpTo = frame.id;
    if (s.banks && !s.banks.has(frame.bankId)) return;
    if (s.res.writableLength > MAX_BUFFERED) {
      this.options.log.warn({ event: "events.slow-client" }, "events: a client reading too slowly was dropped");
      s.res.destroy();
      return;
    }
    s.res.write(frame.bytes);
  }

  /** A comment for the proxies; a stream that could not send the previous one since is closed. */
  private keepAlive(s: Subscriber): void {
    if (s.res.writableLength > 0) {
      this.options.log.warn({ event: "events.unwritable" }, "events: a stream that cannot be written to was closed");
      this.drop(s);
      s.res.destroy();
      return;
    }
    s.res.write(": keep-alive\n\n");
  }

  private drop(s: Subscriber): void {
    if (!this.subscribers.delete(s)) return;
    for (const t of s.timers) clearTimeout(t);
    if (this.subscribers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Replays what the client missed and adds it to the subscribers (run serially with the polls). */
  private async subscribe(
    source: EventReader,
    req: IncomingMessage,
    res: ServerResponse,
    banks: Set<string> | undefined,
    replayFrom: number | undefined,
  ): Promise<void> {
    const catchUp = await this.missed(source, replayFrom);
    if (res.destroyed) return;
    // Events up to lastId were sent before this client came (or are replayed now); a batch still
    // waiting for the tree goes to it only for later ids.
    const s: Subscriber = { res, banks, timers: [], sentUpTo: replayFrom ?? this.lastId };
    for (const event of catchUp) this.send(s, this.frame(event));
    this.subscribers.add(s);
    this.timer ??= setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();

    s.timers.push(setInterval(() => this.keepAlive(s), this.keepAliveMs).unref());
    const expiresAt = tokenExpiry(req.headers.authorization);
    if (expiresAt !== undefined) this.endAt(s, expiresAt);
    res.on("close", () => this.drop(s));
  }

  /** The events after `replayFrom` up to the newest seen (starting the count when nobody listened). */
  private async missed(source: EventReader, replayFrom: number | undefined): Promise<StoredEvent[]> {
    try {
      if (this.subscribers.size === 0) {
        // Nobody listened, nothing was polled: start from what is there now.
        await this.pollNow();
        this.lastId = Math.max(this.lastId, await source.newestId());
        await source.changed();
      }
      if (replayFrom !== undefined && replayFrom < this.lastId) {
        const upTo = this.lastId;
        return (await source.after(replayFrom, REPLAY_LIMIT)).filter((r) => r.id <= upTo).map(toEvent);
      }
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, "events: reading the store failed");
    }
    return [];
  }

  /** Ends the stream with a `token.expired` event when the client's token expires. */
  private endAt(s: Subscriber, expiresAt: number): void {
    const expire = () => {
      const data = JSON.stringify({ detail: "The access token has expired; reconnect with a new one" });
      s.res.end(`event: token.expired\ndata: ${data}\n\n`);
      this.drop(s);
    };
    // A token living longer than a timer can wait is checked again then.
    const arm = (): void => {
      const wait = expiresAt - this.now();
      if (wait <= 0) return expire();
      s.timers.push(setTimeout(wait > MAX_TIMEOUT ? arm : expire, Math.min(wait, MAX_TIMEOUT)).unref());
    };
    arm();
  }
}

/** Adds `by` to a key's count, forgetting it at zero. */
function count(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
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

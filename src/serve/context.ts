// What a handler is and what it may touch. Every route of the routing table (src/serve/routes.ts) is
// a Handler: it gets the ServeContext below (the only state of the server a handler reads: built once
// by server.ts, the same object for every request), the request and response, and what the router
// read from the path. Types only: this module imports no handler, so handlers can import it freely.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { BearerChecker } from "../auth/tokens.js";
import type { SchedulerRole } from "../schedule/leader.js";
import type { Eventually, HistoryStore } from "../store/history.js";
import type { BankDescriptor, BankResource } from "../types.js";
import type { LoadedTree } from "./state/tree.js";

/** What the router read from a request's path: the route's name and the values of its parameters. */
export interface MatchedRoute {
  /** The route's name in the routing table (and its label in the metrics). */
  kind: string;
  /** `{bankId}`, upper case. */
  id?: string;
  /** `{date}`: the segment as written (a handler checks it; the router only sees that it starts with a digit). */
  date?: string;
  /** `{.format}`: what follows the segment's first dot, as written; undefined without a dot. */
  suffix?: string;
  /** `{realm}`: a realm's name, as written. */
  realm?: string;
  /** `{rest...}`: the segments after the pattern's fixed ones. */
  rest?: string[];
}

/**
 * Answers one request. `head`: a HEAD request, to be answered without a body; `query`: the request
 * target after `?` (undecoded). A handler that throws or rejects gets a 500 (or its connection closed
 * when its headers are out already).
 */
export type Handler = (
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  route: MatchedRoute,
  query: string,
) => void | Promise<void>;

/** A realm endpoint whose answer names the issuer of the path it was asked under (`plain`: /realms/...). */
export type RealmHandler = (req: IncomingMessage, res: ServerResponse, head: boolean, plain: boolean) => void;

/**
 * The embedded SSO's endpoints (src/serve/resources/realm.ts), or the external issuer that replaces
 * them (EXRATES_OIDC_ISSUER).
 */
export type SsoEndpoints =
  | {
      embedded: true;
      /** The realm served. */
      realm: string;
      token: (req: IncomingMessage, res: ServerResponse, plain: boolean) => Promise<void>;
      discovery: RealmHandler;
      jwks: RealmHandler;
      authorization: RealmHandler;
    }
  | { embedded: false; issuer: string };

/** Everything a handler may read. Each member says where it comes from. */
export interface ServeContext {
  /** The published tree in memory (src/serve/state/), replaced whole on a publish; undefined before the first. */
  tree: () => LoadedTree | undefined;
  /**
   * The store, read-only (src/serve/state/history-source.ts): dates, ranges and lists; undefined while
   * there is no database to read.
   */
  history: () => HistoryStore | undefined;
  /** Every bank the service knows (the adapters' descriptors, loaded on first use), published or not. */
  knownBanks: () => Promise<ReadonlyMap<string, BankResource>>;
  /**
   * A bank's descriptor (its publication days, the credential it needs), from the adapters: a value
   * once they are loaded (on first use), a promise before; undefined for a bank no adapter knows.
   */
  descriptor: (id: string) => Eventually<BankDescriptor | undefined>;
  /** The bearer check in front of every route marked `auth` (src/serve/http/bearer.ts). */
  checker: BearerChecker;
  /** The realm named in WWW-Authenticate challenges. */
  realm: string;
  /** The scope a token needs. */
  scope: string;
  /** The OpenAPI document (src/serve/openapi.ts), made once at start. */
  openapi: unknown;
  /** `GET /v1/events`: the event stream and its subscribers (src/serve/resources/events/). */
  events: { handle(req: IncomingMessage, res: ServerResponse, head: boolean, query: string): void };
  /** `GET /`: the status page's HTML, rendered at most every 30 s (src/serve/pages/status-page/). */
  statusPage: () => Promise<Buffer>;
  /** The banks' status rows; absent when no scheduler runs in this process (`exrates serve`). */
  status?: () => Promise<unknown[]>;
  /**
   * A bank's `X-Bank-State` / `X-Bank-Expected-Date` when it is late, failing or stale (from the status
   * rows, read once a minute: src/serve/state/bank-notices.ts); undefined when up to date, or when this
   * process cannot know (no scheduler and no database).
   */
  bankNotice?: (id: string) => Readonly<Record<string, string>> | undefined;
  /** Which instance runs the scheduler (`exrates start`): `scheduler` in `/v1/status`. */
  scheduler?: () => Promise<SchedulerRole>;
  /** The realm's endpoints, or the external issuer. */
  sso: SsoEndpoints;
  /** The clock. */
  now: () => number;
  /** Why the database cannot be read, when it cannot (`exrates serve` serves the tree anyway). */
  databaseUnreadable?: string;
}

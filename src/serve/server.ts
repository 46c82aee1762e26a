// `exrates serve`: the token-checking proxy over the published tree, with the embedded
// Keycloak-compatible SSO (token endpoint, discovery, JWKS) unless EXRATES_OIDC_ISSUER names an
// external realm. node:http, no framework: the hot path is a route match, a token-cache lookup and
// a write of a buffer held in memory. This module puts the parts together (live state, routes,
// handlers) and owns the listening socket and the shutdown.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import { issuerOf } from "../auth/discovery.js";
import { FailureLimiter, type LimitOptions } from "../auth/ratelimit.js";
import { BearerChecker, remoteKeyGetter } from "../auth/tokens.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { createApiHandlers } from "./handlers.js";
import { loadLiveState, type LiveState } from "./live-state.js";
import { openApiDocument } from "./openapi.js";
import { createRealmHandlers } from "./realm-handlers.js";
import { sendProblem } from "./respond.js";
import { createRouter, type RealmRoutes } from "./routes.js";
import type { LoadedTree } from "./tree.js";

export interface ServerOptions {
  config: Config;
  /** Needed for the embedded SSO (clients); unused with an external issuer. */
  store?: Store;
  log: Logger;
  /** How often `out/current` and the key file are checked for changes (ms). */
  pollMs?: number;
  /** How often the clients table is checked for changes by other processes (ms). */
  clientPollMs?: number;
  /** Failed client authentications allowed per client id / per address. */
  rateLimit?: { perClient?: LimitOptions; perAddress?: LimitOptions };
  /** For tests: the clock. */
  now?: () => number;
  /** For tests: fetch used for the external issuer's discovery. */
  fetch?: typeof fetch;
  /** The banks' status rows for `GET /v1/status` (behind the token); `exrates start` passes the scheduler's. */
  status?: () => Promise<unknown[]>;
}

export interface RunningServer {
  url: string;
  /** The issuer whose tokens are accepted. */
  issuer: string;
  server: Server;
  /** The tree currently served (undefined before the first publish). */
  tree(): LoadedTree | undefined;
  /** Checks for a new generation, key file or clients now (tests; the timers do it anyway). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** Failed client authentications allowed by default, per client id and per address. */
const DEFAULT_PER_CLIENT: LimitOptions = { max: 10, windowMs: 60_000 };
const DEFAULT_PER_ADDRESS: LimitOptions = { max: 30, windowMs: 60_000 };
/** Requests in flight at shutdown get this long to finish; then every connection goes. */
const CLOSE_GRACE_MS = 2000;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const embedded = !config.oidcIssuer;
  const store = options.store;
  if (embedded && !store) throw new Error("the embedded SSO needs the store (clients)");

  const state = await loadLiveState({
    outDir: config.outDir,
    dataDir: config.dataDir,
    store: embedded ? store : undefined,
    log,
    now,
    pollMs: options.pollMs,
    clientPollMs: options.clientPollMs,
  });
  const server = await listen(config);
  const { url, port } = boundAddress(server);
  // With port 0 and no explicit public URL, the public URL is the one actually bound.
  const publicUrl = config.publicUrl.replace(/:0$/, `:${port}`);
  const issuer = embedded ? issuerOf(publicUrl, config.realm) : config.oidcIssuer!;

  const router = createRouter(
    createApiHandlers({
      tree: state.tree,
      checker: bearerChecker(options, state, issuer),
      realm: config.realm,
      scope: config.scope,
      openapi: openApiDocument({ publicUrl, tokenUrl: `${issuer}/protocol/openid-connect/token`, scope: config.scope }),
      status: options.status,
    }),
    embedded ? realmRoutes(options, state, issuer, publicUrl) : { embedded: false, issuer },
  );
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    router(req, res).catch((error: Error) => {
      log.error({ err: error.message, method: req.method }, "request failed");
      if (!res.headersSent) sendProblem(res, 500, { detail: "Internal error" });
      else res.destroy();
    });
  });
  server.on("clientError", answerClientError);
  const sockets = trackSockets(server);
  state.watch();

  log.info({ url, issuer, embeddedSso: embedded, generation: state.tree()?.generation }, "serving");
  return {
    url,
    issuer,
    server,
    tree: state.tree,
    refresh: () => state.refresh(),
    async close() {
      state.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, CLOSE_GRACE_MS).unref();
      });
    },
  };
}

async function listen(config: Config): Promise<Server> {
  const server = createServer({
    maxHeaderSize: 16 * 1024,
    requestTimeout: 30_000,
    headersTimeout: 20_000,
    keepAliveTimeout: 5_000,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

function boundAddress(server: Server): { url: string; port: number } {
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, port: address.port };
}

/** Embedded: tokens signed by our keys, from clients still enabled. External: the issuer's JWKS. */
function bearerChecker(options: ServerOptions, state: LiveState, issuer: string): BearerChecker {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  if (!config.oidcIssuer) {
    return new BearerChecker({ issuer, scope: config.scope, keys: state.keys, clientState: state.client, now });
  }
  const remote = remoteKeyGetter(issuer, options.fetch);
  remote
    .ready()
    .catch((error: Error) =>
      log.warn({ issuer, err: error.message }, "external realm discovery failed; retried on the next request"),
    );
  return new BearerChecker({ issuer, scope: config.scope, remoteKeys: remote.getKey, now });
}

function realmRoutes(options: ServerOptions, state: LiveState, issuer: string, publicUrl: string): RealmRoutes {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const perClient = new FailureLimiter(options.rateLimit?.perClient ?? DEFAULT_PER_CLIENT, now);
  const perAddress = new FailureLimiter(options.rateLimit?.perAddress ?? DEFAULT_PER_ADDRESS, now);
  return createRealmHandlers({
    realm: config.realm,
    issuer,
    scope: config.scope,
    keys: state.keys,
    now,
    token: { store: options.store!, keys: state.keys, issuer, audience: publicUrl, perClient, perAddress, log, now },
  });
}

/** A request node:http could not parse gets a bare status line, then the connection closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "HPE_URI_OVERFLOW" ? 414 : 400;
  const text = status === 431 ? "Request Header Fields Too Large" : status === 414 ? "URI Too Long" : "Bad Request";
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

/** The open connections, for closing the ones still busy at the end of the shutdown grace. */
function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return sockets;
}

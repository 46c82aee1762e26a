// `exrates serve`: the token-checking proxy over the published tree, with the embedded
// Keycloak-compatible SSO (token endpoint, discovery, JWKS) unless EXRATES_OIDC_ISSUER names an
// external realm. node:http, no framework: the hot path is a route match, a token-cache lookup and
// a write of a buffer held in memory. This module puts the parts together (live state, routes,
// handlers) and owns the listening socket, its limits and the shutdown. Limits: a connection that
// sends nothing is closed `idleMs` after it was accepted (and any connection idle that long), headers
// must arrive within 20 s and a request within 30 s (checked every second), at most `maxConnections`
// are open at once (the next ones are closed at accept, with a log line a minute saying so), and a
// request with two Host headers is refused.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import { issuerOf, plainIssuerOf } from "../auth/discovery.js";
import { FailureLimiter, GrantLimiter, type GrantOptions, type LimitOptions } from "../auth/ratelimit.js";
import { BearerChecker, remoteKeyGetter } from "../auth/tokens.js";
import type { Config } from "../config.js";
import { toBankResource } from "../feed/adapter.js";
import { loadAdapters } from "../feed/registry.js";
import { RepeatSummary, type Logger } from "../log.js";
import type { SchedulerRole } from "../schedule/leader.js";
import { isPostgres, type Store } from "../store/database.js";
import type { BankResource } from "../types.js";
import { clientAddressOf, parseTrustedProxies } from "./http/client-address.js";
import { createEventStream, withEvents } from "./resources/events/stream.js";
import { createApiHandlers } from "./handlers.js";
import { historySource, withHistory } from "./history-handlers.js";
import { loadLiveState, type LiveState } from "./state/live-state.js";
import { MeteredResponse, ServerMetrics, startMetricsServer } from "./metrics.js";
import { createStatusPage } from "./pages/status-page/page.js";
import { openApiDocument } from "./openapi.js";
import { createRealmHandlers } from "./resources/realm.js";
import { sendProblem } from "./http/respond.js";
import { createRouter, type RealmRoutes } from "./routes.js";
import type { LoadedTree } from "./state/tree.js";

export interface ServerOptions {
  config: Config;
  /**
   * Needed for the embedded SSO (clients); with an external issuer, only a shared PostgreSQL store is
   * read (status page, metrics).
   */
  store?: Store;
  log: Logger;
  /** How often `out/current` and the key file are checked for changes (ms). */
  pollMs?: number;
  /** How often the clients table is checked for changes by other processes (ms). */
  clientPollMs?: number;
  /**
   * The token endpoint's limits: failed authentications per (client id, address) and, for ids that
   * name no client, per address; successful grants per client (default: config.tokenGrantsPerMinute).
   */
  rateLimit?: { perClient?: LimitOptions; perAddress?: LimitOptions; grants?: GrantOptions };
  /** Connection limits (defaults: CONNECTION_DEFAULTS, maxConnections from the open-file limit). */
  limits?: Partial<ConnectionLimits>;
  /** For tests: the clock. */
  now?: () => number;
  /** For tests: fetch used for the external issuer's discovery. */
  fetch?: typeof fetch;
  /** The banks' status rows for `GET /v1/status` (behind the token); `exrates start` passes the scheduler's. */
  status?: () => Promise<unknown[]>;
  /** Which instance runs the scheduler, for `/v1/status` (`exrates start`). */
  scheduler?: () => Promise<SchedulerRole>;
  /** Every bank the service knows, published or not (default: the adapters' descriptors, loaded once). */
  banks?: () => Promise<ReadonlyMap<string, BankResource>>;
}

export interface RunningServer {
  url: string;
  /** The issuer whose tokens are accepted. */
  issuer: string;
  server: Server;
  /** `GET /metrics` on its own listener (EXRATES_METRICS_PORT); undefined when not served. */
  metricsUrl?: string;
  /** The tree currently served (undefined before the first publish). */
  tree(): LoadedTree | undefined;
  /** Checks for a new generation, key file or clients now (tests; the timers do it anyway). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** Failed client authentications allowed by default, per (client id, address) and per address. */
const DEFAULT_PER_CLIENT: LimitOptions = { max: 10, windowMs: 60_000, capacity: 20_000 };
const DEFAULT_PER_ADDRESS: LimitOptions = { max: 30, windowMs: 60_000, capacity: 20_000 };

export interface ConnectionLimits {
  /** A connection that sends or receives nothing for this long is closed, counted from accept (ms). */
  idleMs: number;
  /** Connections open at once; the next ones are closed at accept. */
  maxConnections: number;
}

const CONNECTION_DEFAULTS = { idleMs: 10_000 };

/**
 * Connections allowed at once: three quarters of the open-file limit, less what the rest of the
 * process needs (database, published files, feed fetches), so that a flood of idle sockets never
 * leaves the process without descriptors.
 */
export function defaultMaxConnections(): number {
  let soft = 1024;
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (m) soft = m[1] === "unlimited" ? 1 << 20 : Number(m[1]);
  } catch {
    // Not Linux: assume the common default.
  }
  return Math.max(16, Math.min(10_000, Math.floor(soft * 0.75) - 32));
}
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
    publishUrl: config.publishUrl,
    dataDir: config.dataDir,
    store: embedded ? store : undefined,
    log,
    now,
    pollMs: options.pollMs,
    clientPollMs: options.clientPollMs,
  });
  const limits: ConnectionLimits = {
    idleMs: options.limits?.idleMs ?? CONNECTION_DEFAULTS.idleMs,
    maxConnections: options.limits?.maxConnections ?? defaultMaxConnections(),
  };
  const clientAddress = clientAddressOf(parseTrustedProxies(config.trustedProxies));
  const server = await listen(config, limits);
  const summary = new RepeatSummary(log);
  const { url, port } = boundAddress(server);
  // With port 0 and no explicit public URL, the public URL is the one actually bound.
  const publicUrl = config.publicUrl.replace(/:0$/, `:${port}`);
  const issuer = embedded ? issuerOf(publicUrl, config.realm) : config.oidcIssuer!;
  const plainIssuer = plainIssuerOf(publicUrl, config.realm);

  // Dates, ranges and lists come from the store, through a connection of their own that only reads.
  const history = historySource(config.databasePath, now, store);
  // On a shared PostgreSQL database, the modules that read SQLite's file directly read through the store.
  const shared = store && isPostgres(store) ? store : undefined;
  // `GET /v1/events`: publications recorded by any process, polled from the store (src/serve/events.ts).
  const events = createEventStream({
    databasePath: config.databasePath,
    shared,
    publicUrl,
    log,
    beforeSend: () => state.refresh(),
  });
  const knownBanks = options.banks ?? adapterBanks(log);
  const statusPage = createStatusPage({
    databasePath: config.databasePath,
    shared,
    tree: state.tree,
    knownBanks,
    status: options.status,
    now,
  });
  const api = createApiHandlers({
    tree: state.tree,
    checker: bearerChecker(options, state, embedded ? [issuer, plainIssuer] : [issuer]),
    realm: config.realm,
    scope: config.scope,
    openapi: openApiDocument({ publicUrl, tokenUrl: `${issuer}/protocol/openid-connect/token`, scope: config.scope }),
    status: options.status,
    scheduler: options.scheduler,
    knownBanks,
  });
  api.home = statusPage.handler;
  const router = createRouter(
    withEvents(withHistory(api, { reader: () => history.reader(), tree: state.tree, now, knownBanks }), events),
    embedded
      ? realmRoutes(options, state, { issuer, plainIssuer, publicUrl, refusals: summary, clientAddress })
      : { embedded: false, issuer },
  );
  const metrics = new ServerMetrics(shared ?? config.databasePath);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    metrics.track(req, res);
    // Two Host headers: which one names the resource is anyone's guess (a smuggling tool).
    if (hostHeaders(req.rawHeaders) > 1) {
      res.shouldKeepAlive = false;
      return sendProblem(res, 400, {
        detail: "The request has more than one Host header",
        headers: { connection: "close" },
      });
    }
    router(req, res).catch((error: Error) => {
      log.error({ err: error.message, method: req.method }, "request failed");
      if (!res.headersSent) sendProblem(res, 500, { detail: "Internal error" });
      else res.destroy();
    });
  });
  server.on("clientError", answerClientError);
  server.on("drop", (data?: { remoteAddress?: string }) =>
    summary.note(
      "connections.full",
      "warn",
      { event: "connections.full", max: limits.maxConnections, address: data?.remoteAddress },
      `connection refused: ${limits.maxConnections} connections are open, the most allowed at once`,
    ),
  );
  const sockets = trackSockets(server);
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await startMetricsServer(metrics, config.metricsHost, config.metricsPort, log).catch((error: Error) => {
          server.close();
          history.close();
          events.close();
          throw error;
        });
  state.watch();

  log.info({ url, issuer, embeddedSso: embedded, generation: state.tree()?.generation }, "serving");
  return {
    url,
    issuer,
    server,
    metricsUrl: metricsServer?.url,
    tree: state.tree,
    refresh: () => state.refresh(),
    async close() {
      state.close();
      await metricsServer?.close();
      metrics.close();
      statusPage.close();
      summary.close();
      history.close();
      events.close();
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

/** The adapters' Bank resources, loaded on first use (a server that never needs them never imports them). */
function adapterBanks(log: Logger): () => Promise<ReadonlyMap<string, BankResource>> {
  let banks: Promise<ReadonlyMap<string, BankResource>> | undefined;
  return () =>
    (banks ??= loadAdapters().then(
      (adapters) => new Map([...adapters].map(([id, a]) => [id, toBankResource(a.bank)])),
      (error: Error) => {
        log.error({ err: error.message }, "cannot load the adapters; only published banks are known");
        banks = undefined;
        return new Map<string, BankResource>();
      },
    ));
}

async function listen(config: Config, limits: ConnectionLimits): Promise<Server> {
  const server = createServer({
    // Notes each request's arrival and its answer's content type for the metrics (src/serve/metrics.ts).
    ServerResponse: MeteredResponse,
    maxHeaderSize: 16 * 1024,
    requestTimeout: 30_000,
    headersTimeout: 20_000,
    keepAliveTimeout: 5_000,
    // How often the two timeouts above are checked (Node's default, 30 s, lets a slow sender stay 50 s).
    connectionsCheckingInterval: 1_000,
  });
  // Inactivity from accept: a socket that never sends a byte is destroyed after idleMs (node:http
  // destroys a socket whose timeout fires when nothing else listens for it).
  server.setTimeout(limits.idleMs);
  server.maxConnections = limits.maxConnections;
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
function bearerChecker(options: ServerOptions, state: LiveState, issuers: string[]): BearerChecker {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  if (!config.oidcIssuer) {
    return new BearerChecker({
      issuer: issuers,
      scope: config.scope,
      keys: state.keys,
      clientState: state.client,
      // On a shared database another replica may sign with a key this one has not read yet.
      refreshKeys: options.store && isPostgres(options.store) ? state.refreshKeys : undefined,
      now,
    });
  }
  const issuer = issuers[0]!;
  const remote = remoteKeyGetter(issuer, options.fetch);
  remote
    .ready()
    .catch((error: Error) =>
      log.warn({ issuer, err: error.message }, "external realm discovery failed; retried on the next request"),
    );
  return new BearerChecker({ issuer, scope: config.scope, remoteKeys: remote.getKey, now });
}

function realmRoutes(
  options: ServerOptions,
  state: LiveState,
  parts: {
    issuer: string;
    plainIssuer: string;
    publicUrl: string;
    refusals: RepeatSummary;
    clientAddress: (req: IncomingMessage) => string;
  },
): RealmRoutes {
  const { config, log } = options;
  const { issuer, plainIssuer, publicUrl, refusals, clientAddress } = parts;
  const now = options.now ?? Date.now;
  const perClient = new FailureLimiter(options.rateLimit?.perClient ?? DEFAULT_PER_CLIENT, now);
  const perAddress = new FailureLimiter(options.rateLimit?.perAddress ?? DEFAULT_PER_ADDRESS, now);
  const grants = new GrantLimiter(options.rateLimit?.grants ?? { perMinute: config.tokenGrantsPerMinute }, now);
  return createRealmHandlers({
    realm: config.realm,
    issuer,
    plainIssuer,
    scope: config.scope,
    keys: state.keys,
    now,
    token: {
      store: options.store!,
      keys: state.keys,
      issuer,
      audience: publicUrl,
      perClient,
      perAddress,
      grants,
      refusals,
      clientAddress,
      log,
      now,
    },
  });
}

/** How many Host headers a request has (node:http keeps the first of several in req.headers). */
function hostHeaders(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === "host") n++;
  }
  return n;
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

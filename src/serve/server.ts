// `exrates serve`: the token-checking proxy over the published tree, with the embedded
// Keycloak-compatible SSO (token endpoint, discovery, JWKS) unless EXRATES_OIDC_ISSUER names an
// external realm. node:http, no framework: the hot path is a route match, a token-cache lookup and
// a write of a buffer held in memory. This module puts the parts together: the live state
// (src/serve/state/), the context every handler reads (context.ts), the routing table (routes.ts), the
// socket and its limits (src/serve/http/connections.ts), the metrics listener; and it owns the shutdown.
import type { IncomingMessage, ServerResponse, Server } from "node:http";

import { issuerOf, plainIssuerOf } from "../auth/discovery.js";
import { BearerChecker, externalTokenMaxAge, remoteKeyGetter } from "../auth/tokens.js";
import type { Config } from "../config.js";
import { RepeatSummary, type Logger } from "../log.js";
import type { SchedulerRole } from "../schedule/leader.js";
import { isPostgres, type Store } from "../store/database.js";
import type { Eventually } from "../store/history.js";
import type { BankDescriptor, BankEntry, BankResource } from "../types.js";
import type { ServeContext, SsoEndpoints } from "./context.js";
import { boundAddress } from "./http/bind.js";
import { clientAddressOf, isTrusted, parseTrustedProxies } from "./http/client-address.js";
import {
  answerClientError,
  closeServer,
  CONNECTION_DEFAULTS,
  defaultMaxConnections,
  defaultPerAddress,
  hostHeaders,
  listen,
  trackSockets,
  type ConnectionLimits,
} from "./http/connections.js";
import { closeIdleConnections } from "./http/idle.js";
import { sendProblem } from "./http/respond.js";
import { createRouter } from "./http/router.js";
import { ServerMetrics } from "./metrics.js";
import { openApiDocument } from "./openapi.js";
import { createStatusPage } from "./pages/status-page/page.js";
import { createEventStream } from "./resources/events/stream.js";
import { createSso, type RateLimitOptions } from "./resources/realm.js";
import { routeTable } from "./routes.js";
import { bankNotices } from "./state/bank-notices.js";
import { historySource } from "./state/history-source.js";
import { loadLiveState, type LiveState } from "./state/live-state.js";
import type { LoadedTree } from "./state/tree.js";

export { defaultMaxConnections, type ConnectionLimits };

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
  rateLimit?: RateLimitOptions;
  /** Connection limits (defaults: CONNECTION_DEFAULTS, maxConnections from the open-file limit). */
  limits?: Partial<ConnectionLimits> & { streamsPerToken?: number; streamsPerAddress?: number };
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
  /**
   * Why the SQLite database cannot be read (`exrates serve` on a damaged file): the published tree is
   * served anyway; tokens are checked by signature, scope and expiry alone, none is issued, and
   * `/v1/status` says so.
   */
  databaseUnreadable?: string;
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

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const embedded = !config.oidcIssuer;
  const store = options.store;
  if (embedded && !store && !options.databaseUnreadable) throw new Error("the embedded SSO needs the store (clients)");

  const state = await loadLiveState({
    outDir: config.outDir,
    publishUrl: config.publishUrl,
    dataDir: config.dataDir,
    store: embedded ? store : undefined,
    keysWithoutStore: embedded && options.databaseUnreadable !== undefined,
    log,
    now,
    pollMs: options.pollMs,
    clientPollMs: options.clientPollMs,
  });
  const limits = connectionLimits(options.limits);
  const trustedProxies = parseTrustedProxies(config.trustedProxies);
  const clientAddress = clientAddressOf(trustedProxies);
  const server = await listen(config.port, config.host, limits);
  const summary = new RepeatSummary(log);
  const { url, port } = boundAddress(server);
  // With port 0 and no explicit public URL, the public URL is the one actually bound.
  const publicUrl = config.publicUrl.replace(/:0$/, `:${port}`);
  const issuer = embedded ? issuerOf(publicUrl, config.realm) : config.oidcIssuer!;
  const plainIssuer = plainIssuerOf(publicUrl, config.realm);

  const { ctx, history, events, statusPage } = serveContext(options, state, {
    publicUrl,
    issuer,
    plainIssuer,
    refusals: summary,
    clientAddress,
  });
  const router = createRouter(routeTable, ctx);
  const metrics = new ServerMetrics(store && isPostgres(store) ? store : config.databasePath, options.status);
  answerRequests(server, router, metrics, log);
  const sockets = limitConnections(server, limits, trustedProxies, summary);
  closeIdleConnections(server, sockets, limits.idleMs);
  const metricsServer = await startMetrics(config, metrics, log).catch((error: Error) => {
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
      await closeServer(server, sockets);
    },
  };
}

/** The connection limits: the options', else CONNECTION_DEFAULTS and what the open-file limit allows. */
function connectionLimits(given: ServerOptions["limits"]): ConnectionLimits {
  const maxConnections = given?.maxConnections ?? defaultMaxConnections();
  return {
    idleMs: given?.idleMs ?? CONNECTION_DEFAULTS.idleMs,
    maxConnections,
    perAddress: given?.perAddress ?? defaultPerAddress(maxConnections),
  };
}

/** Every request through the router, counted by the metrics; a request that fails is logged and answered 500. */
function answerRequests(
  server: Server,
  router: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  metrics: ServerMetrics,
  log: Logger,
): void {
  const failed = (req: IncomingMessage, res: ServerResponse, error: Error) => {
    log.error({ err: error.message, method: req.method }, "request failed");
    if (!res.headersSent) sendProblem(res, 500, { detail: "Internal error" });
    else res.destroy();
  };
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
    let answered: void | Promise<void> = undefined;
    try {
      answered = router(req, res);
    } catch (error) {
      failed(req, res, error as Error);
    }
    metrics.settle(res);
    if (answered) answered.catch((error: Error) => failed(req, res, error));
  });
}

/**
 * Malformed requests answered, and connections over the limits (all of them, or one address's, trusted
 * proxies excepted) refused with a warning summarised when repeated; returns the sockets tracked.
 */
function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  trustedProxies: ReturnType<typeof parseTrustedProxies>,
  summary: RepeatSummary,
): ReturnType<typeof trackSockets> {
  server.on("clientError", answerClientError);
  server.on("drop", (data?: { remoteAddress?: string }) =>
    summary.note(
      "connections.full",
      "warn",
      { event: "connections.full", max: limits.maxConnections, address: data?.remoteAddress },
      `connection refused: ${limits.maxConnections} connections are open, the most allowed at once`,
    ),
  );
  return trackSockets(
    server,
    limits.perAddress,
    (address) => isTrusted(trustedProxies, address),
    (address) =>
      summary.note(
        "connections.per-address",
        "warn",
        { event: "connections.per-address", max: limits.perAddress, address },
        `connection refused: ${address} holds ${limits.perAddress} connections, the most one address may`,
      ),
  );
}

/** `GET /metrics` on its own listener when EXRATES_METRICS_PORT is set (its module imported only then). */
async function startMetrics(config: Config, metrics: ServerMetrics, log: Logger) {
  if (config.metricsPort === undefined) return undefined;
  const m = await import("./metrics-export.js");
  return m.startMetricsServer(metrics, config.metricsHost, config.metricsPort, log);
}

/** What the handlers read (ServeContext), with the parts of it the server closes. */
function serveContext(
  options: ServerOptions,
  state: LiveState,
  names: {
    publicUrl: string;
    issuer: string;
    plainIssuer: string;
    refusals: RepeatSummary;
    clientAddress: (req: IncomingMessage) => string;
  },
) {
  const { config, log, store } = options;
  const now = options.now ?? Date.now;
  const embedded = !config.oidcIssuer;
  const { publicUrl, issuer, plainIssuer } = names;
  // Dates, ranges and lists come from the store, through a connection of their own that only reads.
  const history = historySource(config.databasePath, now, store);
  // On a shared PostgreSQL database, the modules that read SQLite's file directly read through the store.
  const shared = store && isPostgres(store) ? store : undefined;
  // `GET /v1/events`: publications recorded by any process, polled from the store.
  const events = createEventStream({
    databasePath: config.databasePath,
    shared,
    publicUrl,
    log,
    beforeSend: () => state.refresh(),
    clientAddress: names.clientAddress,
    streamsPerToken: options.limits?.streamsPerToken,
    streamsPerAddress: options.limits?.streamsPerAddress,
  });
  const descriptors = bankDescriptors(log);
  const knownBanks = options.banks ?? adapterBanks(descriptors);
  const statusPage = createStatusPage({
    databasePath: config.databasePath,
    shared,
    tree: state.tree,
    knownBanks,
    status: options.status,
    now,
  });
  const ctx: ServeContext = {
    tree: state.tree,
    history: () => history.reader(),
    knownBanks,
    descriptor: descriptorLookup(descriptors),
    checker: bearerChecker(options, state, embedded ? [issuer, plainIssuer] : [issuer]),
    realm: config.realm,
    scope: config.scope,
    openapi: openApiDocument({ publicUrl, tokenUrl: `${issuer}/protocol/openid-connect/token`, scope: config.scope }),
    events,
    statusPage: () => statusPage.page(),
    status: options.status,
    bankNotice: noticeSource(options, state.tree),
    scheduler: options.scheduler,
    databaseUnreadable: options.databaseUnreadable,
    sso: embedded
      ? withoutTokens(
          options.databaseUnreadable,
          createSso({
            config,
            store: store!,
            log,
            keys: state.keys,
            now,
            issuer,
            plainIssuer,
            publicUrl,
            refusals: names.refusals,
            clientAddress: names.clientAddress,
            rateLimit: options.rateLimit,
          }),
        )
      : { embedded: false, issuer },
    now,
  };
  return { ctx, history, events, statusPage };
}

/** The embedded SSO whose token endpoint answers 503 while the database cannot be read (no clients to check). */
function withoutTokens(unreadable: string | undefined, sso: SsoEndpoints): SsoEndpoints {
  if (unreadable === undefined || !sso.embedded) return sso;
  return {
    ...sso,
    token: (req, res) => {
      req.resume();
      sendProblem(res, 503, { detail: `No token can be issued: ${unreadable}`, headers: { "retry-after": "60" } });
      return Promise.resolve();
    },
  };
}

/**
 * The banks' descriptors, read on first use (a failed load is logged and tried again next time): the
 * build's list, else the adapters; the registry and its checks are imported then too.
 */
function bankDescriptors(log: Logger): () => Promise<ReadonlyMap<string, BankDescriptor>> {
  let descriptors: Promise<ReadonlyMap<string, BankDescriptor>> | undefined;
  return () =>
    (descriptors ??= import("../feed/registry.js")
      .then((registry) => registry.loadBanks())
      .then(
        (banks) => new Map(banks.map(({ bank }) => [bank.id, bank])),
        (error: Error) => {
          log.error({ err: error.message }, "cannot load the adapters; only published banks are known");
          descriptors = undefined;
          return new Map<string, BankDescriptor>();
        },
      ));
}

function adapterBanks(
  descriptors: () => Promise<ReadonlyMap<string, BankDescriptor>>,
): () => Promise<ReadonlyMap<string, BankResource>> {
  let banks: Promise<ReadonlyMap<string, BankResource>> | undefined;
  return () =>
    (banks ??= descriptors().then(async (all) => {
      if (all.size === 0) banks = undefined;
      const { toBankResource } = await import("../feed/adapter.js");
      return new Map([...all].map(([id, bank]) => [id, toBankResource(bank)]));
    }));
}

/** A bank's descriptor: at once once the adapters are loaded, a promise before. */
function descriptorLookup(
  descriptors: () => Promise<ReadonlyMap<string, BankDescriptor>>,
): (id: string) => Eventually<BankDescriptor | undefined> {
  let loaded: ReadonlyMap<string, BankDescriptor> | undefined;
  return (id) =>
    loaded
      ? loaded.get(id)
      : descriptors().then((all) => {
          if (all.size > 0) loaded = all;
          return all.get(id);
        });
}

/**
 * Latest's and Convert's notice of a bank not up to date: from the scheduler's status rows (`exrates
 * start`), else from the same rows computed over the database (`exrates serve`: what the runs and
 * fetches recorded there say); none without a readable database.
 */
function noticeSource(options: ServerOptions, tree: () => LoadedTree | undefined): ServeContext["bankNotice"] {
  const { store } = options;
  const rows =
    options.status ??
    (store && options.databaseUnreadable === undefined ? servedBankStatuses(store, tree, options.now) : undefined);
  return rows && bankNotices(rows, options.now ?? Date.now, () => tree()?.generation);
}

/**
 * The status rows of the banks the tree serves (Latest and Convert answer no other), one bank per turn
 * of the event loop. Their descriptors come from the build's list; without one, only those banks'
 * adapters are imported, once: all of them cost ~110 MiB of resident memory and seconds of a core, every
 * bank's calendar at once blocked the requests ~0.5 s a minute (BENCHMARKS.md, Serve, issue 39).
 */
function servedBankStatuses(
  store: Store,
  tree: () => LoadedTree | undefined,
  now: (() => number) | undefined,
): () => Promise<unknown[]> {
  const banks = new Map<string, BankEntry>();
  return async () => {
    const [{ bankStatusesInTurns }, registry] = await Promise.all([
      import("../schedule/status.js"),
      import("../feed/registry.js"),
    ]);
    const known = new Set(registry.knownBankIds());
    const served = [...(tree()?.banks.keys() ?? [])].filter((id) => known.has(id)).sort();
    if (banks.size === 0) for (const entry of registry.listedBanks() ?? []) banks.set(entry.bank.id, entry);
    for (const id of served) if (!banks.has(id)) banks.set(id, await registry.adapterFor(id));
    return bankStatusesInTurns(
      store,
      served.map((id) => banks.get(id)!),
      { now: new Date(now?.() ?? Date.now()) },
    );
  };
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
      // A database that cannot be read has no clients to check: a token's signature, scope and expiry decide.
      clientState: options.databaseUnreadable === undefined ? state.client : undefined,
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
  const maxAgeSeconds = externalTokenMaxAge(process.env);
  return new BearerChecker({ issuer, scope: config.scope, remoteKeys: remote.getKey, maxAgeSeconds, now });
}

// `exrates serve`: the token-checking proxy over the published tree, with the embedded
// Keycloak-compatible SSO (token endpoint, discovery, JWKS) unless EXRATES_OIDC_ISSUER names an
// external realm. node:http, no framework: the hot path is a route match, a token-cache lookup and
// a write of a buffer held in memory.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { onClientsChanged, readClientStates, type ClientState } from "../auth/clients.js";
import { discoveryDocument, issuerOf, jwksDocument } from "../auth/discovery.js";
import { keyFileStamp, loadOrCreateKeys, publishedAt, type KeySet } from "../auth/keys.js";
import { FailureLimiter, type LimitOptions } from "../auth/ratelimit.js";
import { handleTokenRequest, sendOAuth } from "../auth/token-endpoint.js";
import { BearerChecker, remoteKeyGetter, type BearerResult } from "../auth/tokens.js";
import { FORMATS, negotiate, pickEncoding, type Format } from "./negotiate.js";
import { openApiDocument } from "./openapi.js";
import { sendJson, sendProblem } from "./respond.js";
import { currentTarget, loadTree, type LoadedTree, type Representation } from "./tree.js";

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

const MAX_PATH = 2048;
const API_ALLOW = "GET, HEAD";

type Route =
  | { kind: "healthz" | "readyz" | "openapi" | "xsd" }
  | { kind: "banks" }
  | { kind: "status" }
  | { kind: "bank"; id: string; suffix: string | undefined }
  | { kind: "latest"; id: string; suffix: string | undefined }
  | { kind: "realm"; realm: string; rest: string[] }
  | { kind: "notFound" }
  | { kind: "bad"; status: 400 | 414; detail: string };

const BANK_ID = /^[A-Za-z0-9]{2,10}$/;

/**
 * Splits and decodes a request target. Anything that could step out of or around the tree - dot
 * segments, encoded slashes or backslashes, NUL and other controls, malformed escapes - is refused
 * with 400 (and could not reach a file anyway: routes are keys into the in-memory tree).
 */
export function route(rawUrl: string): { route: Route; query: string } {
  const q = rawUrl.indexOf("?");
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? "" : rawUrl.slice(q + 1);
  if (rawPath.length > MAX_PATH)
    return { route: { kind: "bad", status: 414, detail: "The request path is too long" }, query };
  if (!rawPath.startsWith("/"))
    return { route: { kind: "bad", status: 400, detail: "The request target must be an absolute path" }, query };
  if (/%(2f|5c|00)/i.test(rawPath) || rawPath.includes("\\")) {
    return {
      route: { kind: "bad", status: 400, detail: "Encoded slashes, backslashes and NUL are not allowed in the path" },
      query,
    };
  }
  const segments: string[] = [];
  for (const raw of rawPath.slice(1).split("/")) {
    let seg: string;
    try {
      seg = raw.includes("%") ? decodeURIComponent(raw) : raw;
    } catch {
      return { route: { kind: "bad", status: 400, detail: "The path holds a malformed percent-encoding" }, query };
    }
    // eslint-disable-next-line no-control-regex
    if (seg === "." || seg === ".." || /[\x00-\x1f\x7f]/.test(seg))
      return {
        route: { kind: "bad", status: 400, detail: "Dot segments and control characters are not allowed in the path" },
        query,
      };
    segments.push(seg);
  }
  const lower = segments.map((s) => s.toLowerCase());
  const n = segments.length;
  if (n === 1 && lower[0] === "healthz") return { route: { kind: "healthz" }, query };
  if (n === 1 && lower[0] === "readyz") return { route: { kind: "readyz" }, query };
  if (n >= 3 && segments[0] === "auth" && segments[1] === "realms")
    return { route: { kind: "realm", realm: segments[2]!, rest: segments.slice(3) }, query };
  if (lower[0] !== "v1") return { route: { kind: "notFound" }, query };
  if (n === 2 && lower[1] === "openapi.json") return { route: { kind: "openapi" }, query };
  if (n === 3 && lower[1] === "schemas" && lower[2] === "exchange-rates-1.0.xsd")
    return { route: { kind: "xsd" }, query };
  if (n === 2 && lower[1] === "status") return { route: { kind: "status" }, query };
  if (lower[1] !== "banks") return { route: { kind: "notFound" }, query };
  if (n === 2) return { route: { kind: "banks" }, query };
  const split = (s: string) => {
    const dot = s.indexOf(".");
    return dot < 0 ? { base: s, suffix: undefined } : { base: s.slice(0, dot), suffix: s.slice(dot + 1) };
  };
  if (n === 3) {
    const { base, suffix } = split(segments[2]!);
    if (!BANK_ID.test(base)) return { route: { kind: "notFound" }, query };
    return { route: { kind: "bank", id: base.toUpperCase(), suffix }, query };
  }
  if (n === 5 && lower[3] === "dailyrates") {
    const { base, suffix } = split(segments[4]!);
    if (base.toLowerCase() !== "latest" || !BANK_ID.test(segments[2]!)) return { route: { kind: "notFound" }, query };
    return { route: { kind: "latest", id: segments[2]!.toUpperCase(), suffix }, query };
  }
  return { route: { kind: "notFound" }, query };
}

function formatValues(query: string): string[] {
  if (!query || !/(^|&)format=/i.test(query)) return [];
  const values: string[] = [];
  for (const [k, v] of new URLSearchParams(query)) if (k.toLowerCase() === "format") values.push(v);
  return values;
}

/** If-None-Match (weak comparison, any encoding's tag) or, without it, If-Modified-Since. */
function notModified(req: IncomingMessage, rep: Representation): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) {
    if (inm.trim() === "*") return true;
    for (const tag of inm.split(",")) {
      const t = tag.trim().replace(/^W\//, "");
      if (rep.etags.has(t)) return true;
    }
    return false;
  }
  const ims = req.headers["if-modified-since"];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    if (Number.isFinite(since) && rep.lastModifiedSeconds * 1000 <= since) return true;
  }
  return false;
}

function sendRepresentation(req: IncomingMessage, res: ServerResponse, rep: Representation): void {
  if (notModified(req, rep)) {
    const encoding = pickEncoding(req.headers["accept-encoding"], { br: !!rep.br, gzip: !!rep.gzip });
    res.writeHead(304, { ...rep.notModified, etag: (encoding === "identity" ? rep.identity : rep[encoding]!).etag });
    res.end();
    return;
  }
  const encoding =
    rep.br || rep.gzip ? pickEncoding(req.headers["accept-encoding"], { br: !!rep.br, gzip: !!rep.gzip }) : "identity";
  const variant = encoding === "identity" ? rep.identity : rep[encoding]!;
  res.writeHead(200, variant.headers);
  res.end(req.method === "HEAD" ? undefined : variant.body);
}

function bearerChallenge(
  realm: string,
  result: Exclude<BearerResult, { kind: "ok" }>,
  scope: string,
): { status: number; header: string; detail: string } {
  const quote = (s: string) => s.replace(/["\\]/g, "");
  switch (result.kind) {
    case "missing":
      return { status: 401, header: `Bearer realm="${realm}"`, detail: "A bearer token is required" };
    case "invalid_request":
      return {
        status: 400,
        header: `Bearer realm="${realm}", error="invalid_request", error_description="${quote(result.description)}"`,
        detail: result.description,
      };
    case "invalid_token":
      return {
        status: 401,
        header: `Bearer realm="${realm}", error="invalid_token", error_description="${quote(result.description)}"`,
        detail: result.description,
      };
    case "insufficient_scope":
      return {
        status: 403,
        header: `Bearer realm="${realm}", error="insufficient_scope", scope="${scope}"`,
        detail: result.description,
      };
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const embedded = !config.oidcIssuer;
  const store = options.store;
  if (embedded && !store) throw new Error("the embedded SSO needs the store (clients)");

  let keys: KeySet | undefined;
  let keyStamp: string | undefined;
  let clients = new Map<string, ClientState>();
  let dataVersion = -1;
  const readClients = () => {
    clients = readClientStates(store!);
  };
  if (embedded) {
    keys = await loadOrCreateKeys(config.dataDir, now());
    keyStamp = await keyFileStamp(config.dataDir);
    dataVersion = store!.sqlite.pragma("data_version", { simple: true }) as number;
    readClients();
  }

  let tree: LoadedTree | undefined;
  let failedTarget: string | undefined;
  const refreshTree = async () => {
    const target = await currentTarget(config.outDir).catch((error: Error) => {
      log.warn({ err: error.message }, "cannot read the published tree's current link");
      return undefined;
    });
    if (target === undefined || target === tree?.target || target === failedTarget) return;
    try {
      const loaded = await loadTree(config.outDir, target);
      tree = loaded; // one assignment: every later request sees the whole new generation
      failedTarget = undefined;
      log.info(
        { generation: loaded.generation, files: loaded.files, banks: loaded.banks.size },
        "published tree loaded",
      );
    } catch (error) {
      // A generation removed under us, or not as its manifest says: keep serving the previous one.
      failedTarget = target;
      log.error(
        { target, err: (error as Error).message },
        "cannot load the published generation; still serving the previous one",
      );
      setTimeout(() => {
        if (failedTarget === target) failedTarget = undefined;
      }, 5000).unref();
    }
  };
  const refreshKeys = async () => {
    if (!embedded) return;
    const stamp = await keyFileStamp(config.dataDir);
    if (stamp === keyStamp) return;
    try {
      keys = await loadOrCreateKeys(config.dataDir, now());
      keyStamp = await keyFileStamp(config.dataDir);
      log.info({ kid: keys.active.kid, published: keys.published.length }, "signing keys reloaded");
    } catch (error) {
      log.error({ err: (error as Error).message }, "cannot reload the signing keys; keeping the previous ones");
    }
  };
  const refreshClients = () => {
    if (!embedded) return;
    try {
      const version = store!.sqlite.pragma("data_version", { simple: true }) as number;
      if (version === dataVersion) return;
      dataVersion = version;
      readClients();
    } catch (error) {
      // The store closed under us (shutdown) or is busy: keep the last known states, try again later.
      log.warn({ err: (error as Error).message }, "cannot re-read the clients");
    }
  };
  await refreshTree();

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
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  // With port 0 and no explicit public URL, the public URL is the one actually bound.
  const publicUrl = /:0$/.test(config.publicUrl)
    ? config.publicUrl.replace(/:0$/, `:${address.port}`)
    : config.publicUrl;
  const issuer = embedded ? issuerOf(publicUrl, config.realm) : config.oidcIssuer!;
  const remote = embedded ? undefined : remoteKeyGetter(issuer, options.fetch);
  if (remote)
    remote
      .ready()
      .catch((error: Error) =>
        log.warn({ issuer, err: error.message }, "external realm discovery failed; retried on the next request"),
      );

  const unsubscribe = embedded ? onClientsChanged(store!, readClients) : undefined;

  const checker = new BearerChecker({
    issuer,
    scope: config.scope,
    keys: embedded ? () => keys! : undefined,
    clientState: embedded ? (clientId) => clients.get(clientId) : undefined,
    remoteKeys: remote?.getKey,
    now,
  });
  const perClient = new FailureLimiter(options.rateLimit?.perClient ?? { max: 10, windowMs: 60_000 }, now);
  const perAddress = new FailureLimiter(options.rateLimit?.perAddress ?? { max: 30, windowMs: 60_000 }, now);
  const tokenContext = embedded
    ? { store: store!, keys: () => keys!, issuer, audience: publicUrl, perClient, perAddress, log, now }
    : undefined;
  const discovery = discoveryDocument(issuer, config.scope);
  const openapi = openApiDocument({
    publicUrl,
    tokenUrl: `${issuer}/protocol/openid-connect/token`,
    scope: config.scope,
  });

  const handleRealm = async (req: IncomingMessage, res: ServerResponse, realm: string, rest: string[]) => {
    if (!embedded) {
      req.resume();
      sendProblem(res, 404, { detail: `The embedded SSO is off; tokens come from ${config.oidcIssuer}` });
      return;
    }
    if (realm !== config.realm) {
      req.resume();
      sendOAuth(res, 404, { error: "Realm does not exist" });
      return;
    }
    const path = rest.join("/");
    if (path === "protocol/openid-connect/token") return handleTokenRequest(req, res, tokenContext!);
    req.resume();
    const getOnly = (fn: () => void) => {
      if (req.method === "GET" || req.method === "HEAD") fn();
      else sendOAuth(res, 405, { error: "HTTP 405 Method Not Allowed" }, { allow: API_ALLOW });
    };
    const head = req.method === "HEAD";
    if (path === ".well-known/openid-configuration")
      return getOnly(() => sendJson(res, 200, discovery, { "cache-control": "no-cache" }, head));
    if (path === "protocol/openid-connect/certs") {
      return getOnly(() =>
        sendJson(
          res,
          200,
          jwksDocument(publishedAt(keys!, now()).map((k) => k.jwk)),
          { "cache-control": "no-cache" },
          head,
        ),
      );
    }
    if (path === "protocol/openid-connect/auth") {
      return getOnly(() =>
        sendOAuth(res, 400, {
          error: "unsupported_response_type",
          error_description: "This realm supports the client credentials grant only",
        }),
      );
    }
    sendOAuth(res, 404, { error: "Unable to find matching target resource method" });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { route: r, query } = route(req.url ?? "/");
    const method = req.method ?? "GET";
    if (r.kind === "realm") return handleRealm(req, res, r.realm, r.rest);
    // Nothing else takes a body; drain it so keep-alive goes on.
    if (method !== "GET" && method !== "HEAD") req.resume();
    const head = method === "HEAD";
    if (r.kind === "bad") return sendProblem(res, r.status, { detail: r.detail, head });
    if (r.kind === "notFound") return sendProblem(res, 404, { detail: "No such resource", head });
    if (method !== "GET" && method !== "HEAD")
      return sendProblem(res, 405, { detail: `${method} is not allowed here`, headers: { allow: API_ALLOW } });
    switch (r.kind) {
      case "healthz":
        return sendJson(res, 200, { status: "ok" }, { "cache-control": "no-store" }, head);
      case "readyz":
        return tree
          ? sendJson(res, 200, { status: "ready", generation: tree.generation }, { "cache-control": "no-store" }, head)
          : sendProblem(res, 503, { detail: "No published tree loaded yet", headers: { "retry-after": "5" }, head });
      case "openapi":
        return sendJson(res, 200, openapi, { "cache-control": "no-cache" }, head);
      case "xsd":
        if (!tree?.xsd) return sendProblem(res, tree ? 404 : 503, { detail: "The schema is not published yet", head });
        return sendRepresentation(req, res, tree.xsd);
    }
    // Everything below needs a token.
    let auth = checker.check(req.headers.authorization);
    if (auth instanceof Promise) auth = await auth;
    if (auth.kind !== "ok") {
      const c = bearerChallenge(config.realm, auth, config.scope);
      return sendProblem(res, c.status, { detail: c.detail, headers: { "www-authenticate": c.header }, head });
    }
    if (r.kind === "status") {
      if (!options.status)
        return sendProblem(res, 404, {
          detail: "No scheduler runs in this process; `exrates start` serves the status",
          head,
        });
      return sendJson(res, 200, { banks: await options.status() }, { "cache-control": "no-store" }, head);
    }
    const offered: readonly Format[] = r.kind === "latest" ? FORMATS : ["json"];
    const negotiation = negotiate(
      r.kind === "banks" ? undefined : r.suffix,
      formatValues(query),
      req.headers.accept,
      offered,
    );
    if (!negotiation.ok) {
      return sendProblem(res, negotiation.status, {
        detail: negotiation.detail,
        extra: { supported: negotiation.supported },
        headers: { vary: "Accept" },
        head,
      });
    }
    if (!tree)
      return sendProblem(res, 503, { detail: "No rates published yet", headers: { "retry-after": "5" }, head });
    let rep: Representation | undefined;
    if (r.kind === "banks") rep = tree.banksList;
    else {
      const entry = tree.banks.get(r.id);
      rep = r.kind === "bank" ? entry?.bank : entry?.latest[negotiation.format];
      if (!rep)
        return sendProblem(res, 404, {
          detail: entry
            ? `No ${r.kind === "bank" ? "data" : "rates"} published for bank ${r.id}`
            : `Unknown bank ${r.id}`,
          head,
        });
    }
    if (!rep) return sendProblem(res, 404, { detail: "Not published", head });
    sendRepresentation(req, res, rep);
  };

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: Error) => {
      log.error({ err: error.message, method: req.method }, "request failed");
      if (!res.headersSent) sendProblem(res, 500, { detail: "Internal error" });
      else res.destroy();
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "HPE_URI_OVERFLOW" ? 414 : 400;
    const text = status === 431 ? "Request Header Fields Too Large" : status === 414 ? "URI Too Long" : "Bad Request";
    socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  });

  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      await refreshTree();
      await refreshKeys();
    } catch (error) {
      log.error({ err: (error as Error).message }, "refreshing the tree or the keys failed");
    } finally {
      polling = false;
    }
  };
  const pollTimer = setInterval(() => void poll(), options.pollMs ?? 1000);
  pollTimer.unref();
  const clientTimer = embedded ? setInterval(refreshClients, options.clientPollMs ?? 250) : undefined;
  clientTimer?.unref();

  log.info({ url, issuer, embeddedSso: embedded, generation: tree?.generation }, "serving");
  return {
    url,
    issuer,
    server,
    tree: () => tree,
    async refresh() {
      await refreshTree();
      await refreshKeys();
      refreshClients();
    },
    async close() {
      clearInterval(pollTimer);
      unsubscribe?.();
      if (clientTimer) clearInterval(clientTimer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; then every connection goes.
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 2000).unref();
      });
    },
  };
}

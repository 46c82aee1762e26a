// Which handler answers a request: the request target is split, decoded and checked, matched to a
// route, and the method decides between the route's handler, 405 and 404. Realm routes (token
// endpoint, discovery, JWKS) go to the embedded SSO; everything under /v1 except the OpenAPI document
// and the schema needs a bearer token first.
import type { IncomingMessage, ServerResponse } from "node:http";

import { closeAfterAnswer, sendOAuth } from "../auth/token-endpoint.js";
import { sendProblem } from "./http/respond.js";

const MAX_PATH = 2048;
/** A body no route reads is drained up to this size (the connection then stays open); larger, it closes. */
const DRAIN_LIMIT = 16 * 1024;
const API_ALLOW = "GET, HEAD";
const BANK_ID = /^[A-Za-z0-9]{2,10}$/;

export type Route =
  | { kind: "healthz" | "readyz" | "openapi" | "xsd" }
  | { kind: "home" }
  | { kind: "banks" }
  | { kind: "status" }
  | { kind: "events" }
  | { kind: "bank"; id: string; suffix: string | undefined }
  | { kind: "latest"; id: string; suffix: string | undefined }
  | { kind: "dated"; id: string; date: string; suffix: string | undefined }
  | { kind: "range"; id: string; suffix: string | undefined }
  | { kind: "currencies"; suffix: string | undefined }
  | { kind: "realm"; realm: string; rest: string[]; plain?: true }
  | { kind: "notFound" }
  | { kind: "bad"; status: 400 | 414; detail: string };

/** The routes answered from the published tree. */
export type ResourceRoute = Extract<Route, { kind: "banks" | "bank" | "latest" }>;

/** The routes answered from the store (src/serve/history-handlers.ts). */
export type HistoryRoute = Extract<Route, { kind: "dated" | "range" | "currencies" }>;

type BadRoute = Extract<Route, { kind: "bad" }>;

const bad = (status: 400 | 414, detail: string): BadRoute => ({ kind: "bad", status, detail });
const NOT_FOUND: Route = { kind: "notFound" };

/**
 * Splits and decodes a request target. Anything that could step out of or around the tree - dot
 * segments, encoded slashes or backslashes, NUL and other controls, malformed escapes - is refused
 * with 400 (and could not reach a file anyway: routes are keys into the in-memory tree).
 */
export function route(rawUrl: string): { route: Route; query: string } {
  const q = rawUrl.indexOf("?");
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? "" : rawUrl.slice(q + 1);
  const segments = pathSegments(rawPath);
  return { route: Array.isArray(segments) ? matchRoute(segments) : segments, query };
}

/** The decoded segments of a path, or why the path is refused. */
function pathSegments(rawPath: string): string[] | BadRoute {
  if (rawPath.length > MAX_PATH) return bad(414, "The request path is too long");
  if (!rawPath.startsWith("/")) return bad(400, "The request target must be an absolute path");
  if (/%(2f|5c|00)/i.test(rawPath) || rawPath.includes("\\"))
    return bad(400, "Encoded slashes, backslashes and NUL are not allowed in the path");
  const segments: string[] = [];
  for (const raw of rawPath.slice(1).split("/")) {
    let segment: string;
    try {
      segment = raw.includes("%") ? decodeURIComponent(raw) : raw;
    } catch {
      return bad(400, "The path holds a malformed percent-encoding");
    }
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (segment === "." || segment === ".." || /[\x00-\x1f\x7f]/.test(segment))
      return bad(400, "Dot segments and control characters are not allowed in the path");
    segments.push(segment);
  }
  return segments;
}

/** The route of a decoded path. Everything but the realm's paths is matched case-insensitively. */
function matchRoute(segments: string[]): Route {
  const lower = segments.map((s) => s.toLowerCase());
  const n = segments.length;
  if (n === 1 && segments[0] === "") return { kind: "home" };
  if (n === 1 && lower[0] === "healthz") return { kind: "healthz" };
  if (n === 1 && lower[0] === "readyz") return { kind: "readyz" };
  if (n >= 3 && segments[0] === "auth" && segments[1] === "realms")
    return { kind: "realm", realm: segments[2]!, rest: segments.slice(3) };
  // Keycloak 17+ serves its realms without the /auth prefix: the same realm, under its own issuer.
  if (n >= 2 && segments[0] === "realms")
    return { kind: "realm", realm: segments[1]!, rest: segments.slice(2), plain: true };
  if (lower[0] !== "v1") return NOT_FOUND;
  if (n === 2 && lower[1] === "openapi.json") return { kind: "openapi" };
  if (n === 3 && lower[1] === "schemas" && lower[2] === "exchange-rates-1.0.xsd") return { kind: "xsd" };
  if (n === 2 && lower[1] === "status") return { kind: "status" };
  if (n === 2 && lower[1] === "events") return { kind: "events" };
  if (n === 2 && splitSuffix(lower[1]!).base === "currencies")
    return { kind: "currencies", suffix: splitSuffix(segments[1]!).suffix };
  if (lower[1] !== "banks") return NOT_FOUND;
  if (n === 2) return { kind: "banks" };
  if (n === 3) {
    const { base, suffix } = splitSuffix(segments[2]!);
    return BANK_ID.test(base) ? { kind: "bank", id: base.toUpperCase(), suffix } : NOT_FOUND;
  }
  if (n === 4 && splitSuffix(lower[3]!).base === "dailyrates" && BANK_ID.test(segments[2]!))
    return { kind: "range", id: segments[2]!.toUpperCase(), suffix: splitSuffix(segments[3]!).suffix };
  if (n === 5 && lower[3] === "dailyrates") {
    const { base, suffix } = splitSuffix(segments[4]!);
    // A segment starting with a digit is a date (a malformed one is answered 400 after the bearer check).
    if (/^\d/.test(base) && BANK_ID.test(segments[2]!))
      return { kind: "dated", id: segments[2]!.toUpperCase(), date: base, suffix };
    if (base.toLowerCase() !== "latest" || !BANK_ID.test(segments[2]!)) return NOT_FOUND;
    return { kind: "latest", id: segments[2]!.toUpperCase(), suffix };
  }
  return NOT_FOUND;
}

/** `Latest.json` → `Latest` and `json`. */
function splitSuffix(segment: string): { base: string; suffix: string | undefined } {
  const dot = segment.indexOf(".");
  return dot < 0
    ? { base: segment, suffix: undefined }
    : { base: segment.slice(0, dot), suffix: segment.slice(dot + 1) };
}

/** Answers one request; `head`: a HEAD request, answered without a body. */
export type Handler = (req: IncomingMessage, res: ServerResponse, head: boolean) => void | Promise<void>;

export interface ApiHandlers {
  healthz: Handler;
  readyz: Handler;
  openapi: Handler;
  xsd: Handler;
  /** The public status page (`GET /`, src/serve/status-page.ts); absent: 404. */
  home?: Handler;
  /** The bearer check: true when the request may go on; otherwise it has answered the request. */
  authorize: (req: IncomingMessage, res: ServerResponse, head: boolean) => boolean | Promise<boolean>;
  status: Handler;
  /** The server-sent event stream (src/serve/events.ts); absent: 404. */
  events?: (req: IncomingMessage, res: ServerResponse, head: boolean, query: string) => void;
  resource: (
    req: IncomingMessage,
    res: ServerResponse,
    head: boolean,
    route: ResourceRoute,
    query: string,
  ) => void | Promise<void>;
  /** A date, a range or the currency list, from the store; absent: those routes answer 404. */
  history?: (
    req: IncomingMessage,
    res: ServerResponse,
    head: boolean,
    route: HistoryRoute,
    query: string,
  ) => void | Promise<void>;
}

/**
 * The embedded SSO's endpoints, or the external issuer that replaces them. `plain`: the request came
 * under /realms/<realm> (Keycloak 17+), whose issuer has no /auth prefix.
 */
export type RealmRoutes =
  | {
      embedded: true;
      realm: string;
      token: (req: IncomingMessage, res: ServerResponse, plain: boolean) => Promise<void>;
      discovery: RealmHandler;
      jwks: Handler;
      authorization: Handler;
    }
  | { embedded: false; issuer: string };

/** A realm endpoint whose answer names the issuer of the path it was asked under. */
export type RealmHandler = (req: IncomingMessage, res: ServerResponse, head: boolean, plain: boolean) => void;

type RealmEndpoint = "discovery" | "jwks" | "authorization";

/** The realm's read-only endpoints, by their path under the realm. */
const REALM_ENDPOINTS = new Map<string, RealmEndpoint>([
  [".well-known/openid-configuration", "discovery"],
  ["protocol/openid-connect/certs", "jwks"],
  ["protocol/openid-connect/auth", "authorization"],
]);
const TOKEN_PATH = "protocol/openid-connect/token";

const isReadOnly = (method: string | undefined) => method === "GET" || method === "HEAD";

/** The request listener's body: routes each request to its handler. */
export function createRouter(api: ApiHandlers, realms: RealmRoutes) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { route: r, query } = route(req.url ?? "/");
    const method = req.method ?? "GET";
    if (r.kind === "realm") return routeRealm(req, res, realms, r.realm, r.rest, r.plain === true);
    // Nothing else takes a body.
    discardBody(req, res);
    const head = method === "HEAD";
    if (r.kind === "bad") return sendProblem(res, r.status, { detail: r.detail, head });
    if (r.kind === "notFound") return sendProblem(res, 404, { detail: "No such resource", head });
    if (!isReadOnly(method))
      return sendProblem(res, 405, { detail: `${method} is not allowed here`, headers: { allow: API_ALLOW } });
    switch (r.kind) {
      case "healthz":
      case "readyz":
      case "openapi":
      case "xsd":
        return api[r.kind](req, res, head);
      case "home":
        return api.home ? api.home(req, res, head) : sendProblem(res, 404, { detail: "No such resource", head });
    }
    let allowed = api.authorize(req, res, head);
    if (allowed instanceof Promise) allowed = await allowed;
    if (!allowed) return;
    if (r.kind === "status") return api.status(req, res, head);
    if (r.kind === "events")
      return api.events
        ? api.events(req, res, head, query)
        : sendProblem(res, 404, { detail: "No event stream is served by this process", head });
    if (r.kind === "dated" || r.kind === "range" || r.kind === "currencies")
      return api.history
        ? api.history(req, res, head, r, query)
        : sendProblem(res, 404, { detail: "No rate store is served by this process", head });
    return api.resource(req, res, head, r, query);
  };
}

/**
 * A request body no handler reads: none, nothing to do; a small one is drained so that keep-alive
 * goes on; a large or unannounced (chunked) one is not read at all, and the connection closes once
 * the answer is sent.
 */
function discardBody(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers["content-length"];
  if (length === undefined && req.headers["transfer-encoding"] === undefined) return;
  if (length !== undefined && Number(length) <= DRAIN_LIMIT) req.resume();
  else closeAfterAnswer(res);
}

/** Keycloak's answers, statuses and bodies for what is not one of the realm's endpoints. */
async function routeRealm(
  req: IncomingMessage,
  res: ServerResponse,
  realms: RealmRoutes,
  realm: string,
  rest: string[],
  plain: boolean,
): Promise<void> {
  const path = rest.join("/");
  if (realms.embedded && realm === realms.realm && path === TOKEN_PATH) return realms.token(req, res, plain);
  discardBody(req, res);
  if (!realms.embedded)
    return sendProblem(res, 404, { detail: `The embedded SSO is off; tokens come from ${realms.issuer}` });
  if (realm !== realms.realm) return sendOAuth(res, 404, { error: "Realm does not exist" });
  const endpoint = REALM_ENDPOINTS.get(path);
  if (!endpoint) return sendOAuth(res, 404, { error: "Unable to find matching target resource method" });
  if (!isReadOnly(req.method))
    return sendOAuth(res, 405, { error: "HTTP 405 Method Not Allowed" }, { allow: API_ALLOW });
  return realms[endpoint](req, res, req.method === "HEAD", plain);
}

// Which handler answers a request. The request target is split, decoded and checked (anything that
// could step out of or around the tree is refused: a path is only ever a key into the in-memory tree),
// then matched against the routing table (src/serve/routes.ts); the route's method and auth decide
// between its handler, 405, and the bearer check first. The table is compiled once at start into
// patterns bucketed by segment count, so a lookup compares a few segments (letter by letter, without
// lower-case copies) and allocates only the route it returns.
import type { IncomingMessage, ServerResponse } from "node:http";

import { closeAfterAnswer } from "../../auth/token-endpoint.js";
import type { Handler, MatchedRoute, ServeContext } from "../context.js";
import { authorize } from "./bearer.js";
import { unknownParameters } from "./query.js";
import { PROBLEM_TYPES, sendProblem } from "./respond.js";
import { notABankKey } from "../../feed/sources.js";
import { clipped } from "../../quote.js";

/** Unknown query parameters a 400 names at most. */
const MAX_NAMED_UNKNOWN = 10;

/** One line of the routing table. */
export interface RouteSpec {
  /**
   * GET: GET and HEAD (HEAD answered without a body), any other method 405, a request body drained or
   * refused. ANY: every method and the body go to the handler, which answers them itself (the realm's).
   */
  method: "GET" | "ANY";
  /**
   * The path: `/`-separated segments, each a literal (matched case-insensitively, unless `exactCase`),
   * a parameter `{bankId}`, `{date}` or `{realm}` (PARAMS), either followed by `{.format}` (an optional
   * suffix after the segment's first dot), or a last `{rest...}` (any number of further segments).
   */
  path: string;
  /** The route's name: the `kind` of its MatchedRoute and its `route` label in the metrics. */
  name: string;
  /** A bearer token with the API's scope is checked before the handler runs. */
  auth: boolean;
  handle: Handler;
  /** Literal segments matched as written (Keycloak's realm paths are case-sensitive). */
  exactCase?: boolean;
  /**
   * The query parameters the route reads (names in lower case; matched in any case): any other is a 400
   * problem listing these. Absent: the query is not checked (the realm's, the probes', the pages').
   */
  query?: readonly string[];
}

/** A path the router refuses (400, 414), or one no route matches. */
export type Unrouted = { kind: "bad"; status: 400 | 414; detail: string } | { kind: "notFound" };

/** A request target read: the route (or why none), the query, and the table's line that matched. */
export type Target =
  { route: MatchedRoute; query: string; entry: CompiledRoute } | { route: Unrouted; query: string; entry: undefined };

const MAX_PATH = 2048;
/** A body no route reads is drained up to this size (the connection then stays open); larger, it closes. */
const DRAIN_LIMIT = 16 * 1024;
/** The methods the API answers (the Allow header of a 405). */
export const API_ALLOW = "GET, HEAD";
export const BANK_ID = /^[A-Za-z0-9]{2,10}$/;

/** What a parameter segment accepts and where its value goes in the MatchedRoute. */
const PARAMS: Record<string, { field: "id" | "date" | "realm"; test?: RegExp }> = {
  // Upper-cased in the route.
  bankId: { field: "id", test: BANK_ID },
  // A segment starting with a digit is a date; a malformed one is answered 400 by the handler, after
  // the bearer check.
  date: { field: "date", test: /^\d/ },
  realm: { field: "realm" },
};

type Segment =
  | { kind: "literal"; text: string; suffix: boolean; exactCase: boolean }
  | { kind: "param"; param: (typeof PARAMS)[string]; suffix: boolean };

export interface CompiledRoute extends RouteSpec {
  segments: Segment[];
  /** `query` as a set; undefined when the route's query is not checked. */
  supported: ReadonlySet<string> | undefined;
  /** The pattern ends in `{rest...}`: at least `segments.length` segments. */
  rest: boolean;
}

const bad = (status: 400 | 414, detail: string): Unrouted => ({ kind: "bad", status, detail });
const NOT_FOUND: Unrouted = { kind: "notFound" };
const SUFFIX = "{.format}";
const DOT = 46;

function compileSegment(text: string, spec: RouteSpec): Segment {
  const suffix = text.endsWith(SUFFIX);
  const core = suffix ? text.slice(0, -SUFFIX.length) : text;
  const param = /^\{(\w+)\}$/.exec(core);
  if (param) {
    const definition = PARAMS[param[1]!];
    if (!definition) throw new Error(`route ${spec.name}: unknown parameter {${param[1]}}`);
    return { kind: "param", param: definition, suffix };
  }
  if (/[{}]/.test(core) || !/^[\x20-\x7e]*$/.test(core) || (suffix && core.includes(".")))
    throw new Error(`route ${spec.name}: cannot read the segment "${text}"`);
  const exactCase = spec.exactCase === true;
  return { kind: "literal", text: exactCase ? core : core.toLowerCase(), suffix, exactCase };
}

function compileRoute(spec: RouteSpec): CompiledRoute {
  if (!spec.path.startsWith("/")) throw new Error(`route ${spec.name}: the path must start with /`);
  const parts = spec.path.slice(1).split("/");
  const rest = parts.at(-1) === "{rest...}";
  if (rest) parts.pop();
  const supported = spec.query ? new Set(spec.query.map((name) => name.toLowerCase())) : undefined;
  return { ...spec, segments: parts.map((p) => compileSegment(p, spec)), rest, supported };
}

/** Request targets read, kept (most come again and again: Latest's few spellings); cleared when full. */
const TARGETS_KEPT = 1024;
/** Longer targets (long currency lists...) are read each time: the kept ones stay within ~256 KiB. */
const TARGET_KEPT_LENGTH = 256;

/** The routing table, compiled: `match` reads a request target. */
export class RouteTable {
  readonly routes: readonly CompiledRoute[];
  /** Targets already read (their routes are never changed by the handlers: they are shared). */
  private readonly targets = new Map<string, Target>();
  /** The routes that can match a path of n segments (index n), in table order; beyond: the rest routes. */
  private readonly byLength: Bucket[] = [];
  private readonly longer: Bucket;

  constructor(specs: readonly RouteSpec[]) {
    this.routes = specs.map(compileRoute);
    const longest = Math.max(...this.routes.map((r) => r.segments.length));
    for (let n = 0; n <= longest; n++)
      this.byLength.push(
        bucket(this.routes.filter((r) => (r.rest ? n >= r.segments.length : n === r.segments.length))),
      );
    this.longer = bucket(this.routes.filter((r) => r.rest));
  }

  /** Splits, decodes and checks a request target, and finds its route: the first line that matches. */
  match(rawUrl: string): Target {
    if (rawUrl.length > TARGET_KEPT_LENGTH) return this.read(rawUrl);
    let target = this.targets.get(rawUrl);
    if (target === undefined) {
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      this.targets.set(rawUrl, (target = this.read(rawUrl)));
    }
    return target;
  }

  private read(rawUrl: string): Target {
    const q = rawUrl.indexOf("?");
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = q < 0 ? "" : rawUrl.slice(q + 1);
    const segments = pathSegments(rawPath);
    if (!Array.isArray(segments)) return { route: segments, query, entry: undefined };
    const { routes, shared } = segments.length < this.byLength.length ? this.byLength[segments.length]! : this.longer;
    // A route's first segments that are the previous route's are not compared again: they matched
    // (up to where the previous one failed), or the route fails where the previous one did.
    let failedAt = 0;
    for (let i = 0; i < routes.length; i++) {
      const start = i === 0 ? 0 : shared[i]!;
      if (i > 0 && failedAt < start) continue;
      const entry = routes[i]!;
      const mismatch = firstMismatch(entry, segments, start);
      if (mismatch < 0) return { route: routeOf(entry, segments), query, entry };
      failedAt = mismatch;
    }
    return { route: NOT_FOUND, query, entry: undefined };
  }
}

/** Routes that can match paths of one length, and how many leading segments each shares with the one before. */
interface Bucket {
  routes: CompiledRoute[];
  shared: number[];
}

function bucket(routes: CompiledRoute[]): Bucket {
  const shared = routes.map((route, i) => {
    if (i === 0) return 0;
    const before = routes[i - 1]!.segments;
    let n = 0;
    while (n < route.segments.length && n < before.length && sameSegment(route.segments[n]!, before[n]!)) n++;
    return n;
  });
  return { routes, shared };
}

function sameSegment(a: Segment, b: Segment): boolean {
  if (a.kind === "param" || b.kind === "param")
    return (
      a.kind === b.kind &&
      a.suffix === b.suffix &&
      (a as { param?: unknown }).param === (b as { param?: unknown }).param
    );
  return a.text === b.text && a.suffix === b.suffix && a.exactCase === b.exactCase;
}

/**
 * The decoded segments of a path, or why the path is refused. Dot segments, encoded slashes or
 * backslashes, NUL and other controls, malformed escapes: 400.
 */
function pathSegments(rawPath: string): string[] | Unrouted {
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

/** The index of the first of a route's fixed segments (from `start`) the path's does not match; -1: all match. */
function firstMismatch(entry: CompiledRoute, segments: string[], start: number): number {
  for (let i = start; i < entry.segments.length; i++) {
    const pattern = entry.segments[i]!;
    const segment = segments[i]!;
    if (pattern.kind === "param") {
      const test = pattern.param.test;
      if (test && !test.test(pattern.suffix ? baseOf(segment) : segment)) return i;
    } else if (!literalMatches(pattern, segment)) return i;
  }
  return -1;
}

/**
 * Whether a segment is the literal (or, with a suffix, the literal and a dot): any case, compared
 * letter by letter without making a lower-case copy, unless a non-ASCII letter comes within the
 * literal's length (then as toLowerCase says: the Kelvin sign is a k).
 */
function literalMatches(pattern: Extract<Segment, { kind: "literal" }>, segment: string): boolean {
  const text = pattern.text;
  const n = text.length;
  if (pattern.exactCase) {
    if (!segment.startsWith(text)) return false;
  } else {
    for (let i = 0; i < n; i++) {
      let c = segment.charCodeAt(i);
      if (c > 127) return literalMatchesLowered(pattern, segment.toLowerCase());
      if (c >= 65 && c <= 90) c += 32;
      if (c !== text.charCodeAt(i)) return false;
    }
  }
  // The literal whole, or (with a suffix) followed by the segment's first dot.
  return segment.length === n || (pattern.suffix && segment.charCodeAt(n) === DOT);
}

function literalMatchesLowered(pattern: Extract<Segment, { kind: "literal" }>, lower: string): boolean {
  if (!lower.startsWith(pattern.text)) return false;
  return lower.length === pattern.text.length || (pattern.suffix && lower.charCodeAt(pattern.text.length) === DOT);
}

/** The route a matching path names, with its parameters' values (every field there, for one object shape). */
function routeOf(entry: CompiledRoute, segments: string[]): MatchedRoute {
  const route: MatchedRoute = {
    kind: entry.name,
    id: undefined,
    date: undefined,
    suffix: undefined,
    realm: undefined,
    rest: undefined,
  };
  for (let i = 0; i < entry.segments.length; i++) {
    const pattern = entry.segments[i]!;
    const segment = segments[i]!;
    if (pattern.kind === "param") {
      const value = pattern.suffix ? baseOf(segment) : segment;
      const field = pattern.param.field;
      if (field === "id") route.id = value.toUpperCase();
      else if (field === "date") route.date = value;
      else route.realm = value;
    }
    if (pattern.suffix) route.suffix = suffixOf(segment);
  }
  if (entry.rest) route.rest = segments.slice(entry.segments.length);
  return route;
}

/** `Latest.json` → `Latest`. */
function baseOf(segment: string): string {
  const dot = segment.indexOf(".");
  return dot < 0 ? segment : segment.slice(0, dot);
}

/** `Latest.json` → `json`; `Latest` → undefined. */
function suffixOf(segment: string): string | undefined {
  const dot = segment.indexOf(".");
  return dot < 0 ? undefined : segment.slice(dot + 1);
}

const isReadOnly = (method: string | undefined) => method === "GET" || method === "HEAD";

/**
 * The request listener's body: each request to its route's handler, behind the bearer check where
 * marked. Synchronous as long as the bearer check and the handler are (Latest with a token already
 * seen): no promise on the hot path; a promise when something was left to wait for.
 */
export function createRouter(table: RouteTable, ctx: ServeContext) {
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const { route, query, entry } = table.match(req.url ?? "/");
    const method = req.method ?? "GET";
    const head = method === "HEAD";
    if (entry?.method === "ANY") return entry.handle(ctx, req, res, head, route, query);
    // Nothing else takes a body.
    discardBody(req, res);
    if (!entry) {
      if (route.kind === "bad") return sendProblem(res, route.status, { detail: route.detail, head });
      return sendProblem(res, 404, { detail: "No such resource", head });
    }
    // A second table's internal source id (NBPB) is no bank key: a 404 naming where its rates are.
    const notKey = route.id === undefined ? undefined : notABankKey(route.id);
    if (notKey !== undefined) return sendProblem(res, 404, { type: PROBLEM_TYPES.unknownBank, detail: notKey, head });
    if (!isReadOnly(method))
      return sendProblem(res, 405, { detail: `${method} is not allowed here`, headers: { allow: API_ALLOW } });
    if (entry.auth) {
      const allowed = authorize(ctx, req, res, head);
      if (allowed instanceof Promise)
        return allowed.then((ok) => (ok ? handleChecked(ctx, req, res, head, entry, route, query) : undefined));
      if (!allowed) return;
    }
    return handleChecked(ctx, req, res, head, entry, route, query);
  };
}

/** The route's handler, once its query is checked. */
function handleChecked(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  entry: CompiledRoute,
  route: MatchedRoute,
  query: string,
): void | Promise<void> {
  // Without a query string (Latest's usual request) this costs one comparison.
  if (query && entry.supported) {
    const unknown = unknownParameters(query, entry.supported);
    if (unknown.length) return sendUnknownParameters(res, head, unknown, entry.supported);
  }
  return entry.handle(ctx, req, res, head, route, query);
}

function sendUnknownParameters(res: ServerResponse, head: boolean, unknown: string[], supported: ReadonlySet<string>) {
  const list = [...supported];
  // At most the first few names, each cut to QUOTE_LIMIT characters: the answer stays small whatever was sent.
  const shown = unknown.slice(0, MAX_NAMED_UNKNOWN).map((name) => clipped(name));
  const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : "";
  const named =
    unknown.length === 1
      ? `Unknown query parameter ${shown[0]}`
      : `Unknown query parameters ${shown.join(", ")}${more}`;
  const detail = `${named}; ${list.length ? `supported here: ${list.join(", ")}` : "this resource takes none"}`;
  sendProblem(res, 400, { detail, extra: { unknown: shown, supported: list }, head });
}

/**
 * A request body no handler reads: none, nothing to do; a small one is drained so that keep-alive
 * goes on; a large or unannounced (chunked) one is not read at all, and the connection closes once
 * the answer is sent.
 */
export function discardBody(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers["content-length"];
  if (length === undefined && req.headers["transfer-encoding"] === undefined) return;
  if (length !== undefined && Number(length) <= DRAIN_LIMIT) req.resume();
  else closeAfterAnswer(res);
}

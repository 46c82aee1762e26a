// The Keycloak-compatible token endpoint: POST /auth/realms/<realm>/protocol/openid-connect/token,
// client credentials grant only. Checks in Keycloak's order, with Keycloak's statuses and bodies:
// content type (415), grant_type missing (400 invalid_request) or other (400 unsupported_grant_type),
// client authentication (client_secret_basic, each half URL-decoded per RFC 6749 §2.3.1, or
// client_secret_post; 400/401), duplicated parameters (400), scope (required; 400 invalid_scope;
// `openid` accepted from any client and granted first, as Keycloak grants it).
// Limits (src/auth/ratelimit.ts): failed authentications of a known client count per (client id,
// address), those of ids that name no client per address, and neither ever refuses a client's right
// secret sent from elsewhere; known clients' failures also count towards a per-address ceiling (many
// client ids tried from one address), far above what one client's own backoff lets it reach; successful grants are limited per client. All answer 429 + Retry-After.
// No secret or token is ever logged; a client id is logged whole only when it names a client, refusals
// are summarised (one line per client and address per minute), and a body over the limit closes the
// connection instead of being read.
import type { IncomingMessage, ServerResponse } from "node:http";

import { clip, hint, type Logger, type RepeatSummary } from "../log.js";
import type { Store } from "../store/database.js";
import { authenticateClient, type ClientRecord } from "./clients.js";
import type { KeySet } from "./keys.js";
import { TOKEN_TTL_SECONDS } from "./keys.js";
import type { FailureLimiter, GrantLimiter } from "./ratelimit.js";
import { issueAccessToken } from "./tokens.js";

export interface TokenEndpointContext {
  store: Store;
  keys(): KeySet;
  issuer: string;
  audience: string;
  /** Failed authentications of a known client, per (client id, address). */
  perClient: FailureLimiter;
  /** Failed authentications with an id that names no client (or none at all), per address. */
  perAddress: FailureLimiter;
  /**
   * The ceiling of failed authentications of known clients per address, whichever client: someone
   * trying many real client ids from one address is stopped there, while one misconfigured client's
   * failures (held back by its own per (client id, address) backoff) never reach it. Absent: none.
   */
  knownPerAddress?: FailureLimiter;
  /** Successful grants, per client. */
  grants: GrantLimiter;
  log: Logger;
  /** Refusals, summarised per client and address. */
  refusals: RepeatSummary;
  /** The request's client address (the socket's, or X-Forwarded-For's behind a trusted proxy). */
  clientAddress?: (req: IncomingMessage) => string;
  now?: () => number;
}

const MAX_BODY = 16 * 1024;
/** The OpenID Connect scope, accepted from every client as Keycloak does (no ID token is issued). */
const OPENID = "openid";
const INVALID_CREDENTIALS = "Invalid client or Invalid client credentials";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function sendOAuth(
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...NO_STORE,
    ...headers,
  });
  res.end(text);
}

const oauthError = (
  res: ServerResponse,
  status: number,
  error: string,
  description?: string,
  headers?: Record<string, string>,
) => sendOAuth(res, status, description === undefined ? { error } : { error, error_description: description }, headers);

/**
 * Reads the body up to `limit` bytes; undefined when it is larger, announced or not. A larger body is
 * not read on: the connection is marked to close once the answer is sent (see closeAfterAnswer).
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * The connection ends with this answer: what is left of the request body is never read (a client
 * announcing 100 MB costs us the headers, not the 100 MB).
 */
export function closeAfterAnswer(res: ServerResponse): void {
  // node:http ends and destroys the socket once a `connection: close` answer is sent.
  res.shouldKeepAlive = false;
  res.setHeader("connection", "close");
}

/** application/x-www-form-urlencoded decoding of one Basic half ('+' is a space, %XX escapes). */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** client_secret_basic: base64(urlencode(id) ":" urlencode(secret)); undefined when malformed. */
export function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (clientId === undefined || secret === undefined || clientId === "") return undefined;
  return { clientId, secret };
}

const remoteAddress = (req: IncomingMessage) => req.socket.remoteAddress ?? "unknown";

/** Whether a parameter is given twice (one pass: the check must not cost more than the body). */
function hasDuplicate(form: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const [name] of form) {
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

/** The token endpoint's methods. */
const TOKEN_ALLOW = "POST, OPTIONS";

export async function handleTokenRequest(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: TokenEndpointContext,
): Promise<void> {
  if (answeredOtherMethod(req, res)) return;
  const form = await readForm(req, res);
  if (!form || !clientCredentialsGrant(res, form)) return;
  // Client authentication, as Keycloak's ClientIdAndSecretAuthenticator does it.
  const address = (ctx.clientAddress ?? remoteAddress)(req);
  const credentials = credentialsOf(req, res, ctx, form, address);
  if (!credentials) return;
  const client = await authenticated(res, ctx, address, credentials);
  if (!client) return;
  const scope = grantedScope(res, form, client);
  if (scope === undefined || grantsLimited(res, ctx, client, address)) return;
  issue(res, ctx, client, scope);
}

/** OPTIONS answered with the methods; any method but POST refused 405. True when answered. */
function answeredOtherMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === "OPTIONS") {
    // What the Allow header of a 405 promises: the methods, and nothing to read.
    req.resume();
    res.writeHead(204, { allow: TOKEN_ALLOW, "cache-control": "no-store" });
    res.end();
    return true;
  }
  if (req.method !== "POST") {
    req.resume();
    oauthError(res, 405, "HTTP 405 Method Not Allowed", undefined, { allow: TOKEN_ALLOW });
    return true;
  }
  return false;
}

/** The request's form; undefined when answered (a body too large, or not a form). */
async function readForm(req: IncomingMessage, res: ServerResponse): Promise<URLSearchParams | undefined> {
  const contentType = req.headers["content-type"];
  const isForm = contentType !== undefined && /^application\/x-www-form-urlencoded(\s*;.*)?$/i.test(contentType.trim());
  const body = await readBody(req);
  if (body === undefined) {
    closeAfterAnswer(res);
    oauthError(res, 413, "invalid_request", "Request entity too large");
    return undefined;
  }
  // Keycloak's form endpoint consumes only form bodies; an empty POST without a type is an empty form.
  if (!isForm && !(contentType === undefined && body.length === 0)) {
    oauthError(res, 415, "HTTP 415 Unsupported Media Type", undefined);
    return undefined;
  }
  return new URLSearchParams(body.toString("utf8"));
}

const first = (form: URLSearchParams, name: string) => form.get(name) ?? undefined;

/** True for grant_type=client_credentials; otherwise answered 400. */
function clientCredentialsGrant(res: ServerResponse, form: URLSearchParams): boolean {
  const grantType = first(form, "grant_type");
  if (!grantType) {
    oauthError(res, 400, "invalid_request", "Missing form parameter: grant_type");
    return false;
  }
  if (grantType !== "client_credentials") {
    oauthError(res, 400, "unsupported_grant_type", "Unsupported grant_type");
    return false;
  }
  return true;
}

interface Credentials {
  clientId: string;
  /** Undefined when none was given. */
  secret: string | undefined;
}

/** The client id and secret, from Basic credentials or the form; undefined when answered. */
function credentialsOf(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: TokenEndpointContext,
  form: URLSearchParams,
  address: string,
): Credentials | undefined {
  const authorization = req.headers.authorization;
  let clientId: string | undefined;
  let secret: string | undefined;
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (basic) {
      clientId = basic.clientId;
      secret = basic.secret;
    } else if (!form.has("client_id")) {
      if (throttled(res, ctx, ctx.perAddress, address, address, { address })) return undefined;
      ctx.perAddress.fail(address);
      refused(ctx, address, { event: "token.denied", address, reason: "malformed Basic credentials" });
      oauthError(res, 401, "invalid_client", INVALID_CREDENTIALS);
      return undefined;
    }
  }
  if (form.has("client_secret")) secret = first(form, "client_secret");
  clientId ??= first(form, "client_id");
  if (!clientId) {
    oauthError(res, 400, "invalid_client", "Missing client_id parameter");
    return undefined;
  }
  return { clientId, secret };
}

/** The client whose secret is right, within the failure limits; undefined when answered (401 or 429). */
async function authenticated(
  res: ServerResponse,
  ctx: TokenEndpointContext,
  address: string,
  { clientId, secret }: Credentials,
): Promise<ClientRecord | undefined> {
  // The secret is checked first (a hash: cheap), but its answer is given only once the limits allow:
  // a refused key learns nothing, right secret or not.
  const auth = await authenticateClient(ctx.store, clientId, secret ?? "");
  const known = auth.ok || auth.reason !== "unknown";
  // A known client's failures are its own at this address; made-up ids count against the address.
  const limiter = known ? ctx.perClient : ctx.perAddress;
  const key = known ? `${address} ${clientId}` : address;
  const shown = known ? { clientId: clip(clientId), address } : { unknownClientId: hint(clientId), address };
  if (throttled(res, ctx, limiter, key, known ? key : address, shown)) return undefined;
  const ceiling = known ? ctx.knownPerAddress : undefined;
  if (ceiling && throttled(res, ctx, ceiling, address, address, shown)) return undefined;
  const failed = (status: number, error: string, description: string, reason: string) => {
    limiter.fail(key);
    ceiling?.fail(address);
    refused(ctx, known ? key : address, { event: "token.denied", ...shown, reason });
    oauthError(res, status, error, description);
  };
  if (secret === undefined) {
    if (auth.ok || auth.reason === "secret")
      failed(401, "unauthorized_client", "Invalid client secret", "missing secret");
    else failed(401, "invalid_client", INVALID_CREDENTIALS, auth.reason);
    return undefined;
  }
  if (!auth.ok) {
    if (auth.reason === "secret") failed(401, "unauthorized_client", INVALID_CREDENTIALS, "wrong secret");
    else failed(401, "invalid_client", INVALID_CREDENTIALS, auth.reason);
    return undefined;
  }
  ctx.perClient.succeed(key);
  return auth.client;
}

/** The scope granted: the requested one, `openid` first when asked; undefined when answered 400. */
function grantedScope(res: ServerResponse, form: URLSearchParams, client: ClientRecord): string | undefined {
  if (hasDuplicate(form)) {
    oauthError(res, 400, "invalid_request", "duplicated parameter");
    return undefined;
  }
  const scopeParam = first(form, "scope");
  if (scopeParam === undefined || scopeParam.trim() === "") {
    oauthError(res, 400, "invalid_request", "Missing form parameter: scope");
    return undefined;
  }
  const requested = [...new Set(scopeParam.split(" ").filter(Boolean))];
  // `openid` is no client scope in Keycloak: any client may ask for it, and the granted scope then
  // starts with it ("openid exchange-rates"), in the token's claim and in the answer alike.
  if (requested.some((s) => s !== OPENID && !client.scopes.includes(s))) {
    oauthError(res, 400, "invalid_scope", `Invalid scopes: ${scopeParam}`);
    return undefined;
  }
  return requested.includes(OPENID)
    ? [OPENID, ...requested.filter((s) => s !== OPENID)].join(" ")
    : requested.join(" ");
}

/** True when the client asks for tokens far faster than they expire: answered 429 with Retry-After. */
function grantsLimited(res: ServerResponse, ctx: TokenEndpointContext, client: ClientRecord, address: string): boolean {
  const wait = ctx.grants.take(client.clientId);
  if (wait <= 0) return false;
  ctx.refusals.note(
    `grants ${client.clientId}`,
    "warn",
    { event: "token.grants-limited", clientId: client.clientId, address },
    "token grants limited: the client asks far faster than its tokens expire",
  );
  oauthError(res, 429, "temporarily_unavailable", "Too many token requests; reuse the access token until it expires", {
    "retry-after": String(wait),
  });
  return true;
}

/** Issues the access token and answers it as Keycloak does. */
function issue(res: ServerResponse, ctx: TokenEndpointContext, client: ClientRecord, scope: string): void {
  const token = issueAccessToken(
    ctx.keys(),
    {
      issuer: ctx.issuer,
      audience: ctx.audience,
      subject: client.id,
      clientId: client.clientId,
      scope,
      notBefore: client.notBefore,
    },
    ctx.now?.() ?? Date.now(),
  );
  ctx.log.debug({ event: "token.issued", clientId: client.clientId, scope }, "token issued");
  sendOAuth(res, 200, {
    access_token: token.accessToken,
    expires_in: TOKEN_TTL_SECONDS,
    refresh_expires_in: 0,
    token_type: "Bearer",
    "not-before-policy": 0,
    scope,
  });
}

/** A refused authentication, logged once, then counted per client and address (RepeatSummary). */
function refused(ctx: TokenEndpointContext, key: string, fields: Record<string, unknown>): void {
  ctx.refusals.note(`denied ${key}`, "info", fields, "client authentication failed");
}

/** Answers 429 when `limiter` refuses `key` now; true when it did. */
function throttled(
  res: ServerResponse,
  ctx: TokenEndpointContext,
  limiter: FailureLimiter,
  key: string,
  logKey: string,
  shown: Record<string, unknown>,
): boolean {
  const wait = limiter.retryAfter(key);
  if (wait === 0) return false;
  ctx.refusals.note(
    `throttled ${logKey}`,
    "warn",
    { event: "token.throttled", ...shown, retryAfter: wait },
    "client authentication throttled",
  );
  oauthError(res, 429, "temporarily_unavailable", "Too many failed client authentications; retry later", {
    "retry-after": String(wait),
  });
  return true;
}

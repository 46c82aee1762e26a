// The Keycloak-compatible token endpoint: POST /auth/realms/<realm>/protocol/openid-connect/token,
// client credentials grant only. Checks in Keycloak's order, with Keycloak's statuses and bodies:
// content type (415), grant_type missing (400 invalid_request) or other (400 unsupported_grant_type),
// client authentication (client_secret_basic, each half URL-decoded per RFC 6749 §2.3.1, or
// client_secret_post; 400/401), duplicated parameters (400), scope (required; 400 invalid_scope).
// Failed client authentications are limited per client id and per address (429 + Retry-After).
// No secret or token is ever logged.
import type { IncomingMessage, ServerResponse } from "node:http";

import type { Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { authenticateClient } from "./clients.js";
import type { KeySet } from "./keys.js";
import { TOKEN_TTL_SECONDS } from "./keys.js";
import type { FailureLimiter } from "./ratelimit.js";
import { issueAccessToken } from "./tokens.js";

export interface TokenEndpointContext {
  store: Store;
  keys(): KeySet;
  issuer: string;
  audience: string;
  perClient: FailureLimiter;
  perAddress: FailureLimiter;
  log: Logger;
  now?: () => number;
}

const MAX_BODY = 16 * 1024;
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

/** Reads the body up to MAX_BODY bytes; undefined when it is larger. */
export function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
  });
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

function remoteAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

export async function handleTokenRequest(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: TokenEndpointContext,
): Promise<void> {
  if (req.method !== "POST") {
    req.resume();
    oauthError(res, 405, "HTTP 405 Method Not Allowed", undefined, { allow: "POST, OPTIONS" });
    return;
  }
  const contentType = req.headers["content-type"];
  const isForm = contentType !== undefined && /^application\/x-www-form-urlencoded(\s*;.*)?$/i.test(contentType.trim());
  const body = await readBody(req);
  if (body === undefined) {
    oauthError(res, 413, "invalid_request", "Request entity too large");
    return;
  }
  // Keycloak's form endpoint consumes only form bodies; an empty POST without a type is an empty form.
  if (!isForm && !(contentType === undefined && body.length === 0)) {
    oauthError(res, 415, "HTTP 415 Unsupported Media Type", undefined);
    return;
  }
  const form = new URLSearchParams(body.toString("utf8"));
  const first = (name: string) => form.get(name) ?? undefined;

  const grantType = first("grant_type");
  if (!grantType) {
    oauthError(res, 400, "invalid_request", "Missing form parameter: grant_type");
    return;
  }
  if (grantType !== "client_credentials") {
    oauthError(res, 400, "unsupported_grant_type", "Unsupported grant_type");
    return;
  }

  // Client authentication, as Keycloak's ClientIdAndSecretAuthenticator does it.
  const address = remoteAddress(req);
  const authorization = req.headers.authorization;
  let clientId: string | undefined;
  let secret: string | undefined;
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (basic) {
      clientId = basic.clientId;
      secret = basic.secret;
    } else if (!form.has("client_id")) {
      ctx.perAddress.fail(address);
      oauthError(res, 401, "invalid_client", INVALID_CREDENTIALS);
      return;
    }
  }
  if (form.has("client_secret")) secret = first("client_secret");
  clientId ??= first("client_id");
  if (!clientId) {
    oauthError(res, 400, "invalid_client", "Missing client_id parameter");
    return;
  }
  const wait = Math.max(ctx.perAddress.retryAfter(address), ctx.perClient.retryAfter(clientId));
  if (wait > 0) {
    ctx.log.warn({ event: "token.throttled", clientId, address }, "client authentication throttled");
    oauthError(res, 429, "temporarily_unavailable", "Too many failed client authentications; retry later", {
      "retry-after": String(wait),
    });
    return;
  }
  const failed = (status: number, error: string, description: string, reason: string) => {
    ctx.perAddress.fail(address);
    ctx.perClient.fail(clientId);
    ctx.log.info({ event: "token.denied", clientId, address, reason }, "client authentication failed");
    oauthError(res, status, error, description);
  };
  if (secret === undefined) {
    const result = authenticateClient(ctx.store, clientId, "");
    if (result.ok || result.reason === "secret")
      failed(401, "unauthorized_client", "Invalid client secret", "missing secret");
    else failed(401, "invalid_client", INVALID_CREDENTIALS, result.reason);
    return;
  }
  const auth = authenticateClient(ctx.store, clientId, secret);
  if (!auth.ok) {
    if (auth.reason === "secret") failed(401, "unauthorized_client", INVALID_CREDENTIALS, "wrong secret");
    else failed(401, "invalid_client", INVALID_CREDENTIALS, auth.reason);
    return;
  }
  const client = auth.client;

  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length !== 1) {
      oauthError(res, 400, "invalid_request", "duplicated parameter");
      return;
    }
  }
  const scopeParam = first("scope");
  if (scopeParam === undefined || scopeParam.trim() === "") {
    oauthError(res, 400, "invalid_request", "Missing form parameter: scope");
    return;
  }
  const requested = [...new Set(scopeParam.split(" ").filter(Boolean))];
  if (requested.some((s) => !client.scopes.includes(s))) {
    oauthError(res, 400, "invalid_scope", `Invalid scopes: ${scopeParam}`);
    return;
  }
  const scope = requested.join(" ");
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

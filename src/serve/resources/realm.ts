// The embedded SSO's realm, Keycloak's paths and answers: the token endpoint (with its failure and
// grant limits), OpenID discovery, the JWKS, and the authorization endpoint that discovery must name
// (this realm grants client credentials only, so it refuses as Keycloak does). Under /auth/realms/<realm>
// and, as Keycloak 17+ serves them, /realms/<realm> (whose issuer has no /auth prefix). With an external
// issuer (EXRATES_OIDC_ISSUER) the realm is off and its paths say where tokens come from.
import type { IncomingMessage, ServerResponse } from "node:http";

import { discoveryDocument, jwksDocument } from "../../auth/discovery.js";
import { publishedAt, type KeySet } from "../../auth/keys.js";
import { FailureLimiter, GrantLimiter, type GrantOptions, type LimitOptions } from "../../auth/ratelimit.js";
import { handleTokenRequest, sendOAuth, type TokenEndpointContext } from "../../auth/token-endpoint.js";
import type { Config } from "../../config.js";
import type { Logger, RepeatSummary } from "../../log.js";
import type { Store } from "../../store/database.js";
import type { Handler, MatchedRoute, ServeContext, SsoEndpoints } from "../context.js";
import { sendJson, sendProblem } from "../http/respond.js";
import { API_ALLOW, discardBody } from "../http/router.js";

/** Failed client authentications allowed by default, per (client id, address) and per address. */
const DEFAULT_PER_CLIENT: LimitOptions = { max: 10, windowMs: 60_000, capacity: 20_000 };
const DEFAULT_PER_ADDRESS: LimitOptions = { max: 30, windowMs: 60_000, capacity: 20_000 };
/** Known clients' failures from one address, whichever client: ten clients' worth of failed tries. */
const DEFAULT_KNOWN_PER_ADDRESS: LimitOptions = { max: 100, windowMs: 60_000, capacity: 20_000 };
const NO_CACHE = { "cache-control": "no-cache" };

export interface SsoOptions {
  config: Config;
  store: Store;
  log: Logger;
  keys: () => KeySet;
  now: () => number;
  issuer: string;
  /** The issuer of the realm's /realms/<realm> form (Keycloak 17+ paths). */
  plainIssuer: string;
  /** Tokens' audience: the API's public URL. */
  publicUrl: string;
  /** Refused authentications are logged as one summary line a minute. */
  refusals: RepeatSummary;
  clientAddress: (req: IncomingMessage) => string;
  /** The token endpoint's limits (defaults: DEFAULT_PER_CLIENT, DEFAULT_PER_ADDRESS, config.tokenGrantsPerMinute). */
  rateLimit?: RateLimitOptions;
}

/** The token endpoint's limits (each defaulted). */
export interface RateLimitOptions {
  perClient?: LimitOptions;
  perAddress?: LimitOptions;
  knownPerAddress?: LimitOptions;
  grants?: GrantOptions;
}

/** The embedded realm's endpoints. */
export function createSso(options: SsoOptions): SsoEndpoints {
  const { config, now, issuer, plainIssuer } = options;
  const token: TokenEndpointContext = {
    store: options.store,
    keys: options.keys,
    issuer,
    audience: options.publicUrl,
    perClient: new FailureLimiter(options.rateLimit?.perClient ?? DEFAULT_PER_CLIENT, now),
    perAddress: new FailureLimiter(options.rateLimit?.perAddress ?? DEFAULT_PER_ADDRESS, now),
    knownPerAddress: new FailureLimiter(options.rateLimit?.knownPerAddress ?? DEFAULT_KNOWN_PER_ADDRESS, now),
    grants: new GrantLimiter(options.rateLimit?.grants ?? { perMinute: config.tokenGrantsPerMinute }, now),
    refusals: options.refusals,
    clientAddress: options.clientAddress,
    log: options.log,
    now,
  };
  const discovery = discoveryDocument(issuer, config.scope);
  const plainDiscovery = discoveryDocument(plainIssuer, config.scope);
  const plainToken: TokenEndpointContext = { ...token, issuer: plainIssuer };
  return {
    embedded: true,
    realm: config.realm,
    // Tokens carry the issuer of the path they were asked under, as Keycloak's do.
    token: (req, res, plain) => handleTokenRequest(req, res, plain ? plainToken : token),
    discovery: (_req, res, head, plain) => sendJson(res, 200, plain ? plainDiscovery : discovery, NO_CACHE, head),
    // The keys published now: the active one and retired ones whose tokens may not have expired yet.
    jwks: (_req, res, head) =>
      sendJson(res, 200, jwksDocument(publishedAt(options.keys(), now()).map((k) => k.jwk)), NO_CACHE, head),
    authorization: (_req, res) =>
      sendOAuth(res, 400, {
        error: "unsupported_response_type",
        error_description: "This realm supports the client credentials grant only",
      }),
  };
}

type RealmEndpoint = "discovery" | "jwks" | "authorization";

/** The realm's read-only endpoints, by their path under the realm. */
const REALM_ENDPOINTS = new Map<string, RealmEndpoint>([
  [".well-known/openid-configuration", "discovery"],
  ["protocol/openid-connect/certs", "jwks"],
  ["protocol/openid-connect/auth", "authorization"],
]);
const TOKEN_PATH = "protocol/openid-connect/token";

/** The route label of a realm path in the metrics: its token endpoint apart. */
export const isTokenPath = (route: { rest?: string[] }) => route.rest?.join("/") === TOKEN_PATH;

/** `/auth/realms/{realm}/...`: every method; Keycloak's answers, statuses and bodies. */
export const realm: Handler = (ctx, req, res, _head, route) => routeRealm(ctx, req, res, route, false);

/** `/realms/{realm}/...` (Keycloak 17+), under its own issuer. */
export const plainRealm: Handler = (ctx, req, res, _head, route) => routeRealm(ctx, req, res, route, true);

function routeRealm(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  route: MatchedRoute,
  plain: boolean,
): void | Promise<void> {
  const sso = ctx.sso;
  const path = route.rest!.join("/");
  if (sso.embedded && route.realm === sso.realm && path === TOKEN_PATH) return sso.token(req, res, plain);
  discardBody(req, res);
  if (!sso.embedded)
    return sendProblem(res, 404, { detail: `The embedded SSO is off; tokens come from ${sso.issuer}` });
  if (route.realm !== sso.realm) return sendOAuth(res, 404, { error: "Realm does not exist" });
  const endpoint = REALM_ENDPOINTS.get(path);
  if (!endpoint) return sendOAuth(res, 404, { error: "Unable to find matching target resource method" });
  if (req.method !== "GET" && req.method !== "HEAD")
    return sendOAuth(res, 405, { error: "HTTP 405 Method Not Allowed" }, { allow: API_ALLOW });
  return sso[endpoint](req, res, req.method === "HEAD", plain);
}

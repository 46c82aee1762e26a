// The embedded SSO's endpoints in its realm: the token endpoint, OpenID discovery, the JWKS, and the
// authorization endpoint that discovery must name (this realm grants client credentials only, so it
// refuses as Keycloak does).
import { discoveryDocument, jwksDocument } from "../../auth/discovery.js";
import { publishedAt, type KeySet } from "../../auth/keys.js";
import { handleTokenRequest, sendOAuth, type TokenEndpointContext } from "../../auth/token-endpoint.js";
import { sendJson } from "../http/respond.js";
import type { RealmRoutes } from "../routes.js";

export interface RealmContext {
  realm: string;
  issuer: string;
  /** The issuer of the realm's /realms/<realm> form (Keycloak 17+ paths). */
  plainIssuer: string;
  scope: string;
  keys: () => KeySet;
  now: () => number;
  token: TokenEndpointContext;
}

const NO_CACHE = { "cache-control": "no-cache" };

export function createRealmHandlers(ctx: RealmContext): RealmRoutes {
  const discovery = discoveryDocument(ctx.issuer, ctx.scope);
  const plainDiscovery = discoveryDocument(ctx.plainIssuer, ctx.scope);
  const plainToken: TokenEndpointContext = { ...ctx.token, issuer: ctx.plainIssuer };
  return {
    embedded: true,
    realm: ctx.realm,
    // Tokens carry the issuer of the path they were asked under, as Keycloak's do.
    token: (req, res, plain) => handleTokenRequest(req, res, plain ? plainToken : ctx.token),
    discovery: (_req, res, head, plain) => sendJson(res, 200, plain ? plainDiscovery : discovery, NO_CACHE, head),
    // The keys published now: the active one and retired ones whose tokens may not have expired yet.
    jwks: (_req, res, head) =>
      sendJson(res, 200, jwksDocument(publishedAt(ctx.keys(), ctx.now()).map((k) => k.jwk)), NO_CACHE, head),
    authorization: (_req, res) =>
      sendOAuth(res, 400, {
        error: "unsupported_response_type",
        error_description: "This realm supports the client credentials grant only",
      }),
  };
}

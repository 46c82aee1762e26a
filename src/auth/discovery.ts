// The realm's OpenID Provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414) and JWKS.
import type { JWK } from "jose";

import { ALLOWED_ALGS } from "./tokens.js";

export function realmPath(realm: string): string {
  return `/auth/realms/${realm}`;
}

export function issuerOf(publicUrl: string, realm: string): string {
  return `${publicUrl}${realmPath(realm)}`;
}

/**
 * The same realm under /realms/<realm>, as Keycloak 17+ serves it. Its discovery document names this
 * issuer: OpenID Connect Discovery requires the issuer to be the URL the document was found under,
 * and openid-client checks it, so each path form is its own issuer and the bearer check accepts both.
 */
export function plainIssuerOf(publicUrl: string, realm: string): string {
  return `${publicUrl}/realms/${realm}`;
}

export function discoveryDocument(issuer: string, scope: string): Record<string, unknown> {
  const oidc = `${issuer}/protocol/openid-connect`;
  return {
    issuer,
    // Required by OpenID discovery; this realm has no interactive login, and the endpoint says so.
    authorization_endpoint: `${oidc}/auth`,
    token_endpoint: `${oidc}/token`,
    jwks_uri: `${oidc}/certs`,
    grant_types_supported: ["client_credentials"],
    response_types_supported: ["none"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [...ALLOWED_ALGS],
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
    scopes_supported: [scope],
    claims_supported: [
      "iss",
      "sub",
      "aud",
      "exp",
      "iat",
      "jti",
      "typ",
      "azp",
      "client_id",
      "scope",
      "preferred_username",
    ],
  };
}

export function jwksDocument(keys: JWK[]): { keys: JWK[] } {
  return { keys };
}

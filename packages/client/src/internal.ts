// What exrates itself reuses of the client beyond its public API (`@exrates/client/internal`): the
// client credentials grant and the reading of a problem+json answer, for `exrates verify https://...`.
// Not for applications: it may change with any release.
export { clientCredentials, type TokenSource } from "./tokens.js";
export { problemOf } from "./errors.js";

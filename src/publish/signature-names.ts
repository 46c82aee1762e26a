// The names of a signed generation's files beside its manifest (src/publish/signing.ts), apart from the
// signing itself so that readers of a tree (the server) know them without loading the keys' code.

/** The manifest's detached JWS. */
export const SIGNATURE_FILE = "manifest.json.jws";
/** The publication keys' public JWKS. */
export const JWKS_FILE = "publication-jwks.json";

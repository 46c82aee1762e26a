// Signed publications: each generation's manifest (every file's path, size and sha256) gets a detached
// JWS (RFC 7515, appendix F: the payload left out of the compact form) by a signing key of its own,
// separate from the token keys and kept and rotated the same way (src/auth/keys.ts, in
// `<dataDir>/publication/keys/`); the public keys go beside the manifest as a JWKS. Anyone holding the
// JWKS checks a copy offline (`exrates verify`, src/publish/verify.ts).
import { join } from "node:path";

import { CompactSign } from "jose";

import { fileKeyStorage, loadOrCreateKeys, type KeySet, type KeyStorage } from "../auth/keys.js";
import type { Config } from "../config.js";
import type { Manifest } from "./tree.js";

import { JWKS_FILE, SIGNATURE_FILE } from "./signature-names.js";

/** Beside manifest.json in a generation: its detached signature, and the public keys. */
export { JWKS_FILE, SIGNATURE_FILE };

/** The manifest's bytes as the targets write them: what is signed. */
export const manifestText = (manifest: Manifest) => `${JSON.stringify(manifest, null, 2)}\n`;

/**
 * How long a retired publication key stays in the JWKS: 400 days. A token lives five minutes, but a
 * generation is served until the next publish and its copies (a bucket, a CDN, an auditor's share) are
 * kept far longer; a copy signed just before a rotation must still verify with the service's key set
 * for at least a year's audit after it.
 */
export const PUBLICATION_KEY_KEPT_SECONDS = 400 * 86_400;

/** Where the publication keys live: their own key file in the data directory. */
export function publicationKeyStorage(dataDir: string): KeyStorage {
  return fileKeyStorage(join(dataDir, "publication"), PUBLICATION_KEY_KEPT_SECONDS);
}

/** The publication keys, made on first use. */
export function loadPublicationKeys(dataDir: string): Promise<KeySet> {
  return loadOrCreateKeys(publicationKeyStorage(dataDir));
}

/** What a publish signs with: the publication keys, or nothing when the operator turned signing off. */
export const UNSIGNED = "unsigned" as const;
export type PublicationSigning = KeySet | typeof UNSIGNED;

/**
 * How this installation's publishes are signed: with the publication keys (made on first use), or
 * UNSIGNED when EXRATES_PUBLICATION_SIGNING=off. Every command that publishes asks here.
 */
export function publicationSigning(
  config: Pick<Config, "dataDir" | "unsignedPublications">,
): Promise<PublicationSigning> {
  return config.unsignedPublications ? Promise.resolve(UNSIGNED) : loadPublicationKeys(config.dataDir);
}

/** The detached compact JWS of the manifest's bytes: `<header>..<signature>`. */
export async function signManifest(text: string, keys: KeySet): Promise<string> {
  const jws = await new CompactSign(Buffer.from(text, "utf8"))
    .setProtectedHeader({ alg: "RS256", kid: keys.active.kid, typ: "exrates-manifest+jws" })
    .sign(keys.active.privateKey);
  const [header, , signature] = jws.split(".");
  return `${header}..${signature}\n`;
}

/** The public keys as a JWKS document. */
export function publicationJwks(keys: KeySet): string {
  return `${JSON.stringify({ keys: keys.published.map((k) => k.jwk) }, null, 2)}\n`;
}

/** The files a signed generation holds beside its manifest. */
export async function signatureFiles(manifest: Manifest, keys: KeySet): Promise<Record<string, string>> {
  return {
    [SIGNATURE_FILE]: await signManifest(manifestText(manifest), keys),
    [JWKS_FILE]: publicationJwks(keys),
  };
}

// Access tokens: issued by the embedded SSO (JWT, RS256, `kid`, Keycloak's claims) and checked by the
// proxy (RFC 6750). The check accepts RS256 only (never `none`, never an HMAC alg, whatever the
// header says), the configured issuer, `exp` with a few seconds of tolerance, a `kid` in the JWKS,
// an `iat` no older than the realm's token lifetime (whatever `exp` says), and - for the embedded SSO -
// an `iat` not before the client's not-before. A verified token is cached until it expires, so a
// request costs a map lookup, not a signature check.
import { randomUUID, sign } from "node:crypto";

import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";

import { UserError } from "../errors.js";
import type { ClientState } from "./clients.js";
import { CLOCK_TOLERANCE_SECONDS, TOKEN_TTL_SECONDS, publishedAt, type KeySet } from "./keys.js";

export const ALLOWED_ALGS = ["RS256"] as const;

export interface IssueInput {
  issuer: string;
  audience: string;
  /** The client's internal id: the service account's subject. */
  subject: string;
  clientId: string;
  scope: string;
  /** Epoch seconds; tokens of this client must not be issued before it. */
  notBefore: number;
}

export interface IssuedToken {
  accessToken: string;
  iat: number;
  exp: number;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Signs an access token with the active key (node:crypto directly: this is the token endpoint's hot path). */
export function issueAccessToken(keys: KeySet, input: IssueInput, nowMs = Date.now()): IssuedToken {
  // A token issued in the second of a reset would carry an iat before the new not-before.
  const iat = Math.max(Math.floor(nowMs / 1000), input.notBefore);
  const exp = iat + TOKEN_TTL_SECONDS;
  const header = { alg: "RS256", typ: "JWT", kid: keys.active.kid };
  const payload = {
    exp,
    iat,
    jti: randomUUID(),
    iss: input.issuer,
    aud: input.audience,
    sub: input.subject,
    typ: "Bearer",
    azp: input.clientId,
    scope: input.scope,
    preferred_username: `service-account-${input.clientId.toLowerCase()}`,
    client_id: input.clientId,
  };
  const signingInput = `${b64(header)}.${b64(payload)}`;
  const signature = sign("sha256", Buffer.from(signingInput), keys.active.privateKey).toString("base64url");
  return { accessToken: `${signingInput}.${signature}`, iat, exp };
}

export type BearerResult =
  | { kind: "ok"; clientId: string | undefined; subject: string | undefined }
  | { kind: "missing" }
  | { kind: "invalid_request"; description: string }
  | { kind: "invalid_token"; description: string }
  | { kind: "insufficient_scope"; description: string };

interface CachedToken {
  /** Epoch ms after which the token is expired (tolerance included). */
  expiresAt: number;
  iat: number;
  clientId: string | undefined;
  subject: string | undefined;
  hasScope: boolean;
  /** The answer for a valid token, allocated once. */
  ok: BearerResult;
}

const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** A compact JWS: three segments of unpadded base64url (RFC 7515 §7.1; padding and '+' '/' are not base64url). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Each segment in its one canonical spelling: no impossible length, no stray bits in the last character. */
function strictSegments(token: string): boolean {
  if (!COMPACT_JWS.test(token)) return false;
  for (const segment of token.split(".")) {
    if (segment.length % 4 === 1) return false;
    if (Buffer.from(segment, "base64url").toString("base64url") !== segment) return false;
  }
  return true;
}
const MAX_TOKEN_LENGTH = 8192;
const CACHE_LIMIT = 50_000;

export interface BearerCheckerOptions {
  /** The issuer tokens must name (the embedded realm has two: /auth/realms/<realm> and /realms/<realm>). */
  issuer: string | string[];
  /** The scope a token must carry to read the API. */
  scope: string;
  /** Embedded SSO: the signing keys (re-read through this function, so a rotation counts at once). */
  keys?: () => KeySet;
  /**
   * Embedded SSO: each client's enabled flag and not-before (undefined: unknown client); a promise
   * when an unknown id makes the server re-read its clients first.
   */
  clientState?: (clientId: string) => ClientState | undefined | Promise<ClientState | undefined>;
  /**
   * Embedded SSO on a shared database: re-reads the keys now. A token signed with a key this server
   * does not know yet (another replica's, just after a rotation) makes it re-read them first, at most
   * once per KEY_MISS_RELOAD_MS.
   */
  refreshKeys?: () => Promise<void>;
  /** External issuer: the key getter (createRemoteJWKSet over the realm's jwks_uri). */
  remoteKeys?: JWTVerifyGetKey;
  /**
   * The realm's token lifetime: a token issued (`iat`) longer ago than this plus the clock tolerance is
   * refused whatever its `exp` says (a token minted with a year-long exp by someone holding a key).
   * Default the embedded realm's TOKEN_TTL_SECONDS.
   */
  maxAgeSeconds?: number;
  now?: () => number;
}

/** The external realm's longest token lifetime assumed unless EXRATES_TOKEN_MAX_AGE_SECONDS says otherwise. */
export const EXTERNAL_TOKEN_MAX_AGE_SECONDS = 3600;

/** EXRATES_TOKEN_MAX_AGE_SECONDS (an external realm's access token lifespan), else the default. */
export function externalTokenMaxAge(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.EXRATES_TOKEN_MAX_AGE_SECONDS;
  if (!text) return EXTERNAL_TOKEN_MAX_AGE_SECONDS;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 86_400)
    throw new UserError(`EXRATES_TOKEN_MAX_AGE_SECONDS "${text}" is not a number of seconds from 1 to 86400`);
  return Number(text);
}

/** Unknown `kid`s re-read the keys at most this often (tokens with made-up kids cost one read a second). */
export const KEY_MISS_RELOAD_MS = 1000;

export class BearerChecker {
  private readonly cache = new Map<string, CachedToken>();
  private readonly now: () => number;
  private lastKeyRefresh = -Infinity;
  /**
   * The Authorization header of the last cached token answered, and its entry: the same header again
   * (one client's connections) is compared, not hashed (a token is ~1 KB) into the cache.
   */
  private lastHeader: string | undefined;
  private lastEntry: CachedToken | undefined;

  constructor(private readonly options: BearerCheckerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Drops every cached verification (after a key rotation, for instance). */
  clear(): void {
    this.cache.clear();
    this.lastHeader = this.lastEntry = undefined;
  }

  /**
   * Checks an `Authorization` header value (undefined when absent). A token in the cache is answered
   * synchronously (no promise, no signature check); only a token seen for the first time is verified.
   */
  check(authorization: string | undefined): BearerResult | Promise<BearerResult> {
    if (authorization === undefined) return { kind: "missing" };
    const last = this.lastEntry;
    if (last !== undefined && authorization === this.lastHeader && last.expiresAt > this.now())
      return this.decide(last);
    const space = authorization.indexOf(" ");
    const scheme = space < 0 ? authorization : authorization.slice(0, space);
    // Another scheme (Basic...) carries no bearer credentials: a plain challenge (RFC 6750 §3).
    if (scheme.length !== 6 || scheme.toLowerCase() !== "bearer") return { kind: "missing" };
    let token = space < 0 ? "" : authorization.slice(space + 1);
    if (token.charCodeAt(0) === 32) token = token.replace(/^ +/, "");
    const nowMs = this.now();
    const entry = this.cache.get(token);
    if (entry !== undefined) {
      if (entry.expiresAt > nowMs) {
        this.lastHeader = authorization;
        this.lastEntry = entry;
        return this.decide(entry);
      }
      this.cache.delete(token);
    }
    if (token === "") return { kind: "invalid_request", description: "The bearer token is missing" };
    if (token.length > MAX_TOKEN_LENGTH || !TOKEN68.test(token))
      return { kind: "invalid_request", description: "The Authorization header is malformed" };
    // jose decodes leniently (`==` appended to a segment still verifies); a token is taken only as issued.
    if (!strictSegments(token)) return { kind: "invalid_token", description: "The token is malformed" };
    return this.verify(token, nowMs).then((verified) => {
      if ("kind" in verified) return verified;
      if (this.cache.size >= CACHE_LIMIT) this.evict(nowMs);
      this.cache.set(token, verified);
      return this.decide(verified);
    });
  }

  private decide(entry: CachedToken): BearerResult | Promise<BearerResult> {
    if (!this.options.clientState) return this.decideWith(entry, undefined);
    const state = entry.clientId === undefined ? undefined : this.options.clientState(entry.clientId);
    return state instanceof Promise ? state.then((s) => this.decideWith(entry, s)) : this.decideWith(entry, state);
  }

  private decideWith(entry: CachedToken, state: ClientState | undefined): BearerResult {
    if (this.options.clientState) {
      if (!state || state.id !== entry.subject)
        return { kind: "invalid_token", description: "The client of this token no longer exists" };
      if (!state.enabled) return { kind: "invalid_token", description: "The client of this token is disabled" };
      if (entry.iat < state.notBefore)
        return {
          kind: "invalid_token",
          description: "The token was issued before the client's credentials were reset",
        };
    }
    if (!entry.hasScope)
      return { kind: "insufficient_scope", description: `The token does not grant the scope ${this.options.scope}` };
    return entry.ok;
  }

  private evict(nowMs: number): void {
    for (const [key, value] of this.cache) if (value.expiresAt <= nowMs) this.cache.delete(key);
    // Still full of live tokens: drop the oldest tenth (they are verified again if they come back).
    if (this.cache.size >= CACHE_LIMIT) {
      let n = Math.ceil(CACHE_LIMIT / 10);
      for (const key of this.cache.keys()) {
        if (n-- <= 0) break;
        this.cache.delete(key);
      }
    }
  }

  private async verify(token: string, nowMs: number): Promise<CachedToken | BearerResult> {
    let payload: JWTPayload;
    try {
      payload = await this.verifySignature(token, nowMs);
    } catch (error) {
      const refresh = this.options.refreshKeys;
      if (
        !(error instanceof joseErrors.JWKSNoMatchingKey) ||
        !refresh ||
        nowMs - this.lastKeyRefresh < KEY_MISS_RELOAD_MS
      )
        return { kind: "invalid_token", description: describeJoseError(error) };
      this.lastKeyRefresh = nowMs;
      try {
        await refresh();
        payload = await this.verifySignature(token, nowMs);
      } catch (again) {
        return { kind: "invalid_token", description: describeJoseError(again) };
      }
    }
    // An ID token or refresh token of the same realm is not an access token (Keycloak's `typ` claim).
    if (payload.typ !== undefined && payload.typ !== "Bearer")
      return { kind: "invalid_token", description: "The token is not an access token" };
    if (typeof payload.iat !== "number" || payload.iat > nowMs / 1000 + CLOCK_TOLERANCE_SECONDS) {
      return { kind: "invalid_token", description: "The token is issued in the future" };
    }
    const maxAge = this.options.maxAgeSeconds ?? TOKEN_TTL_SECONDS;
    // Older than the realm's lifetime: refused whatever its exp (and never cached past that age).
    const endOfLife = payload.iat + maxAge + CLOCK_TOLERANCE_SECONDS;
    if (endOfLife * 1000 <= nowMs)
      return { kind: "invalid_token", description: "The token is older than the realm's token lifetime" };
    const scopes = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
    const clientId =
      typeof payload.azp === "string"
        ? payload.azp
        : typeof payload.client_id === "string"
          ? payload.client_id
          : undefined;
    return {
      expiresAt: Math.min((payload.exp as number) + CLOCK_TOLERANCE_SECONDS, endOfLife) * 1000,
      iat: payload.iat,
      clientId,
      subject: payload.sub,
      hasScope: scopes.includes(this.options.scope),
      ok: { kind: "ok", clientId, subject: payload.sub },
    };
  }

  private async verifySignature(token: string, nowMs: number): Promise<JWTPayload> {
    const getKey: JWTVerifyGetKey | undefined = this.options.remoteKeys ?? this.localKeyGetter(nowMs);
    if (!getKey) throw new joseErrors.JWKSNoMatchingKey();
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: [...ALLOWED_ALGS],
      issuer: this.options.issuer,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp", "iat"],
      currentDate: new Date(nowMs),
    });
    return payload;
  }

  private localKeyGetter(nowMs: number): JWTVerifyGetKey | undefined {
    const keys = this.options.keys?.();
    if (!keys) return undefined;
    return (header) => {
      // jose has already refused any alg outside the allow-list by now; check again regardless.
      if (header.alg !== "RS256") throw new joseErrors.JOSEAlgNotAllowed("alg not allowed");
      const key = publishedAt(keys, nowMs).find((k) => k.kid === header.kid);
      if (!key) throw new joseErrors.JWKSNoMatchingKey();
      return key.publicKey;
    };
  }
}

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "The token has expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "The token's issuer is not this realm";
    if (error.claim === "nbf") return "The token is not yet valid";
    return `The token's ${error.claim} claim is invalid`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "The token's signing algorithm is not allowed";
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "The token's signing key is unknown";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "The token's signature is invalid";
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return "The token is malformed";
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JOSEError)
    return "The token could not be verified";
  return "The token could not be verified";
}

/**
 * Keys of an external realm: its discovery document names the `jwks_uri`, whose keys are fetched by
 * jose (cached, refetched on an unknown kid with a cooldown). Discovery is retried until it works.
 */
export function remoteKeyGetter(
  issuer: string,
  fetchImpl: typeof fetch = fetch,
): { getKey: JWTVerifyGetKey; ready(): Promise<void> } {
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  let pending: Promise<void> | undefined;
  const discover = async () => {
    const response = await fetchImpl(`${issuer}/.well-known/openid-configuration`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) throw new Error(`discovery of ${issuer} answered ${response.status}`);
    const doc = (await response.json()) as { issuer?: string; jwks_uri?: string };
    if (doc.issuer !== issuer) throw new Error(`discovery of ${issuer} names another issuer (${String(doc.issuer)})`);
    if (typeof doc.jwks_uri !== "string" || !/^https?:\/\//.test(doc.jwks_uri))
      throw new Error(`discovery of ${issuer} has no jwks_uri`);
    jwks = createRemoteJWKSet(new URL(doc.jwks_uri), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  };
  const ready = async () => {
    if (jwks) return;
    pending ??= discover().finally(() => (pending = undefined));
    await pending;
  };
  const getKey: JWTVerifyGetKey = async (header, token) => {
    await ready();
    return jwks!(header, token);
  };
  return { getKey, ready };
}

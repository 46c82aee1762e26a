// `exrates verify https://...`: a copy read over HTTP. Two kinds of URL: a static copy of a generation
// at any prefix (a CDN, a customer's share: `<url>/manifest.json`, `<url>/manifest.json.jws`,
// `<url>/<path>`), or the exrates service itself, whose served generation is such a copy under
// `/v1/publications/current/` (bearer-protected like the rates). The copy is checked as a directory
// is (src/publish/verify.ts), except that nothing lists what a URL prefix holds: extra files cannot be
// found. The key set is the one given, else the host's `/v1/publications/jwks.json`, else the copy's
// own. A token is sent only once the host asks for one (a 401; from then on with every request): the
// one given, else one granted to the client credentials (renewed as the client renews it,
// packages/client/src/tokens.ts) by the configured token endpoint or issuer, or, for the service's own served
// generation, by its embedded realm; only over https or loopback (a static copy that answers 401 gets
// no credentials). Every answer is read within a bound (the manifest's listed sizes, MAX_* below).
// Neither the token nor the secret is ever printed.
import type { JSONWebKeySet } from "jose";

import { clientCredentials, problemOf, type TokenSource } from "@exrates/client/internal";
import { UserError } from "../errors.js";
import { redactUrl } from "../feed/redact.js";
import { registerSecret } from "../secrets.js";
import { JWKS_FILE, SIGNATURE_FILE } from "./signature-names.js";
import { SUFFIX } from "./target.js";
import { MANIFEST, type Manifest, type ManifestFile } from "./tree.js";
import { verifyCopy, type VerifyResult } from "./verify.js";

/** Where the service serves its current generation. */
export const SERVED_GENERATION = "/v1/publications/current";
/** The service's publication keys. */
export const PUBLICATION_JWKS = "/v1/publications/jwks.json";

/** The manifest is read up to this size: beyond it, the copy is refused. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;
/** The signature, a key set, a token endpoint's answer: small files, read up to this size. */
export const MAX_SMALL_BYTES = 1024 * 1024;
/** No listed file is read beyond this size, whatever its manifest says. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Files read ahead (all at once) only while the manifest lists at most this many bytes in all. */
export const PREFETCH_BUDGET_BYTES = 64 * 1024 * 1024;

/** At most how many bytes of a file (or of its compressed sibling) are read. */
export function readLimit(file: ManifestFile | undefined, encoding?: "br" | "gzip"): number {
  if (!file) return MAX_SMALL_BYTES;
  // A compressed sibling of incompressible bytes is at most a little larger than them.
  const listed = encoding ? file.bytes + Math.ceil(file.bytes / 64) + 4096 : file.bytes;
  // One byte more than listed: a longer answer is then cut there, and the check says "altered".
  return Math.min(listed + 1, MAX_FILE_BYTES);
}

export interface HttpVerifyOptions {
  /** The trusted key set; default the host's, else the copy's own. */
  jwks?: JSONWebKeySet;
  /** A bearer token (`--token`, EXRATES_TOKEN). */
  token?: string;
  /** Client credentials, used to get a token from the host when none is given and the host asks for one. */
  clientId?: string;
  clientSecret?: string;
  /**
   * The token endpoint the client credentials go to; default the configured issuer's (`issuer`), else,
   * only when the URL is the exrates service itself, its embedded realm's. Never another host's.
   */
  tokenUrl?: string;
  /** The configured OIDC issuer (EXRATES_OIDC_ISSUER): its token endpoint is `<issuer>/protocol/openid-connect/token`. */
  issuer?: string;
  realm?: string;
  scope?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface HttpVerifyResult extends VerifyResult {
  /** The URL prefix the copy was read under (the service's served generation, or the URL given). */
  copy: string;
  /** Which key set was used: "the key set given", "the key set of <the host's JWKS URL>", "the key set beside the copy". */
  keySet: string;
}

/** Reads a copy's files over HTTP, with the bearer token once the host asks for one. */
class HttpReader {
  private tokens: TokenSource | undefined;
  /** The token given (never replaced: a granted one lives in `tokens`). */
  private readonly token: string | undefined;
  /** The host answered 401 once: every later request carries the token. */
  private asked = false;
  /** The generations the answers named (X-Exrates-Generation): more than one, a publish happened meanwhile. */
  readonly generations = new Set<string>();
  /** The copy is the service's served generation: its embedded realm may be asked for a token. */
  service = false;

  constructor(
    private readonly origin: string,
    private readonly options: HttpVerifyOptions,
  ) {
    this.token = options.token;
  }

  /** The body of a 200; undefined for a 404 (a file the copy does not have); a clear error otherwise. */
  async get(url: string, { auth = true, limit = MAX_SMALL_BYTES, cut = false } = {}): Promise<Buffer | undefined> {
    const sent = auth && this.asked ? await this.current() : undefined;
    let answer = await this.request(url, sent, { limit, cut });
    if (answer.status === 401 && auth) {
      answer = await this.request(url, await this.after401(url, sent), { limit, cut });
      if (answer.status === 401) throw refusedToken(url);
    }
    if (answer.status === 404 || answer.status === 410) return undefined;
    if (answer.status === 403) throw new UserError(`${redactUrl(url)}: the token lacks the API's scope (403)`);
    if (answer.status !== 200) throw new UserError(`${redactUrl(url)}: HTTP ${answer.status}`);
    return answer.body;
  }

  private async request(
    url: string,
    token: string | undefined,
    bound: { limit: number; cut: boolean },
  ): Promise<{ status: number; body: Buffer }> {
    const fetcher = this.options.fetch ?? globalThis.fetch;
    try {
      const res = await fetcher(url, {
        headers: { "accept-encoding": "identity", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        redirect: "follow",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      const generation = res.headers.get("x-exrates-generation");
      if (generation && res.status === 200) this.generations.add(generation);
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => undefined);
        return { status: res.status, body: Buffer.alloc(0) };
      }
      return { status: res.status, body: await readCapped(res, url, bound.limit, bound.cut) };
    } catch (error) {
      if (error instanceof UserError) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new UserError(`${redactUrl(url)}: cannot be read (${why})`, { cause: error });
    }
  }

  /** The token to send once the host asked for one: the one given, or the granted one (renewed as it ages). */
  private async current(): Promise<string | undefined> {
    if (!this.tokens) return this.token;
    try {
      const token = await this.tokens.get();
      registerSecret(token);
      return token;
    } catch (error) {
      throw new UserError(`the token endpoint refused the client credentials: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** The host answered 401 to `sent`: the token to try next, or a clear error saying how to give one. */
  private async after401(url: string, sent: string | undefined): Promise<string | undefined> {
    this.asked = true;
    if (sent !== undefined) {
      // A granted token refused (revoked, or expired early): one new grant; a given one: nothing to do.
      if (!this.tokens) throw refusedToken(url);
      this.tokens.refused(sent);
      return this.current();
    }
    if (this.token || this.tokens) return this.current();
    const { clientId, clientSecret } = this.options;
    if (!clientId || !clientSecret)
      throw new UserError(
        `${redactUrl(url)} needs a bearer token: give --token (or EXRATES_TOKEN), or EXRATES_CLIENT_ID and EXRATES_CLIENT_SECRET of a client of the service`,
      );
    this.tokens = clientCredentials({
      tokenUrl: this.tokenEndpoint(url),
      clientId,
      clientSecret,
      scope: this.options.scope ?? "exchange-rates",
      post: (to, body) => this.postForm(to, body),
      now: Date.now,
    });
    return this.current();
  }

  /**
   * Where the client credentials may go: the token endpoint configured (EXRATES_TOKEN_URL), else the
   * configured issuer's, else the embedded realm of the exrates service the URL names, and only over
   * https or to a loopback address. A host that merely answered 401 (a static copy, a redirect's
   * target) never gets them.
   */
  private tokenEndpoint(url: string): string {
    const realm = encodeURIComponent(this.options.realm ?? "exrates");
    const configured =
      this.options.tokenUrl ??
      (this.options.issuer ? `${this.options.issuer.replace(/\/+$/, "")}/protocol/openid-connect/token` : undefined);
    const endpoint =
      configured ?? (this.service ? `${this.origin}/auth/realms/${realm}/protocol/openid-connect/token` : undefined);
    if (!endpoint)
      throw new UserError(
        `${redactUrl(url)} asked for a token (401), but it is not the exrates service's own generation: client credentials go only to a configured token endpoint (EXRATES_TOKEN_URL or EXRATES_OIDC_ISSUER); or give --token`,
      );
    if (!safeForCredentials(endpoint))
      throw new UserError(
        `${redactUrl(endpoint)}: client credentials are sent only over https or to a loopback address`,
      );
    return endpoint;
  }

  private async postForm(url: string, body: URLSearchParams) {
    const fetcher = this.options.fetch ?? globalThis.fetch;
    let res: Response;
    try {
      res = await fetcher(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        // The credentials are never carried on to wherever a redirect points.
        redirect: "error",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new UserError(`${redactUrl(url)}: cannot be read (${(error as Error).message})`, { cause: error });
    }
    const text = (await readCapped(res, url, MAX_SMALL_BYTES, false)).toString("utf8");
    const contentType = res.headers.get("content-type") ?? "";
    if (res.status !== 200)
      return { status: res.status, json: undefined, error: problemOf(res.status, res.statusText, contentType, text) };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  }
}

/** https, or http to a loopback address (the service on the same machine). */
export function safeForCredentials(endpoint: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(endpoint);
  } catch {
    return false;
  }
  if (parsed.protocol === "https:") return true;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  return parsed.protocol === "http:" && (host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/**
 * A 200's body, read as it comes and stopped past `limit` bytes: with `cut`, the bytes up to there (a
 * file longer than its manifest lists is cut one byte past it, and the check says it is altered);
 * without, a clear error. Memory stays at the limit whatever the server sends.
 */
async function readCapped(res: Response, url: string, limit: number, cut: boolean): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limit - size;
      if (value.byteLength > room) {
        if (!cut)
          throw new UserError(`${redactUrl(url)}: the answer is larger than the ${limit} bytes verify reads of it`);
        chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
        size += room;
        break;
      }
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, size);
}

const refusedToken = (url: string) =>
  new UserError(`${redactUrl(url)}: the host refused the token (401): it is invalid, expired or revoked`);

/** The URL without a trailing slash, checked; its origin. */
function parseBase(url: string): { base: string; origin: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`${redactUrl(url)} is not a URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new UserError(`${redactUrl(url)}: only http:// and https:// URLs are read`);
  if (parsed.search || parsed.hash) throw new UserError(`${redactUrl(url)}: give the copy's URL without ? or #`);
  return { base: parsed.href.replace(/\/+$/, ""), origin: parsed.origin };
}

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** The key set of the host's `/v1/publications/jwks.json`, when it serves one. */
async function hostJwks(reader: HttpReader, origin: string): Promise<JSONWebKeySet | undefined> {
  const body = await reader.get(`${origin}${PUBLICATION_JWKS}`, { auth: false }).catch(() => undefined);
  if (!body) return undefined;
  try {
    const jwks = JSON.parse(body.toString("utf8")) as JSONWebKeySet;
    return Array.isArray(jwks?.keys) ? jwks : undefined;
  } catch {
    return undefined;
  }
}

/** Files read at once over HTTP (a large tree is a few thousand requests). */
const READ_CONCURRENCY = 8;

/**
 * The copy's manifest, signature, keys and every listed file with its siblings, read READ_CONCURRENCY
 * at a time, by path (a 404 is absent: the check names it missing).
 */
async function prefetch(reader: HttpReader, copy: string): Promise<Map<string, Promise<Buffer | undefined>>> {
  const files = new Map<string, Promise<Buffer | undefined>>();
  const manifest = reader.get(`${copy}/${MANIFEST}`, { limit: MAX_MANIFEST_BYTES });
  files.set(MANIFEST, manifest);
  const paths: Array<[string, ManifestFile | undefined, "br" | "gzip" | undefined]> = [
    [SIGNATURE_FILE, undefined, undefined],
    [JWKS_FILE, undefined, undefined],
  ];
  const bytes = await manifest;
  try {
    const listed = bytes ? (JSON.parse(bytes.toString("utf8")) as Manifest).files : {};
    const ahead: typeof paths = [];
    let total = 0;
    for (const [path, file] of Object.entries(listed ?? {})) {
      ahead.push([path, file, undefined]);
      total += readLimit(file);
      for (const encoding of file.encodings ?? []) {
        ahead.push([path + SUFFIX[encoding], file, encoding]);
        total += readLimit(file, encoding);
      }
    }
    // A larger copy is read file by file as the check goes (each bounded by its listed size).
    if (total <= PREFETCH_BUDGET_BYTES) paths.push(...ahead);
  } catch {
    // Not JSON: the check says so, reading what it needs itself.
  }
  let next = 0;
  const results = new Map<string, Buffer | undefined>();
  const worker = async () => {
    while (next < paths.length) {
      const [path, file, encoding] = paths[next++]!;
      const limit = readLimit(file, encoding);
      results.set(path, await reader.get(`${copy}/${encodePath(path)}`, { limit, cut: file !== undefined }));
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  for (const [path, body] of results) files.set(path, Promise.resolve(body));
  return files;
}

/**
 * Verifies the copy at `url`: a static copy when `<url>/manifest.json` is there, else the service's
 * served generation (`<url>/v1/publications/current/`). A publish during the check (the service's
 * generation changed) restarts it, once.
 */
export async function verifyUrl(url: string, options: HttpVerifyOptions = {}): Promise<HttpVerifyResult> {
  const { base, origin } = parseBase(url);
  const reader = new HttpReader(origin, options);
  let copy = base;
  const manifestOnly = { limit: MAX_MANIFEST_BYTES };
  if (!(await reader.get(`${base}/${MANIFEST}`, manifestOnly))) {
    copy = `${base}${SERVED_GENERATION}`;
    reader.service = true;
    if (!(await reader.get(`${copy}/${MANIFEST}`, manifestOnly)))
      throw new UserError(
        `${redactUrl(base)}: neither a copy of a published tree (no ${MANIFEST}) nor an exrates service (no ${SERVED_GENERATION}/${MANIFEST})`,
      );
  }
  let jwks = options.jwks;
  let keySet = "the key set given";
  if (!jwks) {
    jwks = await hostJwks(reader, origin);
    keySet = jwks
      ? `the key set of ${redactUrl(origin).replace(/\/$/, "")}${PUBLICATION_JWKS}`
      : "the key set beside the copy";
  }
  const check = async () => {
    const files = await prefetch(reader, copy);
    const read = (path: string, file?: ManifestFile, encoding?: "br" | "gzip") => {
      const bound = path === MANIFEST ? manifestOnly : { limit: readLimit(file, encoding), cut: file !== undefined };
      return files.get(path) ?? reader.get(`${copy}/${encodePath(path)}`, bound);
    };
    return verifyCopy({ read }, jwks);
  };
  reader.generations.clear();
  let result = await check();
  if (reader.generations.size > 1) {
    reader.generations.clear();
    result = await check();
  }
  return { ...result, copy: redactUrl(copy), keySet };
}

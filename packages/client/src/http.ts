// How the client sends a request: the bearer token (one renewal and one retry after a 401), 429 and
// 503 retried after `Retry-After` up to a bound, network failures retried with a backoff, `If-None-Match`
// from the ETag cache and a 304 answered from it, a timeout, and debug events that carry the method,
// the path, the status and the wait, never a header.
import { ExratesError, networkError, problemOf } from "./errors.js";
import type { CachedAnswer, ResponseCache } from "./cache.js";
import type { TokenSource } from "./tokens.js";

/** What the client tells a debug hook (no header, no body, no query value that could be a credential). */
export interface DebugEvent {
  event: "request" | "answer" | "retry" | "renew" | "reconnect" | "grant";
  method?: string;
  /** Origin and path of the request (the query is left out). */
  url?: string;
  status?: number;
  attempt?: number;
  waitMs?: number;
  fromCache?: boolean;
  /** Seconds the new token lives (`grant`). */
  expiresIn?: number;
  lastEventId?: string;
  reason?: string;
}

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  /** Retries of a 429, a 503 or a network failure (default 3). */
  retries: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown with `retryAfter` (default 30 s). */
  maxRetryDelayMs: number;
  /** Per attempt (default 30 s; not for the event stream once open). */
  timeoutMs: number;
  userAgent: string;
  debug: ((event: DebugEvent) => void) | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  fromCache: boolean;
}

/** The headers an answer's reader may need, kept with the cached body. */
const KEPT_HEADERS = [
  "content-type",
  "content-disposition",
  "content-location",
  "etag",
  "last-modified",
  "x-currencies-not-quoted",
  "x-as-of",
];

export const where = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

export class Transport {
  constructor(
    readonly options: TransportOptions,
    private readonly tokens: TokenSource,
    private readonly cache: ResponseCache | undefined,
  ) {}

  /** A GET of the API, read whole (a 304 answered from the cache). Throws ExratesError unless 2xx. */
  async get(url: URL, accept: string, signal?: AbortSignal, conditional = true): Promise<Answer> {
    const key = `${accept} ${url.href}`;
    const cached = conditional ? this.cache?.get(key) : undefined;
    const response = await this.authorized(
      url,
      { accept, ...(cached ? { "if-none-match": cached.etag } : {}) },
      signal,
    );
    if (response.status === 304 && cached) {
      await response.body?.cancel();
      this.debug({ event: "answer", method: "GET", url: where(url), status: 304, fromCache: true });
      return { status: 200, headers: cached.headers, body: cached.body, fromCache: true };
    }
    if (response.status === 304) {
      // A 304 to a request without a condition (a proxy's doing): ask once more, without the cache.
      await response.body?.cancel();
      if (!conditional) throw errorOf(response, Buffer.alloc(0), `GET ${url.pathname}`);
      return this.get(url, accept, signal, false);
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw errorOf(response, body, `GET ${url.pathname}`);
    const headers = keptHeaders(response.headers);
    if (this.cache && headers.etag) this.cache.set(key, { etag: headers.etag, body, headers } satisfies CachedAnswer);
    return { status: response.status, headers, body, fromCache: false };
  }

  /** A GET whose body is read by the caller as it comes (the event stream). Throws unless 2xx. */
  async open(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const response = await this.authorized(url, headers, signal, false);
    if (!response.ok) throw errorOf(response, Buffer.from(await response.arrayBuffer()), `GET ${url.pathname}`);
    return response;
  }

  /** A form POST without a token (the token endpoint): 429/503 retried, the JSON body or the error. */
  async postForm(url: string, form: URLSearchParams): Promise<{ status: number; json: unknown; error?: ExratesError }> {
    const target = new URL(url);
    const response = await this.send(target, "POST", { accept: "application/json" }, form);
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok)
      return { status: response.status, json: undefined, error: errorOf(response, body, `POST ${target.pathname}`) };
    try {
      return { status: response.status, json: JSON.parse(body.toString("utf8")) };
    } catch {
      return { status: response.status, json: undefined };
    }
  }

  /** A pause before a retry; the caller's abort ends it as an ExratesError like any other failure. */
  private async wait(ms: number, signal: AbortSignal | undefined, request: string): Promise<void> {
    try {
      await this.options.sleep(ms, signal);
    } catch (error) {
      throw networkError(error, request);
    }
  }

  debug(event: DebugEvent): void {
    this.options.debug?.(event);
  }

  /** Sends with the held token; a 401 drops it and the request goes once more with a new one. */
  private async authorized(
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
    timeout = true,
  ): Promise<Response> {
    const token = await this.tokens.get();
    const first = await this.send(
      url,
      "GET",
      { ...headers, authorization: `Bearer ${token}` },
      undefined,
      signal,
      timeout,
    );
    if (first.status !== 401) return first;
    const refusal = errorOf(first, Buffer.from(await first.arrayBuffer()), `GET ${url.pathname}`);
    this.tokens.refused(token);
    this.debug({ event: "renew", method: "GET", url: where(url), status: 401 });
    let renewed: string;
    try {
      renewed = await this.tokens.get();
    } catch (error) {
      // The API's reason (a disabled client, a reset secret) and why no new token came.
      const why = error instanceof Error ? error.message : String(error);
      throw new ExratesError(
        { ...fieldsOf(refusal), detail: `${refusal.detail}; a new token was refused: ${why}` },
        { cause: error },
      );
    }
    return this.send(url, "GET", { ...headers, authorization: `Bearer ${renewed}` }, undefined, signal, timeout);
  }

  /** One request with its retries of 429, 503 and network failures. */
  private async send(
    url: URL,
    method: "GET" | "POST",
    headers: Record<string, string>,
    body?: URLSearchParams,
    signal?: AbortSignal,
    timeout = true,
  ): Promise<Response> {
    const { retries, maxRetryDelayMs, timeoutMs } = this.options;
    const request = `${method} ${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      this.debug({ event: "request", method, url: where(url), attempt });
      const signals = [...(signal ? [signal] : []), ...(timeout ? [AbortSignal.timeout(timeoutMs)] : [])];
      let response: Response;
      try {
        response = await this.options.fetch(url, {
          method,
          headers: { "user-agent": this.options.userAgent, ...headers },
          body,
          signal: signals.length ? AbortSignal.any(signals) : undefined,
          redirect: "error",
        });
      } catch (error) {
        if (signal?.aborted || attempt >= retries) throw networkError(error, request);
        const waitMs = backoff(attempt);
        this.debug({ event: "retry", method, url: where(url), attempt, waitMs, reason: "no answer" });
        await this.wait(waitMs, signal, request);
        continue;
      }
      this.debug({ event: "answer", method, url: where(url), status: response.status, attempt });
      if (response.status !== 429 && response.status !== 503) return response;
      const asked = retryAfterMs(response.headers.get("retry-after"), Date.now());
      const waitMs = asked ?? backoff(attempt);
      if (attempt >= retries || waitMs > maxRetryDelayMs) return response;
      await response.body?.cancel();
      this.debug({ event: "retry", method, url: where(url), status: response.status, attempt, waitMs });
      await this.wait(waitMs, signal, request);
    }
  }
}

/** 0.5 s, 1 s, 2 s ... up to 8 s. */
const backoff = (attempt: number): number => Math.min(8000, 500 * 2 ** attempt);

/** `Retry-After` in seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function errorOf(response: Response, body: Buffer, request: string): ExratesError {
  const wait = retryAfterMs(response.headers.get("retry-after"), Date.now());
  return problemOf(response.status, response.statusText, response.headers.get("content-type") ?? "", body.toString(), {
    ...(wait === undefined ? {} : { retryAfter: Math.ceil(wait / 1000) }),
    request,
  });
}

function fieldsOf(error: ExratesError) {
  return {
    type: error.type,
    title: error.title,
    status: error.status,
    detail: error.detail,
    extensions: error.extensions,
    retryAfter: error.retryAfter,
    request: error.request,
  };
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return kept;
}

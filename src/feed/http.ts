// The one HTTP client every adapter fetches through: timeouts, polite retries with backoff and
// jitter (network errors, 429, 5xx, honouring Retry-After), redirects and other non-2xx answers
// as errors, a real User-Agent, and EXRATES_FEED_MIRROR rewriting for machines without internet.
import { Agent, request, type Dispatcher } from "undici";

import { HttpError } from "../errors.js";
import type { FeedDocument, HttpClient, HttpRequestInit } from "../types.js";
import { decodeContentEncoding } from "./archive.js";
import { pause } from "./helpers.js";
import { redactUrl } from "./redact.js";

export const USER_AGENT = "exrates/0.1 (+https://github.com/exrates/exrates; official central-bank rates)";

export interface HttpClientOptions {
  /** `http://host:port`: every `https://bank.host/path?q` is fetched as `http://host:port/bank.host/path?q`. */
  mirror?: string;
  retries?: number;
  /** First backoff delay in ms; doubled each try, with jitter. */
  backoffMs?: number;
  /** Longest wait between tries, including a server's Retry-After. */
  maxDelayMs?: number;
  connectTimeoutMs?: number;
  /** Time allowed for the headers and, separately, between body chunks. */
  readTimeoutMs?: number;
  /** Bodies above this size are refused (a feed is never this big). */
  maxBodyBytes?: number;
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry, for logs; the URL is already redacted. */
  onRetry?: (info: { url: string; attempt: number; delayMs: number; reason: string }) => void;
}

const RETRY_STATUS = (status: number) => status === 429 || status >= 500;

/** Rewrites a bank URL to the feed mirror, when one is configured. */
export function mirrorUrl(url: string, mirror: string | undefined): string {
  if (!mirror) return url;
  const u = new URL(url);
  return `${mirror.replace(/\/+$/, "")}/${u.host}${u.pathname}${u.search}`;
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(setCookie: string | string[] | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const pair = line.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export function createHttpClient(options: HttpClientOptions = {}, jar?: CookieJar): HttpClient {
  const retries = options.retries ?? 4;
  const backoffMs = options.backoffMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const sleep = options.sleep ?? pause;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 15_000 },
      headersTimeout: options.readTimeoutMs ?? 60_000,
      bodyTimeout: options.readTimeoutMs ?? 60_000,
    });

  async function once(method: "GET" | "POST", url: string, body: string | undefined, init: HttpRequestInit) {
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      accept: init.accept ?? "*/*",
      "accept-encoding": "identity",
      ...init.headers,
    };
    const cookie = jar?.header();
    if (cookie) headers.cookie = cookie;
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const res = await request(mirrorUrl(url, options.mirror), {
      method,
      headers,
      body,
      dispatcher,
      signal: init.signal,
    });
    jar?.store(res.headers["set-cookie"]);
    const declared = Number(header(res.headers, "content-length") ?? 0);
    if (declared > maxBodyBytes) {
      await res.body.dump();
      throw new HttpError(`${redactUrl(url)}: body of ${declared} bytes exceeds the ${maxBodyBytes}-byte limit`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBodyBytes) {
        res.body.destroy();
        throw new HttpError(`${redactUrl(url)}: body exceeds the ${maxBodyBytes}-byte limit`);
      }
      chunks.push(chunk as Buffer);
    }
    const encoding = header(res.headers, "content-encoding");
    return { res, body: decodeContentEncoding(redactUrl(url), encoding, Buffer.concat(chunks), maxBodyBytes) };
  }

  async function send(
    method: "GET" | "POST",
    url: string,
    body: string | undefined,
    init: HttpRequestInit = {},
  ): Promise<FeedDocument> {
    const shown = redactUrl(url);
    for (let attempt = 1; ; attempt++) {
      const startedAt = new Date();
      let reason: string;
      let serverDelay: number | undefined;
      try {
        const { res, body: bytes } = await once(method, url, body, init);
        const status = res.statusCode;
        if (status >= 200 && status < 300) {
          return {
            url,
            method,
            status,
            contentType: header(res.headers, "content-type") ?? "",
            body: bytes,
            ...(body === undefined ? {} : { requestBody: body }),
            startedAt,
            finishedAt: new Date(),
          };
        }
        if (status >= 300 && status < 400) {
          throw new HttpError(
            `${shown}: redirected (${status}) to ${redactUrl(header(res.headers, "location") ?? "?")}; a feed never redirects`,
            status,
          );
        }
        if (!RETRY_STATUS(status) || attempt > retries) {
          throw new HttpError(`${shown}: HTTP ${status}${attempt > 1 ? ` after ${attempt} tries` : ""}`, status);
        }
        reason = `HTTP ${status}`;
        serverDelay = retryAfterMs(res.headers["retry-after"]);
      } catch (error) {
        if (error instanceof HttpError) throw error;
        // The fetch's deadline (or a shutdown) ends it: no retry.
        if (init.signal?.aborted)
          throw new HttpError(`${shown}: ${abortReason(init.signal)}`, undefined, { cause: error });
        const message = (error as Error).message ?? String(error);
        if (attempt > retries)
          throw new HttpError(`${shown}: ${message} after ${attempt} tries`, undefined, { cause: error });
        reason = message;
      }
      const exponential = backoffMs * 2 ** (attempt - 1);
      const jittered = exponential / 2 + Math.random() * (exponential / 2);
      const delayMs = Math.min(maxDelayMs, Math.max(serverDelay ?? 0, jittered));
      options.onRetry?.({ url: shown, attempt, delayMs, reason });
      await untilAborted(sleep(delayMs), init.signal);
      if (init.signal?.aborted) throw new HttpError(`${shown}: ${abortReason(init.signal)} (after ${attempt} tries)`);
    }
  }

  return {
    get: (url, init) => send("GET", url, undefined, init),
    post: (url, body, init) => send("POST", url, body, init),
    session: () => createHttpClient({ ...options, dispatcher }, new CookieJar()),
  };
}

/** The default total deadline of one fetch. */
export const DEFAULT_FETCH_DEADLINE_SECONDS = 120;

/** Why a fetch was ended: its deadline (the reason it was aborted with), or a shutdown. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof FetchDeadline ? reason.message : "stopped (shutting down)";
}

/** Resolves with `wait`, or as soon as the signal aborts. */
function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done);
    void wait.then(done, done);
  });
}

/** The reason a fetch's requests are aborted with when its total deadline passes. */
export class FetchDeadline extends Error {
  constructor(readonly seconds: number) {
    super(`no complete answer within the ${seconds} s deadline of one fetch (a server sending slowly or stalled)`);
  }
}

/**
 * The client one fetch goes through: every request of it (its session's too) ends when the fetch's
 * total deadline passes, however the server drips its answer, or when `outer` aborts (a shutdown).
 * `clear()` when the fetch is over.
 */
export function withDeadline(
  http: HttpClient,
  seconds: number,
  outer?: AbortSignal,
): HttpClient & { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchDeadline(seconds)), seconds * 1000);
  timer.unref();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  const wrap = (client: HttpClient): HttpClient => ({
    get: (url, init) => client.get(url, { ...init, signal: both(controller.signal, init?.signal) }),
    post: (url, body, init) => client.post(url, body, { ...init, signal: both(controller.signal, init?.signal) }),
    session: () => wrap(client.session()),
  });
  return {
    ...wrap(http),
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

const both = (a: AbortSignal, b: AbortSignal | undefined): AbortSignal => (b ? AbortSignal.any([a, b]) : a);

/** A bank's total deadline for one fetch, in seconds. */
export const fetchDeadlineOf = (bank: { fetchDeadlineSeconds?: number }): number =>
  bank.fetchDeadlineSeconds ?? DEFAULT_FETCH_DEADLINE_SECONDS;

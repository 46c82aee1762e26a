// The one HTTP client every adapter fetches through: timeouts, polite retries with backoff and
// jitter (network errors, 429, 5xx, honouring Retry-After), redirects and other non-2xx answers
// as errors, a real User-Agent, and EXRATES_FEED_MIRROR rewriting for machines without internet.
import type { Dispatcher } from "undici";

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

/** The options with their defaults, and the one dispatcher a client and its sessions share. */
interface Settings {
  mirror: string | undefined;
  retries: number;
  backoffMs: number;
  maxDelayMs: number;
  maxBodyBytes: number;
  dispatcher: () => Promise<Dispatcher>;
  sleep: (ms: number) => Promise<void>;
  onRetry: HttpClientOptions["onRetry"];
}

type Method = "GET" | "POST";

/** One try's outcome: the bank's document, or why to try again (and how long the server asked to wait). */
type Attempt = { document: FeedDocument } | { reason: string; serverDelay?: number };

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  return clientOf(settingsOf(options), undefined);
}

function clientOf(settings: Settings, jar: CookieJar | undefined): HttpClient {
  return {
    get: (url, init) => send(settings, jar, "GET", url, undefined, init),
    post: (url, body, init) => send(settings, jar, "POST", url, body, init),
    session: () => clientOf(settings, new CookieJar()),
  };
}

/** undici, loaded at the first request: a command that reads a file, publishes or serves never loads it. */
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = () => (undici ??= import("undici"));

/** The client's one dispatcher (its sessions share it), made at its first request. */
function dispatcherOf(options: HttpClientOptions): () => Promise<Dispatcher> {
  const given = options.dispatcher;
  if (given) return () => Promise.resolve(given);
  let made: Promise<Dispatcher> | undefined;
  return () =>
    (made ??= loadUndici().then(
      ({ Agent }) =>
        new Agent({
          connect: { timeout: options.connectTimeoutMs ?? 15_000 },
          headersTimeout: options.readTimeoutMs ?? 60_000,
          bodyTimeout: options.readTimeoutMs ?? 60_000,
        }),
    ));
}

function settingsOf(options: HttpClientOptions): Settings {
  return {
    mirror: options.mirror,
    retries: options.retries ?? 4,
    backoffMs: options.backoffMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
    sleep: options.sleep ?? pause,
    onRetry: options.onRetry,
    dispatcher: dispatcherOf(options),
  };
}

/** A request's headers: ours, the caller's, the session's cookies, and a form content type for a body. */
function requestHeaders(init: HttpRequestInit, body: string | undefined, jar: CookieJar | undefined) {
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
  return headers;
}

/** The answer's body, decoded, refused as soon as it is declared or grows above maxBodyBytes. */
async function readBody(res: Dispatcher.ResponseData, url: string, maxBodyBytes: number): Promise<Buffer> {
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
  return decodeContentEncoding(redactUrl(url), encoding, Buffer.concat(chunks), maxBodyBytes);
}

async function once(
  s: Settings,
  jar: CookieJar | undefined,
  method: Method,
  url: string,
  body: string | undefined,
  init: HttpRequestInit,
) {
  const [{ request }, dispatcher] = await Promise.all([loadUndici(), s.dispatcher()]);
  const res = await request(mirrorUrl(url, s.mirror), {
    method,
    headers: requestHeaders(init, body, jar),
    body,
    dispatcher,
    signal: init.signal,
  });
  jar?.store(res.headers["set-cookie"]);
  return { res, body: await readBody(res, url, s.maxBodyBytes) };
}

async function send(
  s: Settings,
  jar: CookieJar | undefined,
  method: Method,
  url: string,
  body: string | undefined,
  init: HttpRequestInit = {},
): Promise<FeedDocument> {
  const shown = redactUrl(url);
  for (let attempt = 1; ; attempt++) {
    const outcome = await tryOnce(s, jar, method, url, body, init, attempt);
    if ("document" in outcome) return outcome.document;
    const exponential = s.backoffMs * 2 ** (attempt - 1);
    const jittered = exponential / 2 + Math.random() * (exponential / 2);
    const delayMs = Math.min(s.maxDelayMs, Math.max(outcome.serverDelay ?? 0, jittered));
    s.onRetry?.({ url: shown, attempt, delayMs, reason: outcome.reason });
    await untilAborted(s.sleep(delayMs), init.signal);
    if (init.signal?.aborted) throw new HttpError(`${shown}: ${abortReason(init.signal)} (after ${attempt} tries)`);
  }
}

/**
 * One try: a 2xx answer is the document; a redirect, an answer not worth retrying, the last try's
 * failure or an aborted fetch is an HttpError; anything else is a reason to try again.
 */
async function tryOnce(
  s: Settings,
  jar: CookieJar | undefined,
  method: Method,
  url: string,
  body: string | undefined,
  init: HttpRequestInit,
  attempt: number,
): Promise<Attempt> {
  const shown = redactUrl(url);
  const startedAt = new Date();
  try {
    const { res, body: bytes } = await once(s, jar, method, url, body, init);
    const status = res.statusCode;
    if (status >= 200 && status < 300) {
      return {
        document: {
          url,
          method,
          status,
          contentType: header(res.headers, "content-type") ?? "",
          body: bytes,
          ...(body === undefined ? {} : { requestBody: body }),
          startedAt,
          finishedAt: new Date(),
        },
      };
    }
    if (status >= 300 && status < 400) {
      throw new HttpError(
        `${shown}: redirected (${status}) to ${redactUrl(header(res.headers, "location") ?? "?")}; a feed never redirects`,
        status,
      );
    }
    if (!RETRY_STATUS(status) || attempt > s.retries) {
      throw new HttpError(`${shown}: HTTP ${status}${attempt > 1 ? ` after ${attempt} tries` : ""}`, status);
    }
    return { reason: `HTTP ${status}`, serverDelay: retryAfterMs(res.headers["retry-after"]) };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The fetch's deadline (or a shutdown) ends it: no retry.
    if (init.signal?.aborted) throw new HttpError(`${shown}: ${abortReason(init.signal)}`, undefined, { cause: error });
    const message = (error as Error).message ?? String(error);
    if (attempt > s.retries)
      throw new HttpError(`${shown}: ${message} after ${attempt} tries`, undefined, { cause: error });
    return { reason: message };
  }
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

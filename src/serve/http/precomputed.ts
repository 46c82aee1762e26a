// Responses whose status line and headers are built once (a published file's 200 per encoding, its
// 304s) and stored on the response as the text node:http would have made of them, instead of node:http
// checking and joining every header at every request (its _storeHeader was the largest share of our
// own code in Latest's CPU profile). What node:http adds per response is added here the same way: the
// Date (formatted once a second, as node:http does) and the keep-alive header. A response in any state
// this does not handle (headers already set with setHeader, a reason phrase, Expect: 100-continue, no
// Date...) goes through writeHead: the bytes are the same either way (test/serve/precomputed.test.ts).
import { STATUS_CODES, validateHeaderName, validateHeaderValue, type ServerResponse } from "node:http";

/** A status and its headers, checked once and joined as node:http joins them. */
export interface PrecomputedHead {
  status: number;
  /** For writeHead, when the response cannot take the text below. */
  headers: Readonly<Record<string, string | number>>;
  /** The status line and every header line, each ending in CRLF (Date and Connection not included). */
  text: string | undefined;
  /** The content-length header's value (undefined: none). */
  contentLength: number | undefined;
  /** 204, 304, 1xx: never a body. */
  bodiless: boolean;
  /** The content-type header's value ("" when none), for the request metrics. */
  contentType: string;
}

/** The fields of node:http's OutgoingMessage/ServerResponse that writeHead sets or reads (Node 20+). */
interface NodeResponseState {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _contentLength: number | null;
  _removedContLen: boolean;
  _removedConnection: boolean;
  _last: boolean;
  _keepAliveTimeout: number;
  _defaultKeepAlive: boolean;
  _maxRequestsPerSocket: number | undefined;
  _expect_continue: boolean;
  _sent100: boolean;
  chunkedEncoding: boolean;
  useChunkedEncodingByDefault: boolean;
  agent: unknown;
  maxRequestsOnConnectionReached: boolean;
  contentType?: string;
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * The node:http internals above are those of Node 20, the major test/serve/precomputed.test.ts runs on:
 * on another major every response goes through writeHead until the test has been run there and this
 * list extended.
 */
const TESTED_NODE_MAJORS = new Set([20]);
const internalsKnown = TESTED_NODE_MAJORS.has(Number(process.versions.node.split(".")[0]));

/**
 * The head of a response with these headers (names as given, in this order). Headers node:http would
 * read as well as write (connection, transfer-encoding, date, expect, trailer, keep-alive), or values
 * outside printable ASCII (node:http re-encodes some), or a body without a content-length, leave the
 * text undefined: writeHead then.
 */
export function precomputedHead(status: number, headers: Readonly<Record<string, string | number>>): PrecomputedHead {
  let text: string | undefined = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "unknown"}\r\n`;
  let contentLength: number | undefined;
  for (const [name, raw] of Object.entries(headers)) {
    const value = String(raw);
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const lower = name.toLowerCase();
    if (/^(connection|transfer-encoding|date|expect|trailer|keep-alive)$/.test(lower) || !ASCII.test(value))
      text = undefined;
    if (lower === "content-length") contentLength = Number(value);
    if (text !== undefined) text += `${name}: ${value}\r\n`;
  }
  // A body without a length is framed by node:http (chunked or close): left to it.
  const bodiless = status === 204 || status === 304 || (status >= 100 && status <= 199);
  if (contentLength === undefined && !bodiless) text = undefined;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
  return { status, headers, text, contentLength, bodiless, contentType: type === undefined ? "" : String(type) };
}

/** The Date header's value, made once a second (as node:http caches its own). */
let dateText = "";
let dateUntil = 0;
function dateLine(): string {
  const now = Date.now();
  if (now >= dateUntil) {
    dateUntil = now - (now % 1000) + 1000;
    dateText = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return dateText;
}

/** `Keep-Alive: timeout=5` and its like, by the server's keep-alive timeout and request limit. */
const keepAliveLines = new Map<string, string>();
function keepAliveLine(timeoutMs: number, maxRequests: number | undefined): string {
  const key = `${timeoutMs} ${maxRequests}`;
  let line = keepAliveLines.get(key);
  if (line === undefined) {
    const max = ~~(maxRequests ?? 0) > 0 ? `, max=${maxRequests}` : "";
    line = `Keep-Alive: timeout=${Math.floor(timeoutMs / 1000)}${max}\r\n`;
    keepAliveLines.set(key, line);
  }
  return line;
}

let outHeaders: symbol | null | undefined;
/** node:http's own symbol for headers set with setHeader (null on a response that has none). */
function headersSetBySetHeader(res: ServerResponse): unknown {
  if (outHeaders === undefined)
    outHeaders = Object.getOwnPropertySymbols(res).find((s) => s.description === "kOutHeaders") ?? null;
  return outHeaders === null ? true : (res as unknown as Record<symbol, unknown>)[outHeaders];
}

/** writeHead(head.status, head.headers), without node:http's work of checking and joining the headers. */
export function writePrecomputedHead(res: ServerResponse, head: PrecomputedHead): void {
  const state = res as unknown as NodeResponseState;
  state.contentType = head.contentType;
  if (
    head.text === undefined ||
    !internalsKnown ||
    state._header ||
    res.statusMessage ||
    !res.sendDate ||
    typeof state._keepAliveTimeout !== "number" ||
    (state._expect_continue && !state._sent100) ||
    headersSetBySetHeader(res)
  ) {
    res.writeHead(head.status, head.headers);
    return;
  }
  const status = head.status;
  res.statusCode = status;
  res.statusMessage = STATUS_CODES[status] ?? "unknown";
  const hasLength = head.contentLength !== undefined;
  if (hasLength) {
    state._contentLength = head.contentLength!;
    state._removedContLen = false;
  }
  if (head.bodiless) state._hasBody = false;
  state._header = `${head.text}${dateLine()}${connectionLines(state, hasLength)}\r\n`;
  state._headerSent = false;
}

/** What node:http's _storeHeader adds after the headers given (no connection or transfer-encoding among them). */
function connectionLines(state: NodeResponseState, hasLength: boolean): string {
  let lines = "";
  if (state._removedConnection) state._last = !(state as unknown as ServerResponse).shouldKeepAlive;
  else {
    const keepAlive =
      (state as unknown as ServerResponse).shouldKeepAlive &&
      (hasLength || state.useChunkedEncodingByDefault || !!state.agent);
    if (keepAlive && state.maxRequestsOnConnectionReached) lines = "Connection: close\r\n";
    else if (keepAlive)
      lines =
        state._keepAliveTimeout && state._defaultKeepAlive
          ? `Connection: keep-alive\r\n${keepAliveLine(state._keepAliveTimeout, state._maxRequestsPerSocket)}`
          : "Connection: keep-alive\r\n";
    else {
      state._last = true;
      lines = "Connection: close\r\n";
    }
  }
  // Without a content-length only bodiless answers come here (precomputedHead): no framing to add.
  if (!hasLength) state.chunkedEncoding = false;
  return lines;
}

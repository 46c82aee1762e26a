// Answers made for the request (history, lists, a filtered Latest), as the published files are
// answered (src/serve/http/respond.ts): negotiated encoding (br, gzip; a compressed variant has an
// ETag of its own), conditional requests (If-None-Match, else If-Modified-Since), HEAD. A body is
// made only when it is sent, as text pieces or binary chunks; one that fits a block goes out whole
// with its length, a larger one is streamed (and compressed as it goes).
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliCompressSync, constants as zlib, createBrotliCompress, createGzip, gzipSync } from "node:zlib";

import { historyEtag } from "../../store/history.js";
import { MEDIA_TYPES, pickEncoding, VARY, type Format } from "./negotiate.js";

/** The brotli settings of every answer made per request (fast, text mode). */
export const BROTLI = {
  params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
};

export const CONTENT_TYPES: Record<Format, string> = {
  json: `${MEDIA_TYPES.json}; charset=utf-8`,
  xml: `${MEDIA_TYPES.xml}; charset=utf-8`,
  csv: `${MEDIA_TYPES.csv}; charset=utf-8`,
  xlsx: MEDIA_TYPES.xlsx,
};

/**
 * A body: text pieces (JSON, XML, CSV; compressed as negotiated), or a binary document's bytes (XLSX);
 * made as they are sent, from days in memory or read chunk by chunk (SQLite) or asynchronously (PostgreSQL).
 */
export type Body =
  { text: Iterable<string> | AsyncIterable<string> } | { binary: Iterable<Buffer> | AsyncIterable<Buffer> };

/** A response made for this request: its ETag and Last-Modified, then (unless 304 or HEAD) its body. */
export interface Dynamic {
  format: Format;
  etag: string;
  /** ISO 8601 time of the newest data behind it, if any. */
  lastModified?: string;
  headers?: Record<string, string>;
  body: () => Body | Promise<Body>;
}

/** The ETag of an encoded variant: a strong ETag names one sequence of bytes. */
export const encodedEtag = (etag: string, encoding: "gzip" | "br") => `${etag.slice(0, -1)}-${encoding}"`;

/** If-None-Match (weak comparison, any encoding's tag) or, without it, If-Modified-Since. */
export function notModified(req: IncomingMessage, etag: string, lastModifiedSeconds: number | undefined): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) {
    if (inm.trim() === "*") return true;
    const known = new Set([etag, encodedEtag(etag, "gzip"), encodedEtag(etag, "br")]);
    return inm.split(",").some((tag) => known.has(tag.trim().replace(/^W\//, "")));
  }
  const ims = req.headers["if-modified-since"];
  if (ims === undefined || lastModifiedSeconds === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && lastModifiedSeconds * 1000 <= since;
}

/** CSV and XLSX are downloads: Content-Disposition names the file. */
export function disposition(format: Format, name: string): Record<string, string> {
  return format === "csv" || format === "xlsx"
    ? { "content-disposition": `attachment; filename="${name}.${format}"` }
    : {};
}

const BLOCK = 64 * 1024;

/** Joins small pieces into blocks of at least BLOCK characters (a day's piece is small; a block is sent). */
async function* blocks(pieces: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  let text = "";
  for await (const piece of pieces) {
    text += piece;
    if (text.length >= BLOCK) {
      yield text;
      text = "";
    }
  }
  if (text) yield text;
}

/** The encoding and the headers of a 200 of a dynamic answer; undefined when it was answered 304. */
function answerHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  d: Omit<Dynamic, "body">,
): { encoding: "identity" | "gzip" | "br"; headers: Record<string, string | number> } | undefined {
  const encoding =
    d.format === "xlsx" ? "identity" : pickEncoding(req.headers["accept-encoding"], { br: true, gzip: true });
  const etag = encoding === "identity" ? d.etag : encodedEtag(d.etag, encoding);
  const stamp = d.lastModified ? Date.parse(d.lastModified) : NaN;
  const seconds = Number.isFinite(stamp) ? Math.floor(stamp / 1000) : undefined;
  const common: Record<string, string> = {
    etag,
    vary: VARY,
    "cache-control": "private",
    ...(seconds !== undefined ? { "last-modified": new Date(seconds * 1000).toUTCString() } : {}),
    ...d.headers,
  };
  if (notModified(req, d.etag, seconds)) {
    res.writeHead(304, common);
    res.end();
    return undefined;
  }
  const headers: Record<string, string | number> = {
    "content-type": CONTENT_TYPES[d.format],
    ...common,
    ...(encoding !== "identity" ? { "content-encoding": encoding } : {}),
    "x-content-type-options": "nosniff",
  };
  return { encoding, headers };
}

export async function sendDynamic(req: IncomingMessage, res: ServerResponse, head: boolean, d: Dynamic): Promise<void> {
  const answer = answerHeaders(req, res, d);
  if (!answer) return;
  const { encoding, headers } = answer;
  if (head) {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  const body = await d.body();
  if ("binary" in body) return sendBytes(res, headers, body.binary);
  return sendText(res, headers, encoding, body.text);
}

/**
 * A small text already made (a conversion): answered as sendDynamic answers it, byte for byte, but at
 * once, without a promise; a text of a block or more goes through sendDynamic.
 */
export function sendTextNow(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  d: Omit<Dynamic, "body">,
  text: string,
): void | Promise<void> {
  if (text.length >= BLOCK) return sendDynamic(req, res, head, { ...d, body: () => ({ text: [text] }) });
  const answer = answerHeaders(req, res, d);
  if (!answer) return;
  const { encoding, headers } = answer;
  if (head) {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  const bytes = encoded(text, encoding);
  res.writeHead(200, { ...headers, "content-length": bytes.length });
  res.end(bytes);
}

function encoded(text: string, encoding: "identity" | "gzip" | "br"): Buffer {
  return encoding === "gzip"
    ? gzipSync(text)
    : encoding === "br"
      ? brotliCompressSync(text, BROTLI)
      : Buffer.from(text);
}

/**
 * An answer's body made once and kept (the pair and averages answers, kept per store generation): its
 * bytes in each encoding, encoded when first asked for and kept with it. Sent as sendDynamic sends the
 * same one-piece body, byte for byte, without encoding it again per request.
 */
export class KeptBody {
  private readonly bytes: Partial<Record<"identity" | "gzip" | "br", Buffer>> = {};

  constructor(private readonly body: { text: string } | { binary: Buffer }) {}

  /** The bytes in `encoding` (a binary body is sent as it is, whatever was negotiated). */
  in(encoding: "identity" | "gzip" | "br"): Buffer {
    if ("binary" in this.body) return this.body.binary;
    return (this.bytes[encoding] ??= encoded(this.body.text, encoding));
  }
}

/** A kept body answered as sendDynamic answers it: conditional requests, HEAD, the negotiated encoding. */
export function sendKept(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  d: Omit<Dynamic, "body">,
  body: KeptBody,
): void {
  const answer = answerHeaders(req, res, d);
  if (!answer) return;
  const { encoding, headers } = answer;
  if (head) {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  const bytes = body.in(encoding);
  res.writeHead(200, { ...headers, "content-length": bytes.length });
  res.end(bytes);
}

/** Text in blocks of BLOCK characters; a document that fits one block goes out whole, with its length. */
async function sendText(
  res: ServerResponse,
  headers: Record<string, string | number>,
  encoding: "identity" | "gzip" | "br",
  pieces: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const text = blocks(pieces);
  const first = await text.next();
  const second = first.done ? first : await text.next();
  if (second.done) {
    const bytes = encoded(first.done ? "" : first.value, encoding);
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, headers);
  const source = Readable.from(
    (async function* () {
      yield first.value as string;
      yield second.value;
      yield* text;
    })(),
  );
  if (encoding === "identity") return pipeline(source, res);
  const compressor = encoding === "gzip" ? createGzip() : createBrotliCompress(BROTLI);
  return pipeline(source, compressor, res);
}

/** Bytes as they are made: whole with their length when they fit one block, else streamed. */
async function sendBytes(
  res: ServerResponse,
  headers: Record<string, string | number>,
  pieces: Iterable<Buffer> | AsyncIterable<Buffer>,
): Promise<void> {
  const iterator = (async function* () {
    yield* pieces;
  })();
  const start: Buffer[] = [];
  let size = 0;
  let next = await iterator.next();
  while (!next.done && size < BLOCK) {
    start.push(next.value);
    size += next.value.length;
    next = await iterator.next();
  }
  if (next.done) {
    const bytes = Buffer.concat(start);
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(bytes);
    return;
  }
  res.writeHead(200, headers);
  const pending = next.value;
  return pipeline(
    Readable.from(
      (async function* () {
        yield Buffer.concat(start);
        yield pending;
        yield* iterator;
      })(),
    ),
    res,
  );
}

/** A JSON document made for the request, its ETag the hash of its bytes. */
export function sendJsonDocument(
  req: IncomingMessage,
  res: ServerResponse,
  head: boolean,
  body: Buffer,
  lastModified: string,
): Promise<void> {
  const etag = historyEtag(createHash("sha256").update(body).digest("hex"));
  return sendDynamic(req, res, head, {
    format: "json",
    etag,
    lastModified,
    body: () => ({ text: [body.toString("utf8")] }),
  });
}

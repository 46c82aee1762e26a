// Small response helpers: problem+json errors (RFC 9457), JSON documents, and published files with
// their conditional requests and encodings.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";

import { pickEncoding } from "./negotiate.js";
import { writePrecomputedHead } from "./precomputed.js";
import type { Representation } from "../state/tree.js";
import { clipped } from "../../quote.js";

/** A problem's detail is cut at this length, whatever a handler put in it (each quoted input: QUOTE_LIMIT). */
const MAX_DETAIL = 1000;

export interface ProblemOptions {
  /** A problem type URI (default about:blank, whose title is the reason phrase) and its title. */
  type?: { uri: string; title: string };
  detail?: string;
  headers?: Record<string, string>;
  /** Extension members. */
  extra?: Record<string, unknown>;
  /** Omit the body (HEAD). */
  head?: boolean;
}

export function sendProblem(res: ServerResponse, status: number, options: ProblemOptions = {}): void {
  const body = JSON.stringify({
    type: options.type?.uri ?? "about:blank",
    title: options.type?.title ?? STATUS_CODES[status] ?? "Error",
    status,
    ...(options.detail !== undefined ? { detail: clipped(options.detail, MAX_DETAIL) } : {}),
    ...options.extra,
  });
  res.writeHead(status, {
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...options.headers,
  });
  res.end(options.head ? undefined : body);
}

/** Problem types of the API beyond about:blank (docs/API.md, "Errors"). */
export const PROBLEM_TYPES = {
  unknownBank: { uri: "urn:exrates:problem:unknown-bank", title: "Unknown bank" },
  noRatesYet: { uri: "urn:exrates:problem:no-rates-yet", title: "No rates published yet for this bank" },
  currencyNotQuoted: { uri: "urn:exrates:problem:currency-not-quoted", title: "Currency not quoted on that date" },
  otherFrequency: {
    uri: "urn:exrates:problem:other-frequency",
    title: "The bank does not publish rates at this frequency",
  },
} as const;

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
  head = false,
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(head ? undefined : body);
}

/** If-None-Match (weak comparison, any encoding's tag) or, without it, If-Modified-Since. */
function notModified(req: IncomingMessage, rep: Representation): boolean {
  const inm = req.headers["if-none-match"];
  if (inm !== undefined) {
    if (inm.trim() === "*") return true;
    for (const tag of inm.split(",")) {
      const t = tag.trim().replace(/^W\//, "");
      if (rep.etags.has(t)) return true;
    }
    return false;
  }
  const ims = req.headers["if-modified-since"];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    if (Number.isFinite(since) && rep.lastModifiedSeconds * 1000 <= since) return true;
  }
  return false;
}

/** A published file: 304 when the client has it, else 200 in the best encoding both sides have. */
export function sendRepresentation(req: IncomingMessage, res: ServerResponse, rep: Representation): void {
  // The 304 carries the ETag of the encoding a 200 would have had.
  const encoding =
    rep.br || rep.gzip ? pickEncoding(req.headers["accept-encoding"], { br: !!rep.br, gzip: !!rep.gzip }) : "identity";
  const variant = encoding === "identity" ? rep.identity : rep[encoding]!;
  if (notModified(req, rep)) {
    writePrecomputedHead(res, variant.notModifiedHead);
    res.end();
    return;
  }
  writePrecomputedHead(res, variant.head);
  res.end(req.method === "HEAD" ? undefined : variant.body);
}

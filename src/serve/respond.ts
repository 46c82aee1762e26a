// Small response helpers: problem+json errors (RFC 9457) and JSON documents.
import { STATUS_CODES, type ServerResponse } from "node:http";

export interface ProblemOptions {
  detail?: string;
  headers?: Record<string, string>;
  /** Extension members. */
  extra?: Record<string, unknown>;
  /** Omit the body (HEAD). */
  head?: boolean;
}

export function sendProblem(res: ServerResponse, status: number, options: ProblemOptions = {}): void {
  const body = JSON.stringify({
    type: "about:blank",
    title: STATUS_CODES[status] ?? "Error",
    status,
    ...(options.detail !== undefined ? { detail: options.detail } : {}),
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

// The listening socket and its limits: a connection that sends nothing is closed `idleMs` after it was
// accepted (and any connection idle that long, swept every quarter of idleMs), headers must arrive within 20 s and a request within
// 30 s (checked every second), at most `maxConnections` are open at once and `perAddress` from one
// address (the next ones are closed at accept), a request with two Host headers is refused, and one node:http cannot parse gets a bare
// status line. At shutdown, requests in flight get a grace period, then every connection goes.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";

import { MeteredResponse } from "../metrics.js";
import { listening } from "./bind.js";

export interface ConnectionLimits {
  /** A connection that sends or receives nothing for this long is closed, counted from accept (ms). */
  idleMs: number;
  /** Connections open at once; the next ones are closed at accept. */
  maxConnections: number;
  /**
   * Connections open at once from one address (trusted proxies apart): the rest of maxConnections
   * stays for other addresses. Default: a quarter of maxConnections.
   */
  perAddress: number;
}

/** The default share of one address: a quarter of the connections, at least 8. */
export function defaultPerAddress(maxConnections: number): number {
  return Math.max(8, Math.floor(maxConnections / 4));
}

export const CONNECTION_DEFAULTS = { idleMs: 10_000 };

/** Requests in flight at shutdown get this long to finish; then every connection goes. */
export const CLOSE_GRACE_MS = 2000;

/**
 * Connections allowed at once: three quarters of the open-file limit, less what the rest of the
 * process needs (database, published files, feed fetches), so that a flood of idle sockets never
 * leaves the process without descriptors.
 */
export function defaultMaxConnections(): number {
  let soft = 1024;
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
    if (m) soft = m[1] === "unlimited" ? 1 << 20 : Number(m[1]);
  } catch {
    // Not Linux: assume the common default.
  }
  return Math.max(16, Math.min(10_000, Math.floor(soft * 0.75) - 32));
}

export async function listen(port: number, host: string, limits: ConnectionLimits): Promise<Server> {
  const server = createServer({
    // Notes each request's arrival and its answer's content type for the metrics (src/serve/metrics.ts).
    ServerResponse: MeteredResponse,
    maxHeaderSize: 16 * 1024,
    requestTimeout: 30_000,
    headersTimeout: 20_000,
    keepAliveTimeout: 5_000,
    // How often the two timeouts above are checked (Node's default, 30 s, lets a slow sender stay 50 s).
    connectionsCheckingInterval: 1_000,
  });
  // Inactivity from accept is swept by closeIdleConnections (idle.ts), not a socket timeout (see there).
  server.maxConnections = limits.maxConnections;
  await listening(server, port, host);
  return server;
}

/** How many Host headers a request has (node:http keeps the first of several in req.headers). */
export function hostHeaders(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === "host") n++;
  }
  return n;
}

/** A request node:http could not parse gets a bare status line, then the connection closes. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "HPE_URI_OVERFLOW" ? 414 : 400;
  const text = status === 431 ? "Request Header Fields Too Large" : status === 414 ? "URI Too Long" : "Bad Request";
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

/**
 * The open connections, for closing the ones still busy at the end of the shutdown grace; a connection
 * from an address that already holds `perAddress` of them is closed at accept (`exempt`: trusted
 * proxies, which carry many clients), and `refused` is told.
 */
export function trackSockets(
  server: Server,
  perAddress: number,
  exempt: (address: string) => boolean,
  refused: (address: string) => void,
): Set<Socket> {
  const sockets = new Set<Socket>();
  const byAddress = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const open = byAddress.get(address) ?? 0;
    if (open >= perAddress && !exempt(address)) {
      socket.destroy();
      return refused(address);
    }
    byAddress.set(address, open + 1);
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  });
  return sockets;
}

/** Stops accepting, lets requests in flight finish for a grace period, then closes every connection. */
export function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => {
      for (const s of sockets) s.destroy();
    }, CLOSE_GRACE_MS).unref();
  });
}

// Connections quiet for too long, closed by a sweep rather than a socket timeout each (see
// closeIdleConnections), and the connections meant to stay open without traffic.
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** Connections meant to stay open without traffic (event streams): the idle sweep leaves them. */
const longLived = new WeakSet<Socket>();

/** Leaves this connection open however long it is quiet (an event stream: TCP keep-alive finds a vanished peer). */
export function keepOpen(socket: Socket): void {
  longLived.add(socket);
}

/**
 * Closes a connection that has read and written nothing for `idleMs`, counted from accept: one that never
 * sends a byte, a client that stopped reading, a request whose answer never comes. A sweep every quarter of
 * idleMs compares each tracked socket's byte counts with the last sweep's, rather than a socket timeout:
 * node:http re-arms a socket's timeout at every request and refreshes it at every read and write, about
 * 3 µs of a Latest request's 30 (BENCHMARKS.md, Serve). A connection is closed between idleMs and
 * 1.25 idleMs after its last byte. Stops when the server closes.
 */
export function closeIdleConnections(server: Server, sockets: ReadonlySet<Socket>, idleMs: number): void {
  const seen = new WeakMap<Socket, { bytes: number; since: number }>();
  server.on("connection", (socket: Socket) => seen.set(socket, { bytes: 0, since: performance.now() }));
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const socket of sockets) {
        if (longLived.has(socket)) continue;
        const bytes = socket.bytesRead + socket.bytesWritten;
        const last = seen.get(socket);
        if (!last || last.bytes !== bytes) seen.set(socket, { bytes, since: now });
        else if (now - last.since >= idleMs) socket.destroy();
      }
    },
    Math.max(10, Math.floor(idleMs / 4)),
  );
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
}

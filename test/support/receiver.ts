// A webhook receiver for tests: an HTTP server on 127.0.0.1 that records each request's headers and
// body and answers every request with one status.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** The receiver's URL, ending in the path given. */
  url: string;
  /** The requests received so far, in order. */
  received: Received[];
  /** Stops it, ending any connection left open. */
  close: () => Promise<void>;
}

export async function startReceiver(path: string, status = 204): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

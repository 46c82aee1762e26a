// A receiver on 127.0.0.1 that answers every request 200 with a body that never ends (64 KiB chunks as
// fast as the client takes them), counting the bytes it got out before the client hung up. Each answer
// stops by itself after `stopAfterMs`, and close() ends everything.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export async function endlessReceiver(stopAfterMs = 20_000) {
  const sent: number[] = [];
  const hungUp: Array<Promise<void>> = [];
  const server = createServer((req, res) => {
    req.resume();
    const at = sent.push(0) - 1;
    const chunk = Buffer.alloc(64 * 1024, "x");
    res.writeHead(200, { "content-type": "text/plain" });
    let stopped = false;
    const stop = setTimeout(() => {
      stopped = true;
      res.destroy();
    }, stopAfterMs);
    stop.unref();
    const pump = () => {
      while (!stopped && !res.destroyed) {
        sent[at]! += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    hungUp.push(
      new Promise((resolve) =>
        res.on("close", () => {
          stopped = true;
          clearTimeout(stop);
          resolve();
        }),
      ),
    );
    pump();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    /** Bytes written to each request's connection, in the order the requests came. */
    sent,
    /** Settles when the n-th request's connection is closed (by the client, or at `stopAfterMs`). */
    hungUp: (n: number) => hungUp[n]!,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// Binding and stopping the service's HTTP servers (the API, the metrics listener, the MCP endpoint) the
// same way: a bind error rejects, the URL is the address actually bound, a stop closes idle keep-alive
// connections too.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Binds a server; rejects with the bind's error (a port in use) rather than emitting it. */
export function listening(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Stops a server, its idle keep-alive connections included (server.close alone waits for them). */
export function closing(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The URL and port a server is bound to (the port the system chose for port 0). */
export function boundAddress(server: Server): { url: string; port: number } {
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, port: address.port };
}

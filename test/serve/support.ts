// Support for the server's tests: the in-process server of test/support/server.ts under the name these
// tests know (startHarness, stopped by close), the small published tree of test/support/tree.ts, and
// raw HTTP requests.
import type { SqliteStore } from "../../src/store/database.js";
import { startTestServer, type InProcessOptions, type InProcessServer } from "../support/server.js";

export { publishGeneration, XLSX } from "../support/tree.js";
export { silentLog } from "../support/server.js";

export type Harness = InProcessServer<SqliteStore> & { close(): Promise<void> };

export async function startHarness(
  options: Pick<InProcessOptions, "env" | "publish" | "server"> = {},
): Promise<Harness> {
  const server = await startTestServer(options);
  return Object.assign(server, { close: () => server.stop() });
}

/** A raw HTTP/1.1 request (fetch normalises paths; path tricks need the bytes as sent). */
export async function rawRequest(
  url: string,
  requestLine: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { request } = await import("node:http");
  const target = new URL(url);
  const [method, path] = requestLine.split(" ") as [string, string];
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method, path, headers, insecureHTTPParser: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

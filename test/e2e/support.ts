// End-to-end support: the built CLI as a child process (test/support/cli.ts; dist/ is built by
// test/support/build.ts), and a slow CNB-shaped feed for tests that need one to take its time.
import { createServer, type Server } from "node:http";

import { addDays, weekday } from "../../src/feed/dates.js";

export { cli, finished, spawnCli, waitFor } from "../support/cli.js";

/** A CNB-shaped feed answering daily-year?year=Y with USD and JPY (per 100) for every weekday up to 2026-11-20, slowly. */
export const LAST = "2026-11-20";
export const usdRate = (d: string) => `20.${d.slice(5, 7)}${d.slice(8, 10)}1`;
export const jpyRate = (d: string) => `13.${d.slice(2, 4)}${d.slice(8, 10)}3`;
export function startSlowMirror(delayMs: number): Promise<{ url: string; server: Server; requests: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    const u = new URL(req.url!, "http://x");
    const year = Number(u.searchParams.get("year"));
    const body =
      u.pathname === "/api.cnb.cz/cnbapi/exrates/daily-year" && year
        ? (() => {
            const rates: string[] = [];
            for (let d = `${year}-01-01`; d <= `${year}-12-31` && d <= LAST; d = addDays(d, 1)) {
              if (weekday(d) > 5) continue;
              rates.push(
                `{"validFor":"${d}","currencyCode":"USD","amount":1,"rate":${usdRate(d)}}`,
                `{"validFor":"${d}","currencyCode":"JPY","amount":100,"rate":${jpyRate(d)}}`,
              );
            }
            return `{"rates":[${rates.join(",")}]}`;
          })()
        : undefined;
    setTimeout(() => {
      if (body === undefined) res.writeHead(404, { "content-type": "text/plain" }).end("no such feed\n");
      else res.writeHead(200, { "content-type": "application/json" }).end(body);
    }, delayMs);
  });
  return new Promise((res) =>
    server.listen(0, "127.0.0.1", () =>
      res({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, requests: () => count }),
    ),
  );
}

// `exrates mcp --http` answers only loopback Host names and loopback Origins by default, the configured
// ones otherwise: a page of a foreign origin, or a DNS name rebound to 127.0.0.1, gets a 403 before its
// token is looked at (issue 37, item 8).
import { request } from "node:http";

import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startMcpHttp, type RunningMcpHttp } from "../../src/mcp/http.js";
import { originPolicy, originProblem } from "../../src/mcp/origin.js";
import type { RatesReader } from "../../src/mcp/tools.js";

let running: RunningMcpHttp;
let judged = 0;
beforeAll(async () => {
  running = await startMcpHttp({
    host: "127.0.0.1",
    port: 0,
    apiUrl: "http://127.0.0.1:9",
    realm: "exrates",
    clientFor: () => ({}) as RatesReader,
    log: pino({ level: "silent" }),
    fetch: () => {
      judged++;
      return Promise.resolve(new Response(null, { status: 401 }));
    },
  });
});
afterAll(() => running.close());

/** A POST with exactly these headers (Host included), its status. */
function post(headers: Record<string, string>): Promise<number> {
  const url = new URL(running.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end("{}");
  });
}

describe("MCP over HTTP, Origin and Host", () => {
  it("refuses a foreign Origin and a foreign Host with 403, before judging any token", async () => {
    const host = new URL(running.url).host;
    expect(await post({ host, origin: "https://evil.example", authorization: "Bearer x" })).toBe(403);
    expect(await post({ host: "rebound.example:80", authorization: "Bearer x" })).toBe(403);
    expect(judged).toBe(0);
    // A loopback origin, or none (a program), reaches the token check (here a 401 from the stub API).
    expect(await post({ host, origin: `http://localhost:5173`, authorization: "Bearer x" })).toBe(401);
    expect(await post({ host: host.replace("127.0.0.1", "localhost"), authorization: "Bearer x" })).toBe(401);
    expect(judged).toBe(2);
  });

  it("takes configured hosts and origins instead of the loopback defaults", () => {
    const policy = originPolicy({
      EXRATES_MCP_ALLOWED_HOSTS: "mcp.example.com",
      EXRATES_MCP_ALLOWED_ORIGINS: "https://app.example.com/",
    });
    expect(originProblem(policy, { host: "mcp.example.com", origin: "https://app.example.com" })).toBeUndefined();
    expect(originProblem(policy, { host: "mcp.example.com:8443" })).toBeUndefined();
    expect(originProblem(policy, { host: "127.0.0.1:3000" })).toMatch(/Host "127.0.0.1:3000"/);
    expect(originProblem(policy, { host: "mcp.example.com", origin: "http://localhost" })).toMatch(/Origin/);
    expect(originProblem(originPolicy({}), { host: "[::1]:3000", origin: "http://[::1]:3000" })).toBeUndefined();
    expect(originProblem(originPolicy({}), { host: "localhost", origin: "null" })).toMatch(/Origin "null"/);
    expect(() => originPolicy({ EXRATES_MCP_ALLOWED_ORIGINS: "app.example.com" })).toThrow(/not an origin/);
  });
});

// Unknown query parameters and unknown banks are refused with a problem that says what is supported,
// rather than answered as if they had not been asked (issue 30, item 4). The router and the events
// handler are driven directly with a request and a response that record what was sent.
import type { IncomingMessage, ServerResponse } from "node:http";

import { describe, expect, it } from "vitest";

import type { Handler, ServeContext } from "../../src/serve/context.js";
import { createRouter, RouteTable } from "../../src/serve/http/router.js";
import { events } from "../../src/serve/resources/events/stream.js";
import { ROUTES } from "../../src/serve/routes.js";

interface Sent {
  status?: number;
  headers?: Record<string, unknown>;
  body?: string;
}

function exchange(url: string): { req: IncomingMessage; res: ServerResponse; sent: Sent } {
  const sent: Sent = {};
  const req = { url, method: "GET", headers: {}, socket: {} } as unknown as IncomingMessage;
  const res = {
    writeHead(status: number, headers: Record<string, unknown>) {
      sent.status = status;
      sent.headers = headers;
      return this;
    },
    end(body?: string | Buffer) {
      sent.body = body === undefined ? undefined : String(body);
    },
  } as unknown as ServerResponse;
  return { req, res, sent };
}

const problem = (sent: Sent) => JSON.parse(sent.body!) as Record<string, unknown>;

describe("query parameters a route does not read", () => {
  const handled: string[] = [];
  const handle: Handler = (_ctx, _req, res, _head, _route, query) => {
    handled.push(query);
    res.writeHead(200, {});
    res.end("ok");
  };
  const table = new RouteTable([
    { method: "GET", path: "/v1/things", name: "things", auth: false, handle, query: ["format", "from"] },
    { method: "GET", path: "/v1/plain", name: "plain", auth: false, handle, query: [] },
    { method: "GET", path: "/healthz", name: "healthz", auth: false, handle },
  ]);
  const router = createRouter(table, {} as ServeContext);
  const ask = async (url: string) => {
    const { req, res, sent } = exchange(url);
    await router(req, res);
    return sent;
  };

  it("are a 400 problem naming them and the supported ones", async () => {
    const sent = await ask("/v1/things?from=2025-01-01&base=USD&amount=100&base=EUR");
    expect(sent.status).toBe(400);
    expect(sent.headers!["content-type"]).toBe("application/problem+json");
    expect(problem(sent)).toMatchObject({
      status: 400,
      unknown: ["base", "amount"],
      supported: ["format", "from"],
      detail: "Unknown query parameters base, amount; supported here: format, from",
    });
    const none = await ask("/v1/plain?x=1");
    expect(problem(none)).toMatchObject({
      detail: "Unknown query parameter x; this resource takes none",
      supported: [],
    });
  });

  it("lets the supported ones through in any case, and a route without a list takes any", async () => {
    handled.length = 0;
    expect((await ask("/v1/things?FROM=2025-01-01&format=csv")).status).toBe(200);
    expect((await ask("/v1/things")).status).toBe(200);
    expect((await ask("/v1/things?")).status).toBe(200);
    expect((await ask("/healthz?probe=1")).status).toBe(200);
    expect(handled).toEqual(["FROM=2025-01-01&format=csv", "", "", "probe=1"]);
  });

  it("are declared for every route of the API in the routing table", () => {
    const v1 = ROUTES.filter((r) => r.path.startsWith("/v1/"));
    // (A period source's routes share the names latest, dated and range under their frequency's path.)
    const isPeriod = (path: string) => /\/(Weekly|Monthly|Quarterly)Rates/.test(path);
    const declared = Object.fromEntries(v1.filter((r) => !isPeriod(r.path)).map((r) => [r.name, r.query]));
    const monthly = Object.fromEntries(
      v1.filter((r) => r.path.includes("/MonthlyRates")).map((r) => [r.name, r.query]),
    );
    expect(monthly).toEqual({
      latest: ["format", "currencies", "base", "asOf"],
      dated: ["format", "currencies", "asOf"],
      range: ["format", "from", "to", "currencies", "asOf", "group"],
    });
    expect(declared).toMatchObject({
      latest: ["format", "currencies", "base", "asOf", "provenance"],
      dated: ["format", "currencies", "base", "asOf", "provenance"],
      range: ["format", "from", "to", "currencies", "base", "asOf", "provenance", "group"],
      events: ["banks"],
      status: [],
    });
    for (const [name, query] of Object.entries(declared))
      if (name !== "openapi" && name !== "xsd") expect(query, name).toBeDefined();
  });
});

describe("GET /v1/events?banks= with a bank that does not exist", () => {
  const streamed: string[] = [];
  const ctx = {
    tree: () => undefined,
    knownBanks: () => Promise.resolve(new Map([["ECB", {}]])),
    events: { handle: (_req: unknown, _res: unknown, _head: boolean, query: string) => streamed.push(query) },
  } as unknown as ServeContext;

  it("is a 400 naming the unknown ids, where it used to stream nothing forever", async () => {
    const { req, res, sent } = exchange("/v1/events?banks=ecb,XXX,YYY");
    await events(ctx, req, res, false, { kind: "events" }, "banks=ecb,XXX,YYY");
    expect(sent.status).toBe(400);
    expect(problem(sent)).toMatchObject({
      type: "urn:exrates:problem:unknown-bank",
      unknown: ["XXX", "YYY"],
      detail: "Unknown banks XXX, YYY in banks",
    });
    expect(streamed).toEqual([]);
  });

  it("streams known banks as before", async () => {
    const { req, res } = exchange("/v1/events?banks=ECB");
    await events(ctx, req, res, false, { kind: "events" }, "banks=ECB");
    await events(ctx, req, res, false, { kind: "events" }, "");
    expect(streamed).toEqual(["banks=ECB", ""]);
  });
});

// The client's transport against a scripted server: 429 and 503 retried after Retry-After up to a
// bound, no answer retried then thrown, a token provider asked again after a 401, a stream that ends
// with token.expired reconnected at once with a new token and Last-Event-ID; the SSE parser and the
// range windows on their own.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { windows } from "../../packages/client/src/client.js";
import { ExratesClient, ExratesError, type DebugEvent } from "@exrates/client";
import { SseParser } from "../../packages/client/src/sse.js";
import { freePort } from "../support/served-rates.js";

const LATEST = `{"bankId":"CNB","baseCurrency":"CZK","quoteType":"Direct","rates":{"2026-03-03":{"EUR":{"rate":24.170}}}}`;

interface Scripted {
  url: string;
  /** Requests seen: method, path, authorization, last-event-id. */
  seen: Array<{ method: string; path: string; auth?: string; lastEventId?: string }>;
  grants: () => number;
  close(): Promise<void>;
}

/** A server whose API answers come from `answer` (called with the request's number for its path) and a token endpoint. */
async function scripted(
  answer: (req: IncomingMessage, res: ServerResponse, n: number) => void,
  token: (res: ServerResponse, n: number) => void = (res, n) =>
    void res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ access_token: `token-${n}`, expires_in: 300, token_type: "Bearer" })),
): Promise<Scripted> {
  const seen: Scripted["seen"] = [];
  const counts = new Map<string, number>();
  let grants = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url!, "http://x").pathname;
    seen.push({
      method: req.method!,
      path,
      ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
      ...(typeof req.headers["last-event-id"] === "string" ? { lastEventId: req.headers["last-event-id"] } : {}),
    });
    if (path.endsWith("/openid-connect/token")) {
      req.resume();
      return token(res, ++grants);
    }
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    answer(req, res, n);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    grants: () => grants,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const servers: Scripted[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function start(...args: Parameters<typeof scripted>): Promise<Scripted> {
  const s = await scripted(...args);
  servers.push(s);
  return s;
}

const json = (res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
const problem = (res: ServerResponse, status: number, headers: Record<string, string> = {}) =>
  void res
    .writeHead(status, { "content-type": "application/problem+json", ...headers })
    .end(
      JSON.stringify({ type: "about:blank", title: "Service Unavailable", status, detail: "No rates published yet" }),
    );

function clientOf(server: Scripted, events: DebugEvent[] = [], extra: Record<string, unknown> = {}) {
  return new ExratesClient({
    baseUrl: server.url,
    clientId: "erp",
    clientSecret: "s3cret-s3cret",
    debug: (e) => events.push(e),
    ...extra,
  });
}

describe("retries", () => {
  it("waits the Retry-After of a 503 and gets the answer", async () => {
    const server = await start((_req, res, n) =>
      n === 1 ? problem(res, 503, { "retry-after": "1" }) : json(res, LATEST),
    );
    const events: DebugEvent[] = [];
    const latest = await clientOf(server, events).latest("CNB");
    expect(latest.rates).toEqual([{ currency: "EUR", rate: "24.170" }]);
    expect(events.filter((e) => e.event === "retry")).toEqual([
      expect.objectContaining({ status: 503, waitMs: 1000, attempt: 0 }),
    ]);
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(2);
  });

  it("does not wait a Retry-After beyond its bound: the error carries it", async () => {
    const server = await start((_req, res) =>
      res
        .writeHead(429, { "content-type": "application/problem+json", "retry-after": "120" })
        .end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, detail: "slow down" })),
    );
    const error = (await clientOf(server)
      .latest("CNB")
      .catch((e: unknown) => e)) as ExratesError;
    expect(error).toBeInstanceOf(ExratesError);
    expect(error).toMatchObject({
      status: 429,
      retryAfter: 120,
      detail: "slow down",
      request: "GET /v1/Banks/CNB/DailyRates/Latest",
    });
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(1);
  });

  it("stops after its retries", async () => {
    const server = await start((_req, res) => problem(res, 503, { "retry-after": "0" }));
    const error = (await clientOf(server, [], { retries: 2 })
      .banks()
      .catch((e: unknown) => e)) as ExratesError;
    expect(error).toMatchObject({ status: 503, title: "Service Unavailable", retryAfter: 0 });
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(3);
  });

  it("retries the token endpoint's 429 too", async () => {
    const server = await start(
      (_req, res) => json(res, LATEST),
      (res, n) =>
        n === 1
          ? json(res, `{"error":"temporarily_unavailable","error_description":"Too many token requests"}`, 429, {
              "retry-after": "0",
            })
          : json(res, `{"access_token":"token-${n}","expires_in":300}`),
    );
    await clientOf(server).latest("CNB");
    expect(server.grants()).toBe(2);
    expect(server.seen.at(-1)?.auth).toBe("Bearer token-2");
  });

  it("throws a network error after retrying a server that does not answer", async () => {
    const port = await freePort();
    const events: DebugEvent[] = [];
    const client = new ExratesClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: () => "a-token-never-sent",
      retries: 1,
      debug: (e) => events.push(e),
    });
    const error = (await client.latest("CNB").catch((e: unknown) => e)) as ExratesError;
    expect(error).toMatchObject({ status: 0, title: "Network error", detail: "no answer: ECONNREFUSED" });
    expect(events.filter((e) => e.event === "retry")).toHaveLength(1);
  });
});

describe("tokens", () => {
  it("asks a token provider again after a 401, then sends the new token", async () => {
    const server = await start((req, res) =>
      req.headers.authorization === "Bearer fresh"
        ? json(res, LATEST)
        : void res
            .writeHead(401, {
              "content-type": "application/problem+json",
              "www-authenticate": 'Bearer error="invalid_token"',
            })
            .end(`{"type":"about:blank","title":"Unauthorized","status":401,"detail":"The token has expired"}`),
    );
    const asked: boolean[] = [];
    const client = new ExratesClient({
      baseUrl: server.url,
      token: ({ renew }) => {
        asked.push(renew);
        return renew ? "fresh" : "stale";
      },
    });
    await client.latest("CNB");
    await client.latest("CNB");
    expect(asked).toEqual([false, true]);
    expect(server.seen.map((s) => s.auth)).toEqual(["Bearer stale", "Bearer fresh", "Bearer fresh"]);
  });

  it("a second 401 is the error: one renewal, no loop", async () => {
    const server = await start((_req, res) =>
      res
        .writeHead(401, { "content-type": "application/problem+json" })
        .end(
          `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"The token's signing key is unknown"}`,
        ),
    );
    const error = (await clientOf(server)
      .latest("CNB")
      .catch((e: unknown) => e)) as ExratesError;
    expect(error).toMatchObject({ status: 401, detail: "The token's signing key is unknown" });
    expect(server.grants()).toBe(2);
    expect(server.seen.filter((s) => s.method === "GET")).toHaveLength(2);
  });
});

describe("events", () => {
  it("reconnects at once after token.expired, with a new token and the last event id", async () => {
    const event = (id: number) =>
      `id: ${id}\nevent: rates.published\ndata: ${JSON.stringify({ id, bankId: "CNB", effectiveDate: "2026-03-0" + id })}\n\n`;
    const server = await start((req, res, n) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (n === 1) res.end(`retry: 60000\n\n${event(1)}event: token.expired\ndata: {"detail":"expired"}\n\n`);
      else res.write(`retry: 60000\n\n${event(2)}`);
    });
    const client = clientOf(server, [], {
      now: (() => {
        let t = 0;
        // Each grant's token is past its 80% when the stream asks again.
        return () => (t += 300_000);
      })(),
    });
    const got: number[] = [];
    for await (const e of client.events({ banks: ["CNB"] })) {
      got.push(e.id);
      if (got.length === 2) break;
    }
    expect(got).toEqual([1, 2]);
    const streams = server.seen.filter((s) => s.path === "/v1/events");
    expect(streams.map((s) => [s.auth, s.lastEventId])).toEqual([
      ["Bearer token-1", undefined],
      ["Bearer token-2", "1"],
    ]);
  });

  it("ends with the error of a refusal that is not worth retrying", async () => {
    const server = await start((_req, res) =>
      res
        .writeHead(400, { "content-type": "application/problem+json" })
        .end(
          `{"type":"about:blank","title":"Bad Request","status":400,"detail":"banks must be a comma-separated list of bank ids"}`,
        ),
    );
    const iterate = async () => {
      for await (const e of clientOf(server).events({ banks: ["?"] })) void e;
    };
    const error = (await iterate().catch((e: unknown) => e)) as ExratesError;
    expect(error).toBeInstanceOf(ExratesError);
    expect(error).toMatchObject({ status: 400, detail: "banks must be a comma-separated list of bank ids" });
  });
});

describe("SseParser", () => {
  it("reads fields, comments and line breaks of every kind, across chunks", () => {
    const parser = new SseParser();
    const out = [
      ...parser.push('retry: 3000\n\n: keep-alive\n\nid: 41\nevent: rates.published\ndata: {"a":'),
      ...parser.push("1}\r"),
      ...parser.push("\n\r\nid: 42\r\ndata: line one\rdata: line two\r\rdata: no id\n"),
      ...parser.push("\n"),
    ];
    expect(parser.retryMs).toBe(3000);
    expect(out).toEqual([
      { event: "rates.published", data: '{"a":1}', lastEventId: "41" },
      { event: "message", data: "line one\nline two", lastEventId: "42" },
      { event: "message", data: "no id", lastEventId: "42" },
    ]);
  });

  it("dispatches nothing for a block without data, and ignores a malformed retry", () => {
    const parser = new SseParser();
    expect(parser.push("event: x\nid: 7\nretry: soon\n\n")).toEqual([]);
    expect(parser.lastEventId).toBe("7");
    expect(parser.retryMs).toBeUndefined();
  });
});

describe("range windows", () => {
  it("cuts a range into years that meet without a gap or an overlap", () => {
    expect(windows("2024-02-29", "2026-03-03")).toEqual([
      ["2024-02-29", "2025-02-28"],
      ["2025-03-01", "2026-02-28"],
      ["2026-03-01", "2026-03-03"],
    ]);
    expect(windows("2025-01-01", "2025-01-01")).toEqual([["2025-01-01", "2025-01-01"]]);
    // The server's 400s stay the server's: asked once as given.
    expect(windows("2025-02-30", "2027-03-01")).toEqual([["2025-02-30", "2027-03-01"]]);
    expect(windows("2025-13-40", "2027-01-01")).toEqual([["2025-13-40", "2027-01-01"]]);
    expect(windows("2025-03-01", "2025-01-01")).toEqual([["2025-03-01", "2025-01-01"]]);
  });
});

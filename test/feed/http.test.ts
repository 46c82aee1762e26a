import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpError } from "../../src/errors.js";
import { createHttpClient, mirrorUrl, retryAfterMs, USER_AGENT } from "../../src/feed/http.js";
import { redactUrl } from "../../src/feed/redact.js";

let server: Server;
let base: string;
const hits = new Map<string, number>();
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const path = new URL(req.url!, "http://x").pathname;
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    if (path === "/flaky")
      return n < 3
        ? res.writeHead(503, { "retry-after": "0" }).end("busy")
        : res.writeHead(200, { "content-type": "text/csv" }).end("ok");
    if (path === "/limited") return res.writeHead(429, { "retry-after": "0" }).end();
    if (path === "/moved") return res.writeHead(302, { location: "https://bank.example/login?token=abc" }).end();
    if (path === "/missing") return res.writeHead(404).end("no");
    if (path === "/big") return res.writeHead(200).end(Buffer.alloc(2048));
    if (path === "/cookie") return res.writeHead(200, { "set-cookie": "SESSION=s1; Path=/; HttpOnly" }).end("landing");
    if (path === "/echo")
      return res.writeHead(200).end(
        JSON.stringify({
          cookie: req.headers.cookie ?? null,
          ua: req.headers["user-agent"],
          accept: req.headers.accept,
        }),
      );
    if (path.startsWith("/bank.example/")) return res.writeHead(200).end(`mirrored ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const noSleep = { sleep: () => Promise.resolve(), backoffMs: 1 };
/** What the test server's /echo saw of a request. */
type Echo = { ua: string; accept: string; cookie: string | null };
const echoOf = (body: Buffer) => JSON.parse(body.toString()) as Echo;

describe("the shared HTTP client", () => {
  it("retries 5xx and answers with the body, a real User-Agent and the adapter's Accept", async () => {
    const retries: string[] = [];
    const http = createHttpClient({ ...noSleep, onRetry: (i) => retries.push(i.reason) });
    const doc = await http.get(`${base}/flaky`, { accept: "text/csv" });
    expect(doc.body.toString()).toBe("ok");
    expect(doc.contentType).toBe("text/csv");
    expect(retries).toEqual(["HTTP 503", "HTTP 503"]);
    const echo = echoOf((await http.get(`${base}/echo`, { accept: "text/csv" })).body);
    expect(echo.ua).toBe(USER_AGENT);
    expect(echo.accept).toBe("text/csv");
  });

  it("gives up on 429 after its retries", async () => {
    const http = createHttpClient({ ...noSleep, retries: 2 });
    await expect(http.get(`${base}/limited`)).rejects.toThrow(/HTTP 429 after 3 tries/);
    expect(hits.get("/limited")).toBe(3);
  });

  it("treats a redirect and a 404 as errors at once, without retrying, and redacts secrets", async () => {
    const http = createHttpClient(noSleep);
    const moved = http.get(`${base}/moved?api_key=SECRET123`);
    await expect(moved).rejects.toThrow(HttpError);
    await expect(http.get(`${base}/moved?api_key=SECRET123`)).rejects.toThrow(/redirected \(302\).*token=\*\*\*/);
    await expect(http.get(`${base}/moved?api_key=SECRET123`)).rejects.not.toThrow(/SECRET123|abc/);
    await expect(http.get(`${base}/missing`)).rejects.toThrow(/HTTP 404$/);
    expect(hits.get("/missing")).toBe(1);
  });

  it("refuses a body over the limit", async () => {
    await expect(createHttpClient({ ...noSleep, maxBodyBytes: 1024 }).get(`${base}/big`)).rejects.toThrow(
      /exceeds the 1024-byte limit/,
    );
  });

  it("retries a refused connection, then fails with the URL", async () => {
    const http = createHttpClient({ ...noSleep, retries: 1, connectTimeoutMs: 500 });
    await expect(http.get("http://127.0.0.1:1/feed")).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:1\/feed: .* after 2 tries$/,
    );
  });

  it("keeps cookies within a session only", async () => {
    const http = createHttpClient(noSleep);
    const session = http.session();
    await session.get(`${base}/cookie`);
    expect(echoOf((await session.get(`${base}/echo`)).body).cookie).toBe("SESSION=s1");
    expect(echoOf((await http.get(`${base}/echo`)).body).cookie).toBeNull();
  });

  it("keeps what a POST sent beside its answer, for parse (a GET has none)", async () => {
    const http = createHttpClient(noSleep);
    const posted = await http.post(`${base}/echo`, "dateFilterDebut=2026%2F09%2F21&filterData=EUR");
    expect(posted.method).toBe("POST");
    expect(posted.requestBody).toBe("dateFilterDebut=2026%2F09%2F21&filterData=EUR");
    expect((await http.get(`${base}/echo`)).requestBody).toBeUndefined();
  });

  it("fetches through the feed mirror, reporting the bank's URL", async () => {
    const doc = await createHttpClient({ ...noSleep, mirror: base }).get(
      "https://bank.example/rates/daily.xml?date=2026-03-02",
    );
    expect(doc.body.toString()).toBe("mirrored /bank.example/rates/daily.xml?date=2026-03-02");
    expect(doc.url).toBe("https://bank.example/rates/daily.xml?date=2026-03-02");
    expect(mirrorUrl("https://a.example/x?y=1", "http://127.0.0.1:9400/")).toBe(
      "http://127.0.0.1:9400/a.example/x?y=1",
    );
  });

  it("reads Retry-After as seconds or as a date", () => {
    expect(retryAfterMs("120")).toBe(120_000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("redacts credential-like parameters and user info", () => {
    expect(redactUrl("https://api.example/x?series_id=DEXUSEU&api_key=abc123&file_type=json")).toBe(
      "https://api.example/x?series_id=DEXUSEU&api_key=***&file_type=json",
    );
    expect(redactUrl("https://user:pw@host.example/p")).toBe("https://***:***@host.example/p");
  });
});

// A head written from its precomputed text gives the bytes writeHead gives for the same headers (the
// Date's value aside), whatever the request: keep-alive, Connection: close, HTTP/1.0, HEAD, pipelined,
// a 304, and the states it hands to writeHead (a header set with setHeader, a reason phrase).
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { precomputedHead, writePrecomputedHead } from "../../src/serve/http/precomputed.js";
import { sendRepresentation } from "../../src/serve/http/respond.js";
import { buildTree } from "../../src/serve/state/tree.js";
import { MeteredResponse } from "../../src/serve/metrics.js";

const body = Buffer.from('{"rates":[{"currency":"USD","rate":"21.365"}]}');
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": body.length,
  etag: '"abc-1"',
  "last-modified": "Fri, 27 Nov 2026 14:30:00 GMT",
  vary: "Accept, Accept-Encoding",
  "cache-control": "private",
  "content-disposition": 'attachment; filename="CNB-2026-11-27.csv"',
  "x-content-type-options": "nosniff",
};
const notModifiedHeaders = {
  etag: '"abc-1"',
  "last-modified": "Fri, 27 Nov 2026 14:30:00 GMT",
  vary: "Accept, Accept-Encoding",
  "cache-control": "private",
};
const ok = precomputedHead(200, headers);
const notModified = precomputedHead(304, notModifiedHeaders);

/** Answers by the path: /pre or /plain, then /304 or /200, with `?set`: a header set beforehand. */
function answer(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "";
  if (url.includes("?set")) res.setHeader("x-extra", "1");
  if (url.includes("?reason")) res.statusMessage = "Fine";
  const is304 = url.includes("/304");
  if (url.startsWith("/pre")) writePrecomputedHead(res, is304 ? notModified : ok);
  else res.writeHead(is304 ? 304 : 200, is304 ? notModifiedHeaders : headers);
  res.end(is304 || req.method === "HEAD" ? undefined : body);
}

let server: Server;
let port: number;

beforeAll(async () => {
  // As the API's listener: its response class and keep-alive timeout.
  server = createServer({ ServerResponse: MeteredResponse, keepAliveTimeout: 5_000 }, answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw request text and reads until the server closes or `expected` responses have come. */
function exchange(text: string, expected: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    const done = () => {
      socket.destroy();
      resolve(received);
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.split("HTTP/1.1 ").length - 1 >= expected && /\r\n\r\n/.test(received)) setTimeout(done, 50);
    });
    socket.on("end", done);
    socket.on("error", reject);
  });
}

const withoutDate = (text: string) => text.replace(/\r\nDate: [^\r]+\r\n/g, "\r\nDate: -\r\n");

async function both(request: (path: string) => string, expected = 1): Promise<[string, string]> {
  const pre = await exchange(request("/pre"), expected);
  const plain = await exchange(request("/plain"), expected);
  return [withoutDate(pre), withoutDate(plain)];
}

describe("precomputed heads", () => {
  it.each([
    ["keep-alive 200", (p: string) => `GET ${p}/200 HTTP/1.1\r\nHost: x\r\n\r\n`, 1],
    ["Connection: close", (p: string) => `GET ${p}/200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 1],
    ["HTTP/1.0", (p: string) => `GET ${p}/200 HTTP/1.0\r\nHost: x\r\n\r\n`, 1],
    ["HTTP/1.0 keep-alive", (p: string) => `GET ${p}/200 HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`, 1],
    ["HEAD", (p: string) => `HEAD ${p}/200 HTTP/1.1\r\nHost: x\r\n\r\n`, 1],
    ["304", (p: string) => `GET ${p}/304 HTTP/1.1\r\nHost: x\r\n\r\n`, 1],
    ["304, Connection: close", (p: string) => `GET ${p}/304 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 1],
    ["a header set first", (p: string) => `GET ${p}/200?set HTTP/1.1\r\nHost: x\r\n\r\n`, 1],
    ["a reason phrase set first", (p: string) => `GET ${p}/200?reason HTTP/1.1\r\nHost: x\r\n\r\n`, 1],
    [
      "pipelined, the last closing",
      (p: string) =>
        `GET ${p}/200 HTTP/1.1\r\nHost: x\r\n\r\nHEAD ${p}/200 HTTP/1.1\r\nHost: x\r\n\r\n` +
        `GET ${p}/304 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      3,
    ],
  ])("%s: the same bytes as writeHead", async (_name, request, expected) => {
    const [pre, plain] = await both(request, expected);
    expect(pre).toBe(plain);
    expect(pre).toMatch(/^HTTP\/1\.1 (200 OK|304 Not Modified|200 Fine)\r\n/);
  });

  it("writes the headers in their given order, then Date and the connection's", async () => {
    const [pre] = await both((p) => `GET ${p}/200 HTTP/1.1\r\nHost: x\r\n\r\n`);
    const names = pre
      .split("\r\n\r\n")[0]!
      .split("\r\n")
      .slice(1)
      .map((line) => line.slice(0, line.indexOf(":")));
    expect(names).toEqual([...Object.keys(headers), "Date", "Connection", "Keep-Alive"]);
    expect(pre.endsWith(body.toString("latin1"))).toBe(true);
  });

  it("sends a Date of the current second", async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const text = await exchange("GET /pre/200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 1);
    const date = Date.parse(/\r\nDate: ([^\r]+)\r\n/.exec(text)![1]!);
    expect(date).toBeGreaterThanOrEqual(before);
    expect(date).toBeLessThanOrEqual(Date.now());
  });

  it("leaves to writeHead the headers node:http reads, values outside ASCII, bodies without a length", () => {
    expect(precomputedHead(200, { ...headers, connection: "close" }).text).toBeUndefined();
    expect(precomputedHead(200, { ...headers, "content-disposition": "attachment; filename=é" }).text).toBeUndefined();
    expect(precomputedHead(200, { "content-type": "text/plain" }).text).toBeUndefined();
    expect(precomputedHead(304, notModifiedHeaders).text).toBe(
      'HTTP/1.1 304 Not Modified\r\netag: "abc-1"\r\nlast-modified: Fri, 27 Nov 2026 14:30:00 GMT\r\n' +
        "vary: Accept, Accept-Encoding\r\ncache-control: private\r\n",
    );
  });

  it("refuses a header node:http would refuse, when it is built", () => {
    expect(() => precomputedHead(200, { "bad name": "x" })).toThrow();
    expect(() => precomputedHead(200, { ok: "line\nbreak" })).toThrow();
  });

  it("tells the metrics the content type", () => {
    expect(ok.contentType).toBe("application/json; charset=utf-8");
    expect(notModified.contentType).toBe("");
  });
});

describe("a published Latest, as the tree holds it", () => {
  const csv = Buffer.from("currency,rate\nUSD,21.365\n");
  const gz = gzipSync(csv);
  const path = "v1/Banks/CNB/DailyRates/Latest.csv";
  const file = {
    bytes: csv.length,
    sha256: createHash("sha256").update(csv).digest("hex"),
    etag: '"cnb-csv-1"',
    lastModified: "2026-11-27T14:30:00.000Z",
    contentType: "text/csv; charset=utf-8",
    encodings: ["gzip" as const],
  };
  const manifest = {
    generation: "1",
    publishedAt: "2026-11-27T14:31:00.000Z",
    files: { [path]: file },
    banks: { CNB: { effectiveDate: "2026-11-27", inputHash: "h", lastModified: file.lastModified, warnings: 2 } },
  };
  let tree: Server;
  let treePort: number;

  beforeAll(async () => {
    const loaded = await buildTree(manifest, "g1", (_p, _f, encoding) =>
      Promise.resolve(encoding === "gzip" ? gz : csv),
    );
    const rep = loaded.banks.get("CNB")!.latest.csv!;
    // /pre: the server's path (sendRepresentation); /plain: writeHead with the same variant's headers.
    tree = createServer({ ServerResponse: MeteredResponse, keepAliveTimeout: 5_000 }, (req, res) => {
      if (req.url === "/pre") return sendRepresentation(req, res, rep);
      const variant = /gzip/.test(req.headers["accept-encoding"] ?? "") ? rep.gzip! : rep.identity;
      if (req.headers["if-none-match"]) res.writeHead(304, { ...rep.notModified, etag: variant.etag }).end();
      else res.writeHead(200, variant.headers).end(req.method === "HEAD" ? undefined : variant.body);
    });
    await new Promise<void>((resolve) => tree.listen(0, "127.0.0.1", resolve));
    treePort = (tree.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => tree.close(() => resolve())));

  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(treePort, "127.0.0.1", () => socket.write(text));
      let received = "";
      socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
      socket.on("end", () => resolve(withoutDate(received)));
      socket.on("error", reject);
    });

  const full = ["x-rate-warnings: 2\r\n", 'content-disposition: attachment; filename="CNB-2026-11-27.csv"\r\n'];
  it.each([
    ["identity", "", ["HTTP/1.1 200 OK\r\n", "content-length: 25\r\n", ...full]],
    ["gzip", "Accept-Encoding: gzip, br\r\n", ['etag: "cnb-csv-1-gzip"\r\n', "content-encoding: gzip\r\n", ...full]],
    [
      "304 of the gzip variant",
      'Accept-Encoding: gzip\r\nIf-None-Match: "cnb-csv-1"\r\n',
      ["HTTP/1.1 304 Not Modified\r\n", 'etag: "cnb-csv-1-gzip"\r\n'],
    ],
    ["304 of the identity", 'If-None-Match: W/"cnb-csv-1"\r\n', ['etag: "cnb-csv-1"\r\n']],
  ])("%s: the bytes writeHead gives for the variant's headers", async (_name, extra, contains) => {
    const request = (p: string) => `GET ${p} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`;
    const [pre, plain] = [await raw(request("/pre")), await raw(request("/plain"))];
    expect(pre).toBe(plain);
    for (const text of contains) expect(pre).toContain(text);
  });
});

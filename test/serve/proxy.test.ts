// The proxy over the published tree: negotiation matrix, conditional requests, HEAD, compression,
// path tricks, methods, problem+json, readiness and the atomic swap of generations.
import { createConnection } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { negotiate, parseAccept, pickByAccept, pickEncoding, qualityOf } from "../../src/serve/http/negotiate.js";
import { publishGeneration, rawRequest, startHarness, XLSX, type Harness } from "./support.js";

let h: Harness;
let auth: Record<string, string>;
const LATEST = "/v1/Banks/CNB/DailyRates/Latest";
const TYPES = {
  json: "application/json; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xlsx: XLSX,
};

beforeAll(async () => {
  h = await startHarness();
  auth = { authorization: `Bearer ${await h.token()}` };
});
afterAll(async () => h.close());

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  // fetch asks for gzip by default; these checks are about the identity representation.
  const res = await fetch(`${h.url}${path}`, {
    method,
    headers: { "accept-encoding": "identity", ...auth, ...headers },
  });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    headers: res.headers,
    body,
    json: () => JSON.parse(body.toString()) as Record<string, unknown>,
  };
}

describe("negotiation (unit)", () => {
  it("parses q-values and wildcards", () => {
    const ranges = parseAccept("text/*;q=0.3, application/xml;q=0.9, */*;q=0.1, bad, application/json;q=2")!;
    expect(ranges.map((r) => `${r.type}/${r.subtype}:${r.q}`)).toEqual([
      "text/*:0.3",
      "application/xml:0.9",
      "*/*:0.1",
    ]);
    expect(qualityOf(ranges, "text/csv")).toBe(0.3);
    expect(qualityOf(ranges, "application/json")).toBe(0.1);
    expect(pickByAccept("text/csv;q=0.5, application/xml;q=0.6", ["json", "xml", "csv", "xlsx"])).toBe("xml");
    expect(pickByAccept("application/*", ["json", "xml", "csv", "xlsx"])).toBe("json");
    expect(pickByAccept("application/*, application/json;q=0", ["json", "xml", "csv", "xlsx"])).toBe("xml");
    expect(pickByAccept("image/png", ["json", "xml", "csv", "xlsx"])).toBeNull();
    expect(pickByAccept("*/*;q=0", ["json"])).toBeNull();
    expect(negotiate("xml", ["xml"], "text/csv", ["json", "xml", "csv", "xlsx"])).toEqual({ ok: true, format: "xml" });
    expect(negotiate("xml", ["csv"], undefined, ["json", "xml", "csv", "xlsx"])).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("chooses br, then gzip, by Accept-Encoding", () => {
    const both = { br: true, gzip: true };
    expect(pickEncoding("gzip, deflate, br", both)).toBe("br");
    expect(pickEncoding("gzip", both)).toBe("gzip");
    expect(pickEncoding("br;q=0.5, gzip", both)).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0", both)).toBe("identity");
    expect(pickEncoding("*", both)).toBe("br");
    expect(pickEncoding("*;q=0, gzip", both)).toBe("gzip");
    expect(pickEncoding("identity", both)).toBe("identity");
    expect(pickEncoding(undefined, both)).toBe("identity");
    expect(pickEncoding("br", { br: false, gzip: true })).toBe("identity");
  });
});

describe("negotiation matrix (HTTP)", () => {
  const cases: Array<[string, Record<string, string>, number, keyof typeof TYPES | null]> = [
    [LATEST, {}, 200, "json"],
    [LATEST, { accept: "*/*" }, 200, "json"],
    [LATEST, { accept: "application/xml" }, 200, "xml"],
    [LATEST, { accept: "text/csv" }, 200, "csv"],
    [LATEST, { accept: XLSX }, 200, "xlsx"],
    [LATEST, { accept: "text/*" }, 200, "csv"],
    [LATEST, { accept: "application/json;q=0.2, text/csv;q=0.8" }, 200, "csv"],
    [LATEST, { accept: "text/html, application/xml;q=0.9, */*;q=0.1" }, 200, "xml"],
    [LATEST, { accept: "TEXT/CSV" }, 200, "csv"],
    [LATEST, { accept: "text/html" }, 406, null],
    [LATEST, { accept: "application/json;q=0, text/*;q=0" }, 406, null],
    [`${LATEST}.xml`, { accept: "text/csv" }, 200, "xml"],
    [`${LATEST}.CSV`, {}, 200, "csv"],
    [`${LATEST}.xlsx`, {}, 200, "xlsx"],
    [`${LATEST}.xml?format=xml`, {}, 200, "xml"],
    [`${LATEST}.xml?format=csv`, {}, 400, null],
    [`${LATEST}?format=csv`, { accept: "application/xml" }, 200, "csv"],
    [`${LATEST}?format=XLSX`, {}, 200, "xlsx"],
    [`${LATEST}?format=csv&format=xml`, {}, 400, null],
    [`${LATEST}?format=csv&format=csv`, {}, 200, "csv"],
    [`${LATEST}?format=pdf`, {}, 406, null],
    [`${LATEST}?format=`, {}, 406, null],
    [`${LATEST}.pdf`, {}, 406, null],
    [`${LATEST}.json.gz`, {}, 406, null],
    // A parameter Latest does not read is refused, naming the ones it does.
    [`${LATEST}?other=1`, {}, 400, null],
    ["/v1/banks/CNB", {}, 200, "json"],
    ["/v1/banks/CNB", { accept: "text/csv" }, 406, null],
    ["/v1/banks/CNB?format=xml", {}, 406, null],
    ["/v1/banks/CNB.json", {}, 200, "json"],
    ["/v1/banks", {}, 200, "json"],
  ];
  for (const [path, headers, status, format] of cases) {
    it(`${path} ${JSON.stringify(headers)} -> ${status}${format ? ` ${format}` : ""}`, async () => {
      const r = await get(path, headers);
      expect(r.status).toBe(status);
      if (format) {
        expect(r.headers.get("content-type")).toBe(TYPES[format]);
        expect(r.headers.get("vary")).toBe("Accept, Accept-Encoding");
        expect(r.headers.get("cache-control")).toBe("private");
      } else {
        expect(r.headers.get("content-type")).toBe("application/problem+json");
        const problem = r.json();
        expect(problem).toMatchObject({ type: "about:blank", status });
        expect(typeof problem.title).toBe("string");
        expect(typeof problem.detail).toBe("string");
        if (status === 406)
          expect(problem.supported).toEqual(
            path.startsWith("/v1/banks/")
              ? ["application/json"]
              : ["application/json", "application/xml", "text/csv", XLSX],
          );
      }
    });
  }

  it("fixed segments and bank ids are case-insensitive; responses are canonical", async () => {
    for (const path of [
      "/V1/BANKS/cnb/dailyrates/latest.csv",
      "/v1/banks/Cnb/DailyRates/LATEST.csv",
      "/v1/Banks/cnb/DAILYRATES/Latest?format=csv",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.body.toString()).toContain("CNB,USD,CZK");
      expect(r.headers.get("content-disposition")).toBe('attachment; filename="CNB-2026-04-02.csv"');
    }
    expect((await get("/v1/BANKS/cnb")).json().id).toBe("CNB");
  });

  it("unknown banks and paths: 404 problem+json", async () => {
    for (const path of [
      "/v1/banks/XXX",
      "/v1/Banks/XXX/DailyRates/Latest",
      "/v1/Banks/CNB/DailyRates/Oldest",
      "/v1/Banks/CNB/DailyRates",
      "/v1/banks/C",
      "/v1/banks/TOOLONGBANKID",
      "/v2/banks/CNB",
      "/v1",
      "/v1/banks/CNB/",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("no JSON/XML Content-Disposition; the xlsx one is named too", async () => {
    expect((await get(`${LATEST}.json`)).headers.get("content-disposition")).toBeNull();
    expect((await get(`${LATEST}.xml`)).headers.get("content-disposition")).toBeNull();
    expect((await get(`/v1/Banks/ECB/DailyRates/Latest.xlsx`)).headers.get("content-disposition")).toBe(
      'attachment; filename="ECB-2026-04-01.xlsx"',
    );
  });
});

describe("conditional requests, HEAD, compression", () => {
  it("ETag and Last-Modified, then 304 on If-None-Match and If-Modified-Since", async () => {
    const first = await get(`${LATEST}.xml`);
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(lastModified).toBe("Thu, 02 Apr 2026 12:31:00 GMT");
    const a = await get(`${LATEST}.xml`, { "if-none-match": etag });
    expect(a.status).toBe(304);
    expect(a.body.length).toBe(0);
    expect(a.headers.get("etag")).toBe(etag);
    expect(a.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect((await get(`${LATEST}.xml`, { "if-none-match": `"other", W/${etag}` })).status).toBe(304);
    expect((await get(`${LATEST}.xml`, { "if-none-match": "*" })).status).toBe(304);
    expect((await get(`${LATEST}.xml`, { "if-none-match": '"other"' })).status).toBe(200);
    // Another format's ETag does not match this one.
    expect((await get(`${LATEST}.csv`, { "if-none-match": etag })).status).toBe(200);
    expect((await get(`${LATEST}.xml`, { "if-modified-since": lastModified })).status).toBe(304);
    expect((await get(`${LATEST}.xml`, { "if-modified-since": "Fri, 03 Apr 2026 00:00:00 GMT" })).status).toBe(304);
    expect((await get(`${LATEST}.xml`, { "if-modified-since": "Wed, 01 Apr 2026 00:00:00 GMT" })).status).toBe(200);
    expect((await get(`${LATEST}.xml`, { "if-modified-since": "garbage" })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get(`${LATEST}.xml`, { "if-none-match": '"other"', "if-modified-since": lastModified })).status).toBe(
      200,
    );
    // A 304 still needs the token.
    const res = await fetch(`${h.url}${LATEST}.xml`, { headers: { "if-none-match": etag } });
    expect(res.status).toBe(401);
  });

  it("HEAD: the GET's headers, no body", async () => {
    for (const path of [`${LATEST}.csv`, "/v1/banks/CNB", `${LATEST}.xlsx`]) {
      const g = await get(path);
      const hd = await get(path, {}, "HEAD");
      expect(hd.status).toBe(200);
      expect(hd.body.length).toBe(0);
      for (const name of [
        "content-type",
        "content-length",
        "etag",
        "last-modified",
        "vary",
        "cache-control",
        "content-disposition",
      ]) {
        expect(hd.headers.get(name), name).toBe(g.headers.get(name));
      }
    }
    expect((await get(LATEST, {}, "HEAD")).headers.get("content-length")).toBe(String((await get(LATEST)).body.length));
    const unauthorized = await fetch(`${h.url}${LATEST}`, { method: "HEAD" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toBe('Bearer realm="exrates"');
  });

  it("br and gzip from the precompressed siblings, each with its own ETag", async () => {
    const plain = await rawRequest(h.url, `GET ${LATEST}.csv`, { ...auth });
    const br = await rawRequest(h.url, `GET ${LATEST}.csv`, { ...auth, "accept-encoding": "gzip, deflate, br" });
    const gz = await rawRequest(h.url, `GET ${LATEST}.csv`, { ...auth, "accept-encoding": "gzip" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const rawBody = async (encoding: string) => {
      const { request } = await import("node:http");
      const target = new URL(h.url);
      return new Promise<Buffer>((resolve, reject) => {
        request(
          {
            host: target.hostname,
            port: target.port,
            path: `${LATEST}.csv`,
            headers: { ...auth, "accept-encoding": encoding },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve(Buffer.concat(chunks)));
          },
        )
          .on("error", reject)
          .end();
      });
    };
    expect(brotliDecompressSync(await rawBody("br")).toString()).toBe(plain.body);
    expect(gunzipSync(await rawBody("gzip")).toString()).toBe(plain.body);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    expect(br.headers.vary).toBe("Accept, Accept-Encoding");
    // Every encoding's tag validates the representation.
    const again = await rawRequest(h.url, `GET ${LATEST}.csv`, {
      ...auth,
      "accept-encoding": "br",
      "if-none-match": gz.headers.etag!,
    });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(br.headers.etag);
    // xlsx has no compressed siblings.
    const x = await rawRequest(h.url, `GET ${LATEST}.xlsx`, { ...auth, "accept-encoding": "br, gzip" });
    expect(x.headers["content-encoding"]).toBeUndefined();
  });
});

describe("methods, public endpoints, readiness", () => {
  it("405 with Allow for other methods", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const r = await get(LATEST, {}, method);
      expect(r.status, method).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD");
      expect(r.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await fetch(`${h.url}/healthz`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${h.issuer}/protocol/openid-connect/certs`, { method: "POST" })).status).toBe(405);
  });

  it("healthz, readyz, XSD, discovery, JWKS, OpenAPI", async () => {
    expect(await (await fetch(`${h.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${h.url}/readyz`)).json()).toMatchObject({
      status: "ready",
      generation: "20260402T123100000Z-1",
    });
    const xsd = await fetch(`${h.url}/v1/schemas/exchange-rates-1.0.xsd`);
    expect(xsd.status).toBe(200);
    expect(xsd.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(await xsd.text()).toContain("xs:schema");
    const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    for (const field of [
      "issuer",
      "authorization_endpoint",
      "token_endpoint",
      "jwks_uri",
      "response_types_supported",
      "subject_types_supported",
      "id_token_signing_alg_values_supported",
    ]) {
      expect(discovery[field], field).toBeDefined();
    }
    const openapi = (await (await fetch(`${h.url}/v1/openapi.json`)).json()) as Record<string, unknown>;
    const validator = new Validator();
    const result = await validator.validate(openapi);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toBe("3.1.0");
    expect(Object.keys(openapi.paths as object)).toEqual(
      expect.arrayContaining(["/v1/banks/{bankId}", "/v1/Banks/{bankId}/DailyRates/Latest"]),
    );
  });

  it("before the first publish: readyz 503, API 503, healthz 200; the tree appears without restart", async () => {
    const empty = await startHarness({ publish: false, server: { pollMs: 50 } });
    try {
      const token = await empty.token();
      expect((await fetch(`${empty.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${empty.url}/healthz`)).status).toBe(200);
      const r = await fetch(`${empty.url}${LATEST}`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(503);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      publishGeneration(empty.config.outDir, "g1", [{ id: "CNB", date: "2026-04-02" }]);
      await empty.server.refresh();
      expect((await fetch(`${empty.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${empty.url}${LATEST}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        200,
      );
    } finally {
      await empty.close();
    }
  });
});

describe("generations", () => {
  it("a new generation is swapped in whole; a broken one is refused and the old one keeps serving", async () => {
    const g = await startHarness({ server: { pollMs: 20 } });
    try {
      const headers = { authorization: `Bearer ${await g.token()}` };
      const read = async (path: string) => (await fetch(`${g.url}${path}`, { headers })).text();
      expect(await read(`${LATEST}.csv`)).toContain("20.611");
      publishGeneration(
        g.config.outDir,
        "g2",
        [
          { id: "CNB", date: "2026-04-03", rate: "21.000" },
          { id: "NBP", date: "2026-04-03" },
        ],
        "2026-04-03T12:00:00.000Z",
      );
      // The server's own poll (every 20 ms) finds it; a loaded machine may take longer than a fixed wait.
      await vi.waitFor(() => expect(g.server.tree()?.generation).toBe("g2"), { timeout: 10_000, interval: 20 });
      expect(await read(`${LATEST}.csv`)).toContain("CNB,USD,CZK,2026-04-03,21.000,1");
      expect(await read(`${LATEST}.json`)).toContain("2026-04-03");
      expect((await fetch(`${g.url}/v1/banks/NBP`, { headers })).status).toBe(200);
      // ECB left the tree: its rates are gone, the bank itself is still known (from its descriptor).
      expect((await fetch(`${g.url}/v1/Banks/ECB/DailyRates/Latest.json`, { headers })).status).toBe(404);
      // A generation whose file differs from its manifest is never served.
      const { writeFileSync } = await import("node:fs");
      publishGeneration(g.config.outDir, "g3", [{ id: "CNB", date: "2026-04-04", rate: "22.000" }]);
      writeFileSync(`${g.config.outDir}/.generations/g3/v1/Banks/CNB/DailyRates/Latest.csv`, "tampered\n");
      // A check of the new generation made now, rather than hoping the poll has looked at it in time.
      await g.server.refresh();
      expect(g.server.tree()?.generation).toBe("g2");
      expect(await read(`${LATEST}.csv`)).toContain("21.000");
      expect(await read(`${LATEST}.json`)).toContain("2026-04-03");
    } finally {
      await g.close();
    }
  });

  it("under load while generations switch, every response is one generation's (never a mix)", async () => {
    const g = await startHarness({ server: { pollMs: 5 } });
    try {
      const headers = { authorization: `Bearer ${await g.token()}` };
      let stop = false;
      const seen = new Set<string>();
      const reader = (async () => {
        while (!stop) {
          const [json, csv] = await Promise.all([
            fetch(`${g.url}${LATEST}.json`, { headers }).then((r) => r.text()),
            fetch(`${g.url}${LATEST}.csv`, { headers }).then((r) => r.text()),
          ]);
          const rate = /"rate":([\d.]+)/.exec(json)![1]!;
          expect(csv).toMatch(/,\d+\.\d+,1\n$/);
          seen.add(rate);
        }
      })();
      for (let i = 1; i <= 5; i++) {
        publishGeneration(g.config.outDir, `s${i}`, [{ id: "CNB", date: `2026-05-0${i}`, rate: `3${i}.000` }]);
        await new Promise((r) => setTimeout(r, 60));
      }
      // A loaded machine can take longer than the publishes to load a generation: keep reading until
      // the server has switched at least once (or 10 s have passed, and the assertion below fails).
      for (const until = Date.now() + 10_000; seen.size < 2 && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 50));
      stop = true;
      await reader;
      expect(seen.size).toBeGreaterThan(1);
    } finally {
      await g.close();
    }
  });
});

/** Sends bytes as they are and reads the status line (for requests an HTTP client would refuse to send). */
function rawSocket(url: string, request: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: target.hostname, port: Number(target.port) }, () => socket.write(request));
    let data = "";
    socket.on("data", (c) => {
      data += c.toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        resolve(Number(m[1]));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("close", () =>
      resolve(/^HTTP\/1\.1 (\d{3})/.exec(data) ? Number(/^HTTP\/1\.1 (\d{3})/.exec(data)![1]) : 0),
    );
  });
}

describe("path tricks", () => {
  const tricks: Array<[string, number]> = [
    ["/v1/banks/../../../etc/passwd", 400],
    ["/v1/Banks/CNB/DailyRates/../../../../manifest.json", 400],
    ["/v1/banks/%2e%2e/%2e%2e/manifest.json", 400],
    ["/v1/banks/%2E%2E%2Fmanifest.json", 400],
    ["/v1/banks/..%2fmanifest.json", 400],
    ["/v1/Banks/CNB%2fDailyRates%2fLatest", 400],
    ["/v1/Banks/CNB%5cDailyRates", 400],
    ["/v1/banks/CNB%00.json", 400],
    ["/v1/banks/%ZZ", 400],
    ["/v1/banks/%c0%ae%c0%ae/", 400],
    ["/v1/banks/./CNB", 400],
    ["/current/manifest.json", 404],
    ["/.generations", 404],
    ["/out/current/v1/banks/CNB.json", 404],
    ["/v1/banks/CNB.json.br", 406],
    ["//v1/banks/CNB", 404],
    ["/v1/banks//CNB", 404],
    [`/v1/banks/${"A".repeat(3000)}`, 414],
  ];
  for (const [path, status] of tricks) {
    it(`${path.slice(0, 60)} -> ${status}`, async () => {
      const r = await rawRequest(h.url, `GET ${path}`, auth);
      expect(r.status).toBe(status);
      expect(r.body).not.toMatch(/"generation"|xs:schema|root:/);
    });
  }

  it("raw bytes an HTTP client would not send: backslash, NUL, absolute-form, huge headers", async () => {
    const token = auth.authorization!;
    const req = (target: string, extra = "") =>
      `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${token}\r\n${extra}Connection: close\r\n\r\n`;
    expect(await rawSocket(h.url, req("/v1/banks\\..\\..\\manifest.json"))).toBe(400);
    expect(await rawSocket(h.url, req("/v1/banks/CNB\\"))).toBe(400);
    expect(await rawSocket(h.url, req("/v1/banks/CNB\u0000.json"))).toBe(400);
    expect(await rawSocket(h.url, req("http://evil/v1/banks/CNB"))).toBe(400);
    expect(await rawSocket(h.url, req("/v1/banks/CNB", `X-Big: ${"a".repeat(20_000)}\r\n`))).toBe(431);
    expect(await rawSocket(h.url, req(`/v1/banks/${"A".repeat(20_000)}`))).toBe(431);
    expect(await rawSocket(h.url, req("/v1/banks/CNB"))).toBe(200);
  });
});

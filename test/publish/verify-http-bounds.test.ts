// `exrates verify` over HTTP within bounds (issue 37, item 4): an endless body is read up to the
// manifest's bound and refused with one line, the process staying under 200 MB of RSS; a file longer
// than its manifest lists is cut there and named altered; client credentials go only to a configured
// token endpoint, over https or loopback, never to a host that merely answered 401.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, describe, expect, it } from "vitest";

import { MAX_MANIFEST_BYTES, readLimit, safeForCredentials, verifyUrl } from "../../src/publish/verify-http.js";
import { spawnCli, finished } from "../support/cli.js";
import { endlessReceiver } from "../support/endless.js";

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A server that answers 401 to every GET and records every POST's body. */
async function asksForToken(): Promise<{ url: string; posts: string[] }> {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.method === "POST") posts.push(body);
      res.writeHead(401, { "www-authenticate": 'Bearer realm="copy"' }).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/copy`, posts };
}

/** Peak RSS of a process in MB, from /proc (VmHWM), while it runs. */
function peakRss(pid: number): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (kb) peak = Math.max(peak, Number(kb) / 1024);
    } catch {
      // Exited.
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

describe("exrates verify over HTTP, bounded", () => {
  it("fails with one clear line against an endless body, under 200 MB of RSS", async () => {
    const endless = await endlessReceiver(30_000);
    try {
      const child = spawnCli(["verify", endless.url], { LOG_LEVEL: "warn" });
      const peak = peakRss(child.pid!);
      const result = await finished(child, 30_000);
      const rss = peak();
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(`the answer is larger than the ${MAX_MANIFEST_BYTES} bytes verify reads of it`);
      expect(rss).toBeGreaterThan(0);
      expect(rss).toBeLessThan(200);
      // It stopped reading near the bound, not at the receiver's 30 s stop.
      expect(endless.sent[0]!).toBeLessThan(MAX_MANIFEST_BYTES + 64 * 1024 * 1024);
    } finally {
      await endless.close();
    }
  }, 60_000);

  it("reads a listed file at most one byte past its listed size (its sibling a little more)", () => {
    const file = { bytes: 1000, sha256: "", etag: "", lastModified: "", contentType: "", encodings: [] };
    expect(readLimit(file)).toBe(1001);
    expect(readLimit(file, "br")).toBe(1000 + 16 + 4096 + 1);
    expect(readLimit({ ...file, bytes: 10 ** 12 })).toBe(256 * 1024 * 1024);
  });

  it("sends no client credentials to a static copy that answers 401", async () => {
    const copy = await asksForToken();
    const error = (await verifyUrl(copy.url, { clientId: "erp", clientSecret: "s3cret-value" }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/client credentials go only to a configured token endpoint/);
    expect(copy.posts).toEqual([]);
  });

  it("sends them to a configured token endpoint only over https or loopback", async () => {
    const copy = await asksForToken();
    const error = (await verifyUrl(copy.url, {
      clientId: "erp",
      clientSecret: "s3cret-value",
      tokenUrl: "http://tokens.example/token",
    }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/sent only over https or to a loopback address/);
    expect(error.message).not.toContain("s3cret-value");
    expect(safeForCredentials("https://sso.example/realms/x/protocol/openid-connect/token")).toBe(true);
    expect(safeForCredentials("http://127.0.0.1:8080/token")).toBe(true);
    expect(safeForCredentials("http://[::1]:8080/token")).toBe(true);
    expect(safeForCredentials("http://localhost/token")).toBe(true);
    expect(safeForCredentials("http://10.0.0.5/token")).toBe(false);
    expect(safeForCredentials("http://sso.example/token")).toBe(false);
  });
});

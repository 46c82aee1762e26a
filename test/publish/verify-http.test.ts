// exrates verify over HTTP: the service serves its current generation byte for byte under
// /v1/publications/current/ (bearer-protected), and a fresh signed publish served by it verifies with
// the host's key set, through a token or client credentials; a static copy of a generation at a URL
// prefix (a small node:http server here) verifies too, and one changed byte, a removed file and a
// manifest re-signed with another key each fail, naming the file; no token where one is needed is a
// clear error, and the secret never shows. A server following a bucket serves its generation the same way.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { loadConfig } from "../../src/config.js";
import { publish } from "../support/unsigned.js";
import { S3TreeTarget } from "../../src/publish/s3-target.js";
import { loadPublicationKeys, signManifest, SIGNATURE_FILE } from "../../src/publish/signing.js";
import { MANIFEST, readCurrentGeneration } from "../../src/publish/tree.js";
import { verifyUrl } from "../../src/publish/verify-http.js";
import { cli } from "../support/cli.js";
import { storeRates, testBank } from "../support/publish.js";
import { startTestServer, type InProcessServer } from "../support/server.js";
import { startS3Server } from "./s3-server.js";

const AAA = testBank("AAA");
const LATEST = "v1/Banks/AAA/DailyRates/Latest.json";

let server: InProcessServer;
let generationDir: string;

beforeAll(async () => {
  server = await startTestServer({ publish: false });
  storeRates(server.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
  const signing = await loadPublicationKeys(server.config.dataDir);
  await publish(server.store, [AAA], server.config.outDir, { signing });
  await server.server.refresh();
  generationDir = (await readCurrentGeneration(server.config.outDir))!.dir;
});
afterAll(async () => {
  await server?.stop();
});

describe("the service's served generation", () => {
  it("is the published bytes under /v1/publications/current/, behind the bearer check", async () => {
    const token = await server.token();
    const get = (path: string, auth = true) =>
      fetch(`${server.url}/v1/publications/current/${path}`, {
        headers: auth ? { authorization: `Bearer ${token}`, "accept-encoding": "br, gzip" } : {},
      });
    expect((await get(MANIFEST, false)).status).toBe(401);
    for (const path of [MANIFEST, SIGNATURE_FILE, "publication-jwks.json", LATEST, `${LATEST}.br`, `${LATEST}.gz`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-encoding"), path).toBeNull();
      expect(res.headers.get("x-exrates-generation"), path).toBe(server.server.tree()?.generation);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(generationDir, path))), path).toBe(true);
    }
    const latest = await get(LATEST);
    expect(latest.headers.get("content-type")).toMatch(/^application\/json/);
    const etag = latest.headers.get("etag")!;
    const again = await fetch(`${server.url}/v1/publications/current/${LATEST}`, {
      headers: { authorization: `Bearer ${token}`, "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect((await get("v1/Banks/AAA/DailyRates/Latest.xlsx.br")).status).toBe(404);
    expect((await get("v1/nothing.json")).status).toBe(404);
  });

  it("verifies with the host's key set, through client credentials or a token", async () => {
    const result = await verifyUrl(server.url, { clientId: server.client.id, clientSecret: server.client.secret });
    expect(result.problems).toEqual([]);
    expect(result.files).toBeGreaterThan(5);
    expect(result.kid).toBe((await loadPublicationKeys(server.config.dataDir)).active.kid);
    expect(result.keySet).toBe(`the key set of ${server.url}/v1/publications/jwks.json`);
    expect(result.copy).toBe(`${server.url}/v1/publications/current`);
    const withToken = await verifyUrl(`${server.url}/`, { token: await server.token() });
    expect(withToken.problems).toEqual([]);
  });

  it("needs a token: a clear error without one, and a refused one or secret is named, never shown", async () => {
    await expect(verifyUrl(server.url)).rejects.toThrow(/needs a bearer token: give --token \(or EXRATES_TOKEN\)/);
    await expect(verifyUrl(server.url, { token: "not-a-token-at-all" })).rejects.toThrow(/refused the token \(401\)/);
    const secret = "wrong-secret-0123456789";
    const error = await verifyUrl(server.url, { clientId: server.client.id, clientSecret: secret }).catch(
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/the token endpoint refused the client credentials/);
    expect((error as Error).message).not.toContain(secret);
  });

  it("exits 0 from the CLI with client credentials, 1 with a clear line without any", async () => {
    const ok = await cli(["verify", server.url], {
      EXRATES_CLIENT_ID: server.client.id,
      EXRATES_CLIENT_SECRET: server.client.secret,
    });
    expect(ok.stdout).toContain("OK: generation");
    expect(ok.stdout).toContain(`(the key set of ${server.url}/v1/publications/jwks.json)`);
    expect(ok.stdout).toContain("files the manifest does not name were not looked for");
    expect(ok.stdout + ok.stderr).not.toContain(server.client.secret);
    expect(ok.code).toBe(0);
    const none = await cli(["verify", server.url], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/needs a bearer token/);
  });
});

describe("a static copy at a URL prefix", () => {
  let copy: string;
  let staticServer: Server;
  let url: string;
  const authorizations: string[] = [];

  beforeAll(async () => {
    staticServer = createServer((req, res) => {
      if (req.headers.authorization) authorizations.push(req.headers.authorization);
      const path = decodeURIComponent(new URL(req.url!, "http://x").pathname);
      if (!path.startsWith("/share/rates/") || path.includes("..")) return res.writeHead(404).end();
      try {
        const body = readFileSync(join(copy, path.slice("/share/rates/".length)));
        res.writeHead(200, { "content-length": body.length }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => staticServer.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/share/rates`;
  });
  afterAll(() => new Promise((resolve) => staticServer.close(resolve)));
  afterEach(() => rmSync(copy, { recursive: true, force: true }));

  const fresh = () => {
    copy = mkdtempSync(join(tmpdir(), "exrates-copy-"));
    // A static copy holds files, not the links to shared directories a generation is made of (cp -rL).
    cpSync(generationDir, copy, { recursive: true, dereference: true });
  };

  it("passes whole, with the key set beside it (the host serves none), and a token goes to no host that asks none", async () => {
    fresh();
    const result = await verifyUrl(`${url}/`, { token: "a-token-for-the-service-only" });
    expect(result.problems).toEqual([]);
    expect(authorizations).toEqual([]);
    expect(result.keySet).toBe("the key set beside the copy");
    expect(result.copy).toBe(url);
  });

  it("names a file with one changed byte, and a removed one", async () => {
    fresh();
    const bytes = readFileSync(join(copy, LATEST));
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(join(copy, LATEST), bytes);
    rmSync(join(copy, "v1/banks.json.gz"));
    const { problems } = await verifyUrl(url);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "v1/banks.json.gz", problem: "missing" }),
        expect.objectContaining({ path: LATEST, problem: "altered" }),
      ]),
    );
    expect(problems).toHaveLength(2);
    const bad = await cli(["verify", url], {});
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`altered   ${LATEST}`);
    expect(bad.stdout).toContain("missing   v1/banks.json.gz");
  });

  it("fails a manifest re-signed with another key", async () => {
    fresh();
    const keysDir = mkdtempSync(join(tmpdir(), "exrates-other-keys-"));
    const other = await loadPublicationKeys(keysDir);
    writeFileSync(join(copy, SIGNATURE_FILE), await signManifest(readFileSync(join(copy, MANIFEST), "utf8"), other));
    rmSync(keysDir, { recursive: true, force: true });
    const { problems } = await verifyUrl(url);
    expect(problems).toEqual([expect.objectContaining({ path: MANIFEST, problem: "signature" })]);
  });

  it("says what it is not: no manifest there, and a host that cannot be reached", async () => {
    fresh();
    await expect(verifyUrl(`${url}/nowhere`)).rejects.toThrow(/neither a copy of a published tree/);
    await expect(verifyUrl("http://127.0.0.1:1/rates")).rejects.toThrow(
      /http:\/\/127\.0\.0\.1:1\/rates\/manifest\.json: cannot be read/,
    );
    await expect(verifyUrl("ftp://example.com/x")).rejects.toThrow(/only http:\/\/ and https:\/\//);
  });
});

describe("a service serving from a bucket", () => {
  it("serves the bucket's signed generation as published, and it verifies", async () => {
    const s3 = await startS3Server();
    const saved = { ...process.env };
    // The server builds its S3 client from the process's AWS variables, as in production.
    Object.assign(process.env, s3.env);
    const root = mkdtempSync(join(tmpdir(), "exrates-verify-s3-"));
    let bucketServer: InProcessServer | undefined;
    try {
      const config = loadConfig({
        EXRATES_DATA_DIR: join(root, "data"),
        EXRATES_OUT_DIR: join(root, "out"),
        EXRATES_HOST: "127.0.0.1",
        EXRATES_PORT: "0",
        EXRATES_PUBLISH_URL: `s3://${s3.bucket}/verify-http/rates`,
      });
      bucketServer = await startTestServer({ config, publish: false });
      storeRates(bucketServer.store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
      const target = S3TreeTarget.fromUrl(config.publishUrl!, config.outDir, s3.env);
      const signing = await loadPublicationKeys(config.dataDir);
      await publish(bucketServer.store, [AAA], target, { signing });
      await bucketServer.server.refresh();
      const result = await verifyUrl(bucketServer.url, { token: await bucketServer.token() });
      expect(result.problems).toEqual([]);
      expect(result.kid).toBe(signing.active.kid);
      expect(result.generation).toBe(bucketServer.server.tree()?.generation);
    } finally {
      await bucketServer?.stop();
      for (const name of Object.keys(s3.env))
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      await s3.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// `exrates serve` with EXRATES_PUBLISH_URL: the tree loaded from the bucket (s3rver, started here),
// the pointer followed when a publish moves it (fetching only the objects it does not hold yet), a
// missing bucket refused at start; and `exrates publish` through the real binary.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { loadConfig, type Config } from "../../src/config.js";
import { latestPath, publish } from "../support/unsigned.js";
import { ObjectStoreError } from "../../src/publish/s3.js";
import { OBJECTS_PREFIX, S3TreeTarget, manifestKey, readPointer } from "../../src/publish/s3-target.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/database.js";
import { CLI } from "../support/cli.js";
import { storeRates, testBank } from "../support/publish.js";
import { startTestServer } from "../support/server.js";
import { S3_SECRET, startS3Server, type S3TestServer } from "../publish/s3-server.js";

let s3: S3TestServer;
let root: string;
const savedEnv = { ...process.env };
const AAA = testBank("AAA");
const BBB = testBank("BBB");

beforeAll(async () => {
  s3 = await startS3Server();
  // The server builds its S3 client from the process's AWS variables, as in production.
  Object.assign(process.env, s3.env);
  root = mkdtempSync(join(tmpdir(), "exrates-serve-s3-"));
});
afterAll(async () => {
  for (const name of Object.keys(s3?.env ?? {})) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

function configFor(name: string, publishUrl: string): Config {
  return loadConfig({
    EXRATES_DATA_DIR: join(root, name, "data"),
    EXRATES_OUT_DIR: join(root, name, "out"),
    EXRATES_HOST: "127.0.0.1",
    EXRATES_PORT: "0",
    EXRATES_PUBLISH_URL: publishUrl,
  });
}

describe("serve from a bucket", () => {
  it("serves the bucket's generation from memory and follows the pointer, fetching only new objects", async () => {
    const config = configFor("follow", `s3://${s3.bucket}/serve/tree`);
    const store: SqliteStore = await openSqliteStore(config.databasePath);
    const target = S3TreeTarget.fromUrl(config.publishUrl!, config.outDir, s3.env);
    storeRates(store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
    storeRates(store, "BBB", [{ effectiveDate: "2026-03-03", currency: "USD", rate: "1.0850" }]);
    const first = await publish(store, [AAA, BBB], target);
    const server = await startTestServer({ config, store, publish: false, server: { pollMs: 50 } });
    try {
      const token = await server.token();
      const get = (path: string) => fetch(`${server.url}/${path}`, { headers: { authorization: `Bearer ${token}` } });

      const csv = await get(latestPath("AAA", "csv"));
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain("AAA,EUR,CZK,2026-03-03,24.180,1");
      const json = await get(latestPath("AAA", "json"));
      const manifest = (await target.current())!.manifest;
      // fetch asks for gzip: the precompressed sibling from the bucket is served, with its own ETag.
      const etag = manifest.files[latestPath("AAA", "json")]!.etag;
      expect(json.headers.get("content-encoding")).toBe("gzip");
      expect(json.headers.get("etag")).toBe(`${etag.slice(0, -1)}-gzip"`);
      expect(Buffer.from(await json.arrayBuffer()).toString()).toMatch(/"rate": 24\.180/);
      // Nothing was read from or written to out/ but the publish lock.
      expect(readdirSync(config.outDir)).toEqual([".publish.lock"]);

      s3.reset();
      storeRates(store, "AAA", [{ effectiveDate: "2026-03-04", currency: "EUR", rate: "24.250" }]);
      const second = await publish(store, [AAA, BBB], target);
      expect((await readPointer(target.store))!.generation).toBe(second.generation);
      expect(second.generation).not.toBe(first.generation);
      // (Up to 30 s: s3rver now and then leaves a read unanswered, which the server drops after 5 s.)
      let body = "";
      for (let i = 0; i < 600 && !body.includes("24.250"); i++) {
        await new Promise((r) => setTimeout(r, 50));
        body = await (await get(latestPath("AAA", "csv"))).text();
      }
      expect(body).toContain("AAA,EUR,CZK,2026-03-04,24.250,1");
      expect(await (await get(latestPath("BBB", "csv"))).text()).toContain("1.0850");

      // The objects the server fetched for the new generation are exactly the ones the publish uploaded.
      const objectPath = `/${s3.bucket}/serve/tree/${OBJECTS_PREFIX}`;
      const fetched = s3.requests
        .filter((r) => r.method === "GET" && r.path.startsWith(objectPath))
        .map((r) => r.path.split("?")[0]);
      const uploaded = s3.requests
        .filter((r) => r.method === "PUT" && r.path.startsWith(objectPath))
        .map((r) => r.path.split("?")[0]);
      expect(uploaded.length).toBeGreaterThan(0);
      // (The publisher itself read the previous Latest.json, to tell what the events are.)
      const previousJson = `${objectPath}${manifest.files[latestPath("AAA", "json")]!.sha256}`;
      expect(fetched.filter((p) => p === previousJson)).toHaveLength(1);
      expect([...new Set(fetched.filter((p) => p !== previousJson))].sort()).toEqual(uploaded.sort());
    } finally {
      await server.stop();
      await store.close();
    }
  });

  it("keeps serving the previous generation when the pointer names one it cannot load", async () => {
    const config = configFor("broken", `s3://${s3.bucket}/serve/broken`);
    const store: SqliteStore = await openSqliteStore(config.databasePath);
    const target = S3TreeTarget.fromUrl(config.publishUrl!, config.outDir, s3.env);
    storeRates(store, "AAA", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
    const first = await publish(store, [AAA], target);
    const server = await startTestServer({ config, store, publish: false, server: { pollMs: 50 } });
    try {
      const token = await server.token();
      const csv = () =>
        fetch(`${server.url}/${latestPath("AAA", "csv")}`, { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.text(),
        );
      // A generation whose manifest names an object that is not there (removed, or never uploaded).
      const manifest = structuredClone((await target.current())!.manifest);
      manifest.generation = `${first.generation}-broken`;
      manifest.files[latestPath("AAA", "csv")]!.sha256 = "0".repeat(64);
      await target.store.put(manifestKey(manifest.generation), JSON.stringify(manifest), "application/json");
      s3.reset();
      await target.switchTo(manifest.generation);
      for (let i = 0; i < 200 && !s3.requests.some((r) => r.path.includes("0".repeat(64))); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(s3.requests.some((r) => r.path.includes("0".repeat(64)))).toBe(true);
      expect(await csv()).toContain("AAA,EUR,CZK,2026-03-03,24.180,1");
      // The next good publish is followed.
      storeRates(store, "AAA", [{ effectiveDate: "2026-03-04", currency: "EUR", rate: "24.250" }]);
      await publish(store, [AAA], target);
      let body = "";
      for (let i = 0; i < 200 && !body.includes("24.250"); i++) {
        await new Promise((r) => setTimeout(r, 50));
        body = await csv();
      }
      expect(body).toContain("AAA,EUR,CZK,2026-03-04,24.250,1");
    } finally {
      await server.stop();
      await store.close();
    }
  });

  it("refuses to start on a missing bucket, naming it and the store's code", async () => {
    const config = configFor("missing", "s3://no-such-bucket/tree");
    const store = await openSqliteStore(config.databasePath);
    try {
      const failure = await startTestServer({ config, store, publish: false }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ObjectStoreError);
      expect((failure as Error).message).toBe(
        "GET s3://no-such-bucket/tree/current.json failed: NoSuchBucket (HTTP 404); the bucket does not exist: create it, or fix EXRATES_PUBLISH_URL",
      );
    } finally {
      await store.close();
    }
  });
});

/** The real binary, without blocking this process (s3rver answers from here). */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LOG_LEVEL: "warn", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("exrates publish with EXRATES_PUBLISH_URL", () => {
  it("publishes the stored rates to the bucket", async () => {
    const config = configFor("cli", `s3://${s3.bucket}/cli`);
    const store = await openSqliteStore(config.databasePath);
    storeRates(store, "CNB", [{ effectiveDate: "2026-03-03", currency: "EUR", rate: "24.180" }]);
    await store.close();
    const env = {
      EXRATES_DATA_DIR: config.dataDir,
      EXRATES_OUT_DIR: config.outDir,
      EXRATES_PUBLISH_URL: config.publishUrl!,
    };
    const run = await runCli(["publish", "CNB"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const generation = /published generation (\S+): 1 rendered \(CNB\)/.exec(run.stdout)?.[1];
    expect(generation).toBeDefined();
    const target = S3TreeTarget.fromUrl(config.publishUrl!, config.outDir, s3.env);
    expect((await readPointer(target.store))!.generation).toBe(generation);
    expect(await (await target.current())!.readText(latestPath("CNB", "csv"))).toContain(
      "CNB,EUR,CZK,2026-03-03,24.180,1",
    );
  });

  it("a malformed URL or a missing bucket: one clear line, exit 1, no secret", async () => {
    const bad = await runCli(["publish"], { EXRATES_PUBLISH_URL: "s3:/nope", EXRATES_DATA_DIR: join(root, "bad") });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('exrates: EXRATES_PUBLISH_URL "s3:/nope" is not an s3://bucket/prefix URL\n');
    const missing = await runCli(["publish"], {
      EXRATES_PUBLISH_URL: "s3://no-such-bucket/tree",
      EXRATES_DATA_DIR: join(root, "missing-cli", "data"),
      EXRATES_OUT_DIR: join(root, "missing-cli", "out"),
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "exrates: GET s3://no-such-bucket/tree/current.json failed: NoSuchBucket (HTTP 404); the bucket does not exist: create it, or fix EXRATES_PUBLISH_URL\n",
    );
    expect(missing.stderr + missing.stdout).not.toContain(S3_SECRET);
  });
});

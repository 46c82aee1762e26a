// Serving from a bucket vs from disk: authenticated GET of Latest.json through two `exrates serve`
// processes over the same published generation, one reading out/ (the default), the other loading
// it from an S3-compatible bucket (EXRATES_PUBLISH_URL; s3rver, the pure-npm store the tests use, in
// its own process). Both hold the tree in memory, so the figures should match; this checks it.
//
//   npm run build && node bench/latest-s3.mjs
//
// Each server runs pinned to core 1, autocannon to core 0; the two are measured alternately in the
// same run (local, bucket, local, ...). Median of BENCH_RUNS (default 5) runs of BENCH_SECONDS
// (default 8) at 50 connections. The figures are printed and written into BENCHMARKS.md under
// "## Serve from a bucket" (that section only).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { fmt, machine, median, writeSection } from "./lib.mjs";
import { clientToken, freePort, pinned, processes, TASKSET, waitFor } from "./processes.mjs";
import { latestJson, writeTree } from "./tree.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LOAD_BEFORE = loadavg()[0];
const CLI = join(ROOT, "dist/src/cli/main.js");
const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const BUCKET = "exrates-bench";
const PREFIX = "tree";

if (!existsSync(CLI)) {
  console.error("bench/latest-s3.mjs: run `npm run build` first");
  process.exit(1);
}

const SERVER_CORE = 1;
const LOAD_CORE = 0;

const dir = mkdtempSync(join(tmpdir(), "exrates-bench-s3-"));
const outDir = join(dir, "out");
const dataDir = join(dir, "data");
writeTree(outDir);

// ---- processes
const { start, stop } = processes(dir);

const token = (base) => clientToken(base, client);

function autocannon(url, headers, seconds = SECONDS) {
  const args = [AUTOCANNON, "-j", "-c", String(CONNECTIONS), "-d", String(seconds), "-p", "1"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push(url);
  const [cmd, argv] = pinned(LOAD_CORE, [process.execPath, ...args]);
  const r = JSON.parse(
    execFileSync(cmd, argv, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] }),
  );
  if (r.errors > 0 || r.non2xx > 0 || (r["2xx"] ?? 0) === 0)
    throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx of ${r.requests.total}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

// ---- the bucket: s3rver in its own process (DES for its continuation tokens needs OpenSSL's legacy provider)
const s3Port = await freePort();
const s3Script = `
  const S3rver = require(${JSON.stringify(join(ROOT, "node_modules/@20minutes/s3rver"))});
  new S3rver({ address: "127.0.0.1", port: ${s3Port}, silent: true, directory: ${JSON.stringify(join(dir, "s3"))},
    configureBuckets: [{ name: ${JSON.stringify(BUCKET)} }], allowMismatchedSignatures: true }).run();`;
const s3 = start(pinned(LOAD_CORE, [process.execPath, "--openssl-legacy-provider", "-e", s3Script]));
const awsEnv = {
  AWS_ENDPOINT_URL: `http://127.0.0.1:${s3Port}`,
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
};
await waitFor(`http://127.0.0.1:${s3Port}/`, { child: s3 });

// Upload the generation writeTree made, in the layout the publisher writes (src/publish/s3-target.ts).
const { ObjectStore } = await import(join(ROOT, "dist/src/publish/s3.js"));
const { POINTER_KEY, manifestKey, objectKey } = await import(join(ROOT, "dist/src/publish/s3-target.js"));
const store = ObjectStore.fromUrl(`s3://${BUCKET}/${PREFIX}`, awsEnv);
const genDir = join(outDir, "current");
const manifest = JSON.parse(readFileSync(join(genDir, "manifest.json"), "utf8"));
for (const [path, file] of Object.entries(manifest.files)) {
  await store.put(objectKey(file), readFileSync(join(genDir, path)), file.contentType);
  for (const encoding of file.encodings) {
    const suffix = encoding === "br" ? ".br" : ".gz";
    await store.put(objectKey(file, encoding), readFileSync(join(genDir, path + suffix)), "application/octet-stream");
  }
}
await store.put(manifestKey(manifest.generation), JSON.stringify(manifest), "application/json");
await store.put(POINTER_KEY, JSON.stringify({ generation: manifest.generation }), "application/json");

// ---- the two servers, on one data directory (one client for both)
const baseEnv = {
  ...process.env,
  EXRATES_DATA_DIR: dataDir,
  EXRATES_OUT_DIR: outDir,
  EXRATES_HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  EXRATES_TOKEN_GRANTS_PER_MINUTE: "0",
};
mkdirSync(dataDir, { recursive: true });
const client = JSON.parse(
  execFileSync(process.execPath, [CLI, "clients", "create", "bench", "--json"], { env: baseEnv, encoding: "utf8" }),
);

async function startServe(extraEnv) {
  const port = await freePort();
  const began = performance.now();
  const child = start(pinned(SERVER_CORE, [process.execPath, CLI, "serve"]), {
    env: { ...baseEnv, ...extraEnv, EXRATES_PORT: String(port) },
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`, { child });
  return { child, base, readyMs: performance.now() - began };
}

const path = "/v1/Banks/CNB/DailyRates/Latest.json";
const disk = await startServe({});
const bucket = await startServe({ ...awsEnv, EXRATES_PUBLISH_URL: `s3://${BUCKET}/${PREFIX}` });

// Both serve the same bytes before anything is measured.
for (const s of [disk, bucket]) {
  const r = await fetch(`${s.base}${path}`, {
    headers: { authorization: `Bearer ${await token(s.base)}`, "accept-encoding": "identity" },
  });
  if (r.status !== 200 || (await r.text()) !== latestJson) throw new Error(`${s.base}${path}: not the published bytes`);
}
// Warm-up (JIT, connection setup) for both.
for (const s of [disk, bucket]) autocannon(`${s.base}${path}`, { authorization: `Bearer ${await token(s.base)}` }, 2);

const results = { disk: [], bucket: [] };
for (let i = 0; i < RUNS; i++) {
  for (const [name, s] of [
    ["disk", disk],
    ["bucket", bucket],
  ]) {
    results[name].push(autocannon(`${s.base}${path}`, { authorization: `Bearer ${await token(s.base)}` }));
  }
  console.error(
    `run ${i + 1}/${RUNS}: disk ${fmt(results.disk.at(-1).rps)} req/s, bucket ${fmt(results.bucket.at(-1).rps)} req/s`,
  );
}
await stop(disk.child);
await stop(bucket.child);
await stop(s3);

const m = (list, key) => median(list.map((r) => r[key]));
const d = { rps: m(results.disk, "rps"), p50: m(results.disk, "p50"), p99: m(results.disk, "p99") };
const b = { rps: m(results.bucket, "rps"), p50: m(results.bucket, "p50"), p99: m(results.bucket, "p99") };
const ratio = b.rps / d.rps;
// Each run's bucket figure against the disk figure measured just before it: steadier than the ratio of
// the medians when other processes share the machine.
const pairRatio = median(results.bucket.map((r, i) => r.rps / results.disk[i].rps));

const section = `## Serve from a bucket

Command: \`npm run build && node bench/latest-s3.mjs\` (autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${RUNS} runs,
the two servers measured alternately in the same run; servers pinned to core ${SERVER_CORE}, load generator and s3rver to core ${LOAD_CORE}${TASKSET ? " with taskset" : " (taskset unavailable: not pinned)"}).
Machine: ${machine()}. Measured ${new Date().toISOString().slice(0, 10)}; 1-minute load average ${fmt(LOAD_BEFORE, 1)} before and
${fmt(loadavg()[0], 1)} after the runs (anything well above 2 means other processes shared the two cores: the absolute
figures are then theirs as much as ours, and only the comparison, measured alternately, says something).

Authenticated \`GET ${path}\` (${Buffer.byteLength(latestJson)} bytes, identity encoding) from one \`exrates serve\` reading
the generation from out/ (the default) and one loading the same generation from an S3-compatible bucket
(\`EXRATES_PUBLISH_URL\`, s3rver on 127.0.0.1). Both answer from memory; the bucket is only read when its
pointer moves. "Ready" is the time from spawning the process to its first \`/readyz\` answer (tree loaded).

| Tree from | req/s | p50 ms | p99 ms | ready ms |
|---|---:|---:|---:|---:|
| out/ (disk) | ${fmt(d.rps)} | ${fmt(d.p50, 2)} | ${fmt(d.p99, 2)} | ${fmt(disk.readyMs)} |
| bucket (S3) | ${fmt(b.rps)} | ${fmt(b.p50, 2)} | ${fmt(b.p99, 2)} | ${fmt(bucket.readyMs)} |

Bucket / disk req/s: ${fmt(ratio, 2)}x (ratio of the medians); ${fmt(pairRatio, 2)}x (median of each run's ratio to the disk
run just before it).
`;

console.log(section);
writeSection(section);
process.exit(0);

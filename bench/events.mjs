// SSE subscribers one server core holds with events delivered under 100 ms at p99.
//   npm run build && node bench/events.mjs [100 500 1000 2000 4000 8000]
// The server runs in a child process (one event loop: one core); this process opens N subscribers to
// /v1/events, records an event in the store every 250 ms (as the publisher does) and measures, for every
// subscriber, the time from the commit to the event's arrival. Prints one JSON line per N.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/src/", import.meta.url));
const { openStore } = await import(`${dist}store/database.js`);
const { recordEvents } = await import(`${dist}store/events.js`);

if (process.argv[2] === "server") {
  const { loadConfig } = await import(`${dist}config.js`);
  const { startServer } = await import(`${dist}serve/server.js`);
  const { createClient } = await import(`${dist}auth/clients.js`);
  const pino = (await import("pino")).default;
  const root = process.argv[3];
  const config = loadConfig({
    EXRATES_DATA_DIR: join(root, "data"),
    EXRATES_OUT_DIR: join(root, "out"),
    EXRATES_HOST: "127.0.0.1",
    EXRATES_PORT: "0",
  });
  const store = await openStore(config.databasePath);
  const client = await createClient(store, { clientId: "bench", scope: config.scope });
  const server = await startServer({
    config,
    store,
    log: pino({ level: "silent" }),
    limits: { maxConnections: 19_000 },
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, issuer: server.issuer, secret: client.clientSecret })}\n`);
  setInterval(() => {
    const cpu = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
  }, 1000);
} else {
  const levels = process.argv.slice(2).map(Number);
  if (levels.length === 0) levels.push(100, 500, 1000, 2000, 4000, 8000);
  const EVENTS = 20;
  const root = mkdtempSync(join(tmpdir(), "exrates-bench-events-"));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "server", root], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let cpuMs = 0;
  const first = await new Promise((resolve) => {
    let buffer = "";
    child.stdout.on("data", (c) => {
      buffer += c.toString();
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (line.url) resolve(line);
        else cpuMs = line.cpuMs;
      }
    });
  });
  const store = await openStore(join(root, "data", "exrates.db"));
  const tokenRes = await fetch(`${first.issuer}/protocol/openid-connect/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "bench",
      client_secret: first.secret,
      scope: "exchange-rates",
    }),
  });
  const { access_token: token } = await tokenRes.json();
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const committedAt = new Map();
  const latencies = [];
  const streams = [];
  let connected = 0;

  function subscribe() {
    return new Promise((resolve, reject) => {
      const req = request(`${first.url}/v1/events`, { agent, headers: { authorization: `Bearer ${token}` } });
      req.on("response", (res) => {
        if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          const now = performance.now();
          for (const m of chunk.matchAll(/^id: (\d+)$/gm)) {
            const at = committedAt.get(Number(m[1]));
            if (at !== undefined) latencies.push(now - at);
          }
        });
        connected++;
        resolve();
      });
      req.on("error", reject);
      req.end();
      streams.push(req);
    });
  }

  const data = (i) => ({
    bankId: "CNB",
    effectiveDate: "2026-04-02",
    publishedAt: new Date().toISOString(),
    currencies: ["EUR", "USD"],
    revision: false,
    latest: {
      json: "/v1/Banks/CNB/DailyRates/Latest.json",
      xml: "/v1/Banks/CNB/DailyRates/Latest.xml",
      csv: "/v1/Banks/CNB/DailyRates/Latest.csv",
      xlsx: `/v1/Banks/CNB/DailyRates/Latest.xlsx#${i}`,
    },
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

  for (const n of levels) {
    while (connected < n) {
      const batch = Math.min(200, n - connected);
      await Promise.all(Array.from({ length: batch }, subscribe));
    }
    await sleep(1000);
    latencies.length = 0;
    const cpuBefore = cpuMs;
    const started = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const [id] = await recordEvents(store, [{ data: data(i), generation: "bench" }]);
      committedAt.set(id, performance.now());
      await sleep(250);
    }
    await sleep(1500);
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const expected = n * EVENTS;
    console.log(
      JSON.stringify({
        subscribers: n,
        events: EVENTS,
        delivered: sorted.length,
        missing: expected - sorted.length,
        p50Ms: Math.round(pct(sorted, 50)),
        p99Ms: Math.round(pct(sorted, 99)),
        maxMs: Math.round(sorted.at(-1)),
        serverCpuPercent: Math.round(((cpuMs - cpuBefore) / 1000 / seconds) * 100),
      }),
    );
  }
  for (const s of streams) s.destroy();
  child.kill("SIGTERM");
  await store.close();
  rmSync(root, { recursive: true, force: true });
  process.exit(0);
}

// A bank that drips its answer (one byte at a time, never idle long enough for the timeout between
// chunks) must not hold a fetch for ever: every fetch has a total deadline, the adapter's or 120 s.
// The dripping server is ours, on 127.0.0.1, and stops by itself: each answer ends after 30 s at most,
// and the server is closed by the test.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpError } from "../../src/errors.js";
import {
  createHttpClient,
  DEFAULT_FETCH_DEADLINE_SECONDS,
  fetchDeadlineOf,
  withDeadline,
} from "../../src/feed/http.js";
import { fetchAndStore } from "../../src/ingest/ingest.js";
import { createLogger } from "../../src/log.js";
import { createScheduler } from "../../src/schedule/daemon.js";
import type { BankAdapter, RateRecord } from "../../src/types.js";
import { testBank } from "../support/publish.js";
import { tempStore } from "../support/store.js";

let server: Server;
let base: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((_req, res) => {
    open.add(res);
    res.writeHead(200, { "content-type": "text/csv" });
    const drip = setInterval(() => res.write("1"), 100);
    const stop = () => {
      clearInterval(drip);
      open.delete(res);
      if (!res.writableEnded) res.end();
    };
    setTimeout(stop, 30_000).unref();
    res.on("close", stop);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("the total deadline of a fetch", () => {
  it("ends a request whose body drips, with one clear error and no retry", async () => {
    const retries: string[] = [];
    const http = createHttpClient({ readTimeoutMs: 5000, onRetry: (i) => retries.push(i.reason) });
    const fetch = withDeadline(http, 1);
    const started = Date.now();
    try {
      const failed = fetch.get(`${base}/drip`);
      await expect(failed).rejects.toBeInstanceOf(HttpError);
      await expect(failed).rejects.toThrow(
        `${base}/drip: no complete answer within the 1 s deadline of one fetch (a server sending slowly or stalled)`,
      );
    } finally {
      fetch.clear();
    }
    expect(Date.now() - started).toBeLessThan(4000);
    expect(retries).toEqual([]);
  });

  it("is the adapter's (fetchDeadlineSeconds), default 120 s, and the failed fetch is recorded", async () => {
    expect(fetchDeadlineOf(testBank("AAA").bank)).toBe(DEFAULT_FETCH_DEADLINE_SECONDS);
    expect(DEFAULT_FETCH_DEADLINE_SECONDS).toBe(120);
    const t = await tempStore();
    try {
      const bank = testBank("AAA", { fetchDeadlineSeconds: 1 });
      const adapter: BankAdapter = {
        ...bank,
        async fetch(_range, ctx) {
          return [await ctx.http.get(`${base}/feed`)];
        },
      };
      const started = Date.now();
      await expect(
        fetchAndStore(
          t.store,
          adapter,
          { kind: "latest" },
          { http: createHttpClient({ readTimeoutMs: 5000 }), env: {} },
        ),
      ).rejects.toThrow(/deadline of one fetch/);
      expect(Date.now() - started).toBeLessThan(4000);
      const failed = t.store.sqlite.prepare("select error from fetches where bank_id = 'AAA'").pluck().all();
      expect(failed).toEqual([expect.stringContaining("no complete answer within the 1 s deadline")]);
    } finally {
      await t.cleanup();
    }
  });

  it("a shutdown ends a fetch at once too", async () => {
    const shutdown = new AbortController();
    const fetch = withDeadline(createHttpClient({ readTimeoutMs: 5000 }), 60, shutdown.signal);
    try {
      const failed = fetch.get(`${base}/drip`);
      setTimeout(() => shutdown.abort(), 300);
      await expect(failed).rejects.toThrow(`${base}/drip: stopped (shutting down)`);
    } finally {
      fetch.clear();
    }
  });
});

describe("a dripping bank in the daemon", () => {
  /** A bank whose feed is at `path` of the test server, read as JSON records. */
  const bankAt = (id: string, path: string): BankAdapter => ({
    ...testBank(id, { fetchDeadlineSeconds: 1 }),
    async fetch(_range, ctx) {
      return [await ctx.http.get(`${base}${path}`)];
    },
    parse: (body: Uint8Array) => JSON.parse(Buffer.from(body).toString()) as RateRecord[],
  });

  it("fails alone at its deadline, and the banks queued behind the dripping ones are still fetched", async () => {
    const t = await tempStore();
    const good: BankAdapter = {
      ...testBank("EEE"),
      fetch: () =>
        Promise.resolve([
          {
            url: "https://eee.example/latest",
            method: "GET" as const,
            status: 200,
            contentType: "application/json",
            body: Buffer.from(JSON.stringify([{ effectiveDate: "2026-11-20", currency: "USD", rate: "1.5" }])),
            startedAt: new Date(),
            finishedAt: new Date(),
          },
        ]),
      parse: (body: Uint8Array) => JSON.parse(Buffer.from(body).toString()) as RateRecord[],
    };
    // Four dripping banks take all four fetch slots; the good bank waits behind them.
    const drippers = ["AAA", "BBB", "CCC", "DDD"].map((id) => bankAt(id, `/${id}`));
    const s = createScheduler({
      store: t.store,
      adapters: [...drippers, good],
      outDir: `${t.dir}/out`,
      log: createLogger("silent", false),
      http: createHttpClient({ readTimeoutMs: 5000, retries: 0 }),
      now: () => new Date("2026-11-23T13:30:00Z"),
      cron: false,
      concurrency: 4,
      publish: () => Promise.resolve(),
    });
    try {
      const started = Date.now();
      const dripping = drippers.map((a) => s.runNow(a.bank.id, "manual", { poll: false }));
      const fetched = s.runNow("EEE", "manual", { poll: false });
      const outcome = await fetched;
      const waited = Date.now() - started;
      // Its answer was fetched and stored (its date is not the one expected by the clock: "gave-up", no poll).
      expect(outcome).toMatchObject({ bankId: "EEE", inserted: 1, newest: "2026-11-20", tries: 1 });
      expect(outcome.state).not.toBe("failed");
      // Without a deadline the good bank would wait for the drips to end (30 s here, for ever in life).
      expect(waited).toBeLessThan(10_000);
      for (const failed of await Promise.all(dripping)) {
        expect(failed.state).toBe("failed");
        expect(failed.message).toContain("no complete answer within the 1 s deadline of one fetch");
      }
    } finally {
      await s.stop(1000);
      await t.cleanup();
    }
  });
});

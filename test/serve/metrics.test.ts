// GET /metrics: Prometheus text from prom-client on its own listener (EXRATES_METRICS_PORT), never on
// the API's port; requests, latency, tokens, the banks' figures from the store and publish duration.
import { createServer, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { timedPublish } from "../../src/metrics.js";
import { MeteredResponse, ServerMetrics } from "../../src/serve/metrics.js";
import { startHarness, type Harness } from "./support.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { EXRATES_METRICS_PORT: "0" } });
  const db = h.store.sqlite;
  const fetch = db.prepare(
    "insert into fetches (bank_id, kind, method, url, started_at, finished_at, error) values (?, 'fetch', 'GET', 'https://x/', ?, ?, ?)",
  );
  const ok = Number(fetch.run("CNB", "2026-04-02T12:30:00.000Z", "2026-04-02T12:31:00.000Z", null).lastInsertRowid);
  fetch.run("CNB", "2026-04-03T12:30:00.000Z", "2026-04-03T12:30:05.000Z", "HTTP 503");
  fetch.run("CNB", "2026-04-03T12:40:00.000Z", "2026-04-03T12:40:05.000Z", "HTTP 503");
  db.prepare(
    "insert into rates (bank_id, effective_date, currency, rate, unit_multiplier, fetch_id, stored_at) values ('CNB', '2026-04-02', 'USD', '20.611', 0, ?, '2026-04-02T12:31:00.000Z')",
  ).run(ok);
  db.prepare(
    "insert into anomalies (bank_id, kind, reason, status, fingerprint, first_seen_at, last_seen_at, fetch_id) values ('CNB', 'jump', 'x', 'held', 'f1', '2026-04-02T12:31:00Z', '2026-04-02T12:31:00Z', ?)",
  ).run(ok);
  await timedPublish(() => Promise.resolve());
});
afterAll(() => h.close());

/** The samples of an exposition: `name{labels}` → value. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    expect(m, line).not.toBeNull();
    samples.set(`${m![1]}${m![2] ?? ""}`, Number(m![3]));
  }
  return samples;
}

async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(h.server.metricsUrl!);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await response.text());
}

describe("GET /metrics", () => {
  it("is on its own listener at 127.0.0.1, and not on the API's port", async () => {
    expect(h.server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(h.server.metricsUrl!).port).not.toBe(new URL(h.url).port);
    expect((await fetch(`${h.url}/metrics`)).status).toBe(404);
    expect((await fetch(new URL("/v1/status", h.server.metricsUrl))).status).toBe(404);
  });

  it("counts requests by route, status and format, their latency, and tokens issued and refused", async () => {
    const before = await scrape();
    const token = await h.token();
    const bad = await fetch(h.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: h.client.id, client_secret: "no" }),
    });
    expect(bad.status).toBe(401);
    const auth = { authorization: `Bearer ${token}` };
    for (const suffix of ["json", "json", "csv"])
      expect((await fetch(`${h.url}/v1/Banks/CNB/DailyRates/Latest.${suffix}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${h.url}/v1/Banks/NOPE/DailyRates/Latest.json`, { headers: auth })).status).toBe(404);
    const after = await scrape();
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta('exrates_http_requests_total{route="latest",status="200",format="json"}')).toBe(2);
    expect(delta('exrates_http_requests_total{route="latest",status="200",format="csv"}')).toBe(1);
    expect(delta('exrates_http_requests_total{route="latest",status="404",format="problem"}')).toBe(1);
    expect(delta('exrates_tokens_total{outcome="issued",status="200"}')).toBe(1);
    expect(delta('exrates_tokens_total{outcome="refused",status="401"}')).toBe(1);
    expect(delta('exrates_http_request_duration_seconds_count{route="latest"}')).toBe(4);
    expect(after.get('exrates_http_request_duration_seconds_bucket{le="+Inf",route="latest"}')).toBe(
      after.get('exrates_http_request_duration_seconds_count{route="latest"}'),
    );
  });

  it("reports each bank's last success, newest date, anomalies held and failed fetches, and publish duration", async () => {
    const m = await scrape();
    expect(m.get('exrates_bank_last_success_timestamp_seconds{bank="CNB"}')).toBe(
      Date.parse("2026-04-02T12:31:00.000Z") / 1000,
    );
    expect(m.get('exrates_bank_newest_date_timestamp_seconds{bank="CNB"}')).toBe(Date.parse("2026-04-02") / 1000);
    expect(m.get('exrates_bank_anomalies_held{bank="CNB"}')).toBe(1);
    expect(m.get('exrates_bank_fetch_failures{bank="CNB"}')).toBe(2);
    expect(m.get("exrates_publish_duration_seconds_count")).toBeGreaterThanOrEqual(1);
  });
});

describe("bank states", () => {
  it("exports each bank's state as a one-hot gauge and how late it is, from the scheduler's status", async () => {
    const rows = [
      { id: "ECB", state: "holiday", lateByMinutes: null },
      { id: "CNB", state: "late", lateByMinutes: 125 },
    ];
    const metrics = new ServerMetrics("/nonexistent/exrates.db", () => Promise.resolve(rows));
    const text = await metrics.text();
    expect(text).toContain('exrates_bank_state{bank="ECB",state="holiday"} 1');
    expect(text).toContain('exrates_bank_state{bank="CNB",state="late"} 1');
    expect(text).toContain('exrates_bank_late_seconds{bank="CNB"} 7500');
    expect(text).toContain('exrates_bank_late_seconds{bank="ECB"} 0');
    rows[1] = { id: "CNB", state: "up to date", lateByMinutes: null };
    const after = await metrics.text();
    expect(after).not.toContain('state="late"');
    expect(after).toContain('exrates_bank_state{bank="CNB",state="up to date"} 1');
  });

  it("counts each answer once: ended while handled, ended later, or cut off by its client first", async () => {
    const metrics = new ServerMetrics("/nonexistent/exrates.db");
    const cutOff: { res?: ServerResponse; closed?: Promise<void> } = {};
    const server = createServer({ ServerResponse: MeteredResponse }, (req, res) => {
      metrics.track(req, res);
      const answer = () => res.writeHead(200, { "content-type": "application/json" }).end("{}");
      if (req.url === "/v1/healthz-later") setTimeout(answer, 20);
      else if (req.url === "/v1/events") {
        // Never ended: counted when its connection closes.
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": open\n\n");
        cutOff.res = res;
        cutOff.closed = new Promise((resolve) => res.on("close", () => setImmediate(resolve)));
      } else answer();
      metrics.settle(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 3; i++) await (await fetch(`${base}/v1/Banks/CNB/DailyRates/Latest`)).text();
      await (await fetch(`${base}/v1/healthz-later`)).text();
      await new Promise<void>((resolve) => {
        const req = request(`${base}/v1/events`, (res) => res.once("data", () => (req.destroy(), resolve())));
        req.end();
      });
      await cutOff.closed;
    } finally {
      server.closeAllConnections();
      server.close();
    }
    const samples = parse(await metrics.text());
    expect(samples.get('exrates_http_requests_total{route="latest",status="200",format="json"}')).toBe(3);
    expect(samples.get('exrates_http_request_duration_seconds_count{route="latest"}')).toBe(3);
    expect(samples.get('exrates_http_requests_total{route="notFound",status="200",format="json"}')).toBe(1);
    expect(samples.get('exrates_http_requests_total{route="events",status="200",format="events"}')).toBe(1);
    expect(samples.get('exrates_http_request_duration_seconds_count{route="events"}')).toBe(1);
  });
});

// `GET /metrics` in the Prometheus text format (prom-client): requests by route, status and format,
// their latency, tokens issued and refused, and per bank (read from the store at each scrape) the
// last successful fetch, the newest stored date, anomalies held and failed fetches, and (under `exrates
// start`) its state and how late it is; the process-wide
// metrics (publish duration, src/metrics.ts) follow. Unauthenticated, so it is served only on its own
// listener (EXRATES_METRICS_PORT, bound to EXRATES_METRICS_HOST, 127.0.0.1 by default), never on the
// API's port: nothing exposes it with the API by accident.
import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import Database from "better-sqlite3";
import { sql } from "kysely";
import { Counter, Gauge, Registry, type Metric } from "prom-client";

import type { Logger } from "../log.js";
import { processRegistry } from "../metrics.js";
import type { Store } from "../store/database.js";
import { routeLabel as labelOf } from "./routes.js";

type Row = { bank_id: string; v: string | number | null };
type RequestLabels = { route: string; status: string; format: string };

/** The format of an answer, from its content type (a label with few values). */
function formatOf(type: string): string {
  if (type.startsWith("application/problem+json")) return "problem";
  if (type.startsWith("application/json")) return "json";
  if (type.includes("xml")) return "xml";
  if (type.startsWith("text/csv")) return "csv";
  if (type.includes("spreadsheetml")) return "xlsx";
  if (type.startsWith("text/html")) return "html";
  if (type.startsWith("text/event-stream")) return "events";
  return type === "" ? "none" : "other";
}

/** Route labels by request target (the router parsed it already; most targets come again and again). */
const ROUTE_LABELS_KEPT = 1024;

/**
 * The server's response class (createServer's ServerResponse option): it notes when the request
 * arrived and the content type its answer declares. Answers set their headers in writeHead, where
 * getHeader cannot see them; a writeHead wrapped per request cost a bound function and two closures for
 * every request, and ~15% of Latest's throughput (BENCHMARKS.md, Serve).
 */
export class MeteredResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  startedAt = performance.now();
  contentType = "";
  metrics: ServerMetrics | undefined;
  /** Counted already (at its end, or when its connection closed first). */
  counted = false;

  /**
   * The answer is counted when it is ended: an answer ended while its request was being handled (Latest's)
   * needs no 'close' listener (ServerMetrics.settle adds one to the others).
   */
  override end(...args: unknown[]): this {
    (super.end as (...a: unknown[]) => this).apply(this, args);
    if (!this.counted && this.metrics) {
      this.counted = true;
      this.metrics.count(this);
    }
    return this;
  }

  override writeHead(statusCode: number, reasonOrHeaders?: unknown, headers?: unknown): this {
    const given = headers ?? reasonOrHeaders;
    if (given !== null && typeof given === "object" && !Array.isArray(given)) {
      const type = (given as Record<string, unknown>)["content-type"];
      if (typeof type === "string") this.contentType = type;
    }
    return (super.writeHead as (status: number, reason?: unknown, headers?: unknown) => this)(
      statusCode,
      reasonOrHeaders,
      headers,
    );
  }
}

function countResponse(this: MeteredResponse): void {
  if (this.counted) return;
  this.counted = true;
  this.metrics?.count(this);
}

export class ServerMetrics {
  readonly registry = new Registry();
  // Requests are counted here and handed to prom-client when it is scraped (its inc hashes the label
  // object at every call); the label sets are few (routes x statuses x formats).
  private readonly pendingRequests = new Map<string, { labels: RequestLabels; n: number }>();
  private readonly requests = new Counter({
    name: "exrates_http_requests_total",
    help: "HTTP requests answered, by route, status and format",
    labelNames: ["route", "status", "format"] as const,
    registers: [this.registry],
    collect: () => {
      for (const pending of this.pendingRequests.values()) {
        if (pending.n > 0) this.requests.inc(pending.labels, pending.n);
        pending.n = 0;
      }
    },
  });
  private lastPending:
    { route: string; status: number; format: string; counter: { labels: RequestLabels; n: number } } | undefined;
  private readonly routeLabels = new Map<string, string>();
  private readonly formats = new Map<string, string>();
  // Latency is counted into plain bucket arrays per route and read by prom-client at scrape time:
  // its Histogram hashes the label object at every observation.
  private readonly latency = new LatencyHistogram(
    "exrates_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, in seconds, by route",
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  private readonly tokens = new Counter({
    name: "exrates_tokens_total",
    help: "Token requests of the embedded SSO: issued, or refused (by status)",
    labelNames: ["outcome", "status"] as const,
    registers: [this.registry],
  });
  private readonly lastSuccess = this.bankGauge(
    "exrates_bank_last_success_timestamp_seconds",
    "When the newest successful fetch of the bank finished (Unix seconds)",
  );
  private readonly newestDate = this.bankGauge(
    "exrates_bank_newest_date_timestamp_seconds",
    "The bank's newest stored effective date, as midnight UTC of that date (Unix seconds)",
  );
  private readonly held = this.bankGauge("exrates_bank_anomalies_held", "Rows and figures held at ingest, unreleased");
  private readonly failures = this.bankGauge("exrates_bank_fetch_failures", "Failed fetches of the bank on record");
  private readonly bankState = new Gauge({
    name: "exrates_bank_state",
    help: "1 for the bank's state (up to date, holiday, waiting, late, failing, stale...), from the scheduler's status",
    labelNames: ["bank", "state"] as const,
    registers: [this.registry],
  });
  private readonly lateSeconds = this.bankGauge(
    "exrates_bank_late_seconds",
    "How long past its time (and its usual allowance) the bank's expected publication is; 0 when not late",
  );
  private db: Database.Database | undefined;

  /**
   * A SQLite file (opened read-only on first use), or a shared PostgreSQL store to read through; and
   * the scheduler's status rows, when this process runs one (`exrates start`).
   */
  constructor(
    private readonly source: string | Store,
    private readonly status?: () => Promise<unknown[]>,
  ) {
    this.registry.registerMetric(this.latency as unknown as Metric);
  }

  private bankGauge(name: string, help: string): Gauge<"bank"> {
    return new Gauge({ name, help, labelNames: ["bank"] as const, registers: [this.registry] });
  }

  /**
   * Counts a request once its answer has ended or its connection closed: call `settle` once the
   * request's handler has returned.
   */
  track(req: IncomingMessage, res: ServerResponse): void {
    const metered = res as MeteredResponse;
    metered.metrics = this;
    if (!(res instanceof MeteredResponse)) {
      metered.startedAt = performance.now();
      res.on("close", countResponse);
    }
  }

  /**
   * After the handler's synchronous part: an answer not ended yet is counted when it ends (MeteredResponse)
   * or when its connection closes first. One listener function for every response (no closure per request).
   */
  settle(res: ServerResponse): void {
    if (res instanceof MeteredResponse && !res.counted) res.on("close", countResponse);
  }

  /** The request's labels: children looked up by one string key (prom-client would hash a label object). */
  count(res: MeteredResponse): void {
    const req = res.req;
    const routeLabel = this.routeLabel(req.url ?? "/");
    const status = res.statusCode;
    const format = this.formatOf(res.contentType || String(res.getHeader("content-type") ?? ""));
    this.pending(routeLabel, status, format).n++;
    this.latency.observe(routeLabel, (performance.now() - res.startedAt) / 1000);
    if (routeLabel === "token" && req.method === "POST")
      this.tokens.inc({ outcome: status === 200 ? "issued" : "refused", status: String(status) });
  }

  /** The counter of a label set; the last one used is at hand (most requests are the same request). */
  private pending(route: string, status: number, format: string): { labels: RequestLabels; n: number } {
    const last = this.lastPending;
    if (last && last.route === route && last.status === status && last.format === format) return last.counter;
    const key = `${route} ${status} ${format}`;
    let counter = this.pendingRequests.get(key);
    if (!counter)
      this.pendingRequests.set(key, (counter = { labels: { route, status: String(status), format }, n: 0 }));
    this.lastPending = { route, status, format, counter };
    return counter;
  }

  /** formatOf, remembered by content type (the published answers' types are a few strings). */
  private formatOf(type: string): string {
    let format = this.formats.get(type);
    if (format === undefined) {
      if (this.formats.size >= ROUTE_LABELS_KEPT) this.formats.clear();
      this.formats.set(type, (format = formatOf(type)));
    }
    return format;
  }

  private routeLabel(url: string): string {
    let label = this.routeLabels.get(url);
    if (label === undefined) {
      if (this.routeLabels.size >= ROUTE_LABELS_KEPT) this.routeLabels.clear();
      this.routeLabels.set(url, (label = labelOf(url)));
    }
    return label;
  }

  /** The exposition text: this server's metrics, the banks' from the store, the process's. */
  async text(): Promise<string> {
    await this.readBanks();
    await this.readStates();
    return `${await this.registry.metrics()}\n${await processRegistry.metrics()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async readBanks(): Promise<void> {
    const shared = typeof this.source === "string" ? undefined : this.source;
    const db = shared ? undefined : this.open();
    if (!shared && !db) return;
    const read = async (query: string): Promise<Row[]> =>
      shared ? (await sql<Row>`${sql.raw(query)}`.execute(shared.db)).rows : (db!.prepare(query).all() as Row[]);
    const set = async (gauge: Gauge<"bank">, query: string, value: (v: string | number) => number) => {
      const rows = await read(query);
      gauge.reset();
      for (const r of rows) if (r.v !== null) gauge.set({ bank: r.bank_id }, value(r.v));
    };
    const seconds = (v: string | number) => Date.parse(String(v)) / 1000;
    try {
      await set(
        this.lastSuccess,
        "select bank_id, max(finished_at) as v from fetches where error is null group by bank_id",
        seconds,
      );
      await set(this.newestDate, "select bank_id, max(effective_date) as v from rates group by bank_id", (v) =>
        seconds(`${String(v)}T00:00:00Z`),
      );
      await set(this.held, "select bank_id, count(*) as v from anomalies where status = 'held' group by bank_id", (v) =>
        Number(v),
      );
      await set(
        this.failures,
        "select bank_id, count(*) as v from fetches where error is not null group by bank_id",
        (v) => Number(v),
      );
    } catch {
      // A store mid-migration or gone: the banks' series are left out of this scrape.
      this.close();
    }
  }

  /** Each bank's state as a one-hot gauge, and how late it is. */
  private async readStates(): Promise<void> {
    if (!this.status) return;
    const rows = (await this.status().catch(() => [])) as Array<{
      id: string;
      state: string;
      lateByMinutes?: number | null;
    }>;
    this.bankState.reset();
    this.lateSeconds.reset();
    for (const row of rows) {
      this.bankState.set({ bank: row.id, state: row.state }, 1);
      this.lateSeconds.set({ bank: row.id }, (row.lateByMinutes ?? 0) * 60);
    }
  }

  private open(): Database.Database | undefined {
    if (this.db || typeof this.source !== "string") return this.db;
    try {
      this.db = new Database(this.source, { readonly: true, fileMustExist: true });
      this.db.pragma("busy_timeout = 1000");
    } catch {
      this.db = undefined;
    }
    return this.db;
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }
}

/** The metrics listener: `GET /metrics` only, on its own address and port. */
export async function startMetricsServer(
  metrics: ServerMetrics,
  host: string,
  port: number,
  log: Logger,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Only /metrics is served here\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: Error) => {
        log.error({ err: error.message }, "metrics failed");
        res.writeHead(500).end();
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}/metrics`;
  log.info({ url }, "metrics served");
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A sample as prom-client's registry writes it: `metricName{labels} value`. */
interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One route's observations: counts per bucket (not cumulative; the last is +Inf), their sum and count. */
interface RouteLatency {
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram by route, read by prom-client's registry as a custom metric (`get`): the same series and
 * text as prom-client's Histogram with a `route` label, at the cost of a bucket search and three
 * additions per observation.
 */
export class LatencyHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly routes = new Map<string, RouteLatency>();
  /** The route observed last and its buckets (most requests are the same request). */
  private lastRoute: string | undefined;
  private lastLatency: RouteLatency | undefined;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  observe(route: string, seconds: number): void {
    let latency = route === this.lastRoute ? this.lastLatency : this.routes.get(route);
    if (!latency) {
      latency = { buckets: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
      this.routes.set(route, latency);
    }
    this.lastRoute = route;
    this.lastLatency = latency;
    const bounds = this.upperBounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    latency.buckets[i]!++;
    latency.sum += seconds;
    latency.count++;
  }

  get(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: string }> {
    const values: ExportedValue[] = [];
    for (const [route, latency] of this.routes) {
      let cumulative = 0;
      for (let i = 0; i <= this.upperBounds.length; i++) {
        cumulative += latency.buckets[i]!;
        const le = i < this.upperBounds.length ? this.upperBounds[i]! : "+Inf";
        values.push({ metricName: `${this.name}_bucket`, labels: { le, route }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: { route }, value: latency.sum });
      values.push({ metricName: `${this.name}_count`, labels: { route }, value: latency.count });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }

  reset(): void {
    this.routes.clear();
    this.lastRoute = undefined;
    this.lastLatency = undefined;
  }
}

// `GET /metrics` in the Prometheus text format (prom-client): requests by route, status and format,
// their latency, tokens issued and refused, and per bank (read from the store at each scrape) the
// last successful fetch, the newest stored date, anomalies held and failed fetches, and (under `exrates
// start`) its state and how late it is; the process-wide
// metrics (publish duration, src/metrics.ts) follow. Unauthenticated, so it is served only on its own
// listener (EXRATES_METRICS_PORT, bound to EXRATES_METRICS_HOST, 127.0.0.1 by default), never on the
// API's port: nothing exposes it with the API by accident. This module counts, per request, in plain
// maps; the exposition (prom-client, the store's figures, the listener) is src/serve/metrics-export.ts,
// imported at the first scrape.
import { ServerResponse, type IncomingMessage } from "node:http";

import type { Store } from "../store/database.js";
import type { Counts, MetricsExporter, Pending } from "./metrics-export.js";
import { routeLabel as labelOf } from "./routes.js";

export type RequestLabels = { route: string; status: string; format: string };

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
  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    // Three named arguments, not a rest array applied: this runs for every answer (node:http's end takes
    // undefined for the ones not given).
    (super.end as (c: unknown, e: unknown, cb: unknown) => this).call(this, chunk, encoding, callback);
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

/**
 * What the server counts per request, in plain maps and arrays; prom-client (src/serve/metrics-export.ts,
 * imported at the first scrape, or never when no metrics listener is configured) reads them when scraped.
 */
export class ServerMetrics implements Counts {
  // Requests are counted here and handed to prom-client when it is scraped (its inc hashes the label
  // object at every call); the label sets are few (routes x statuses x formats).
  readonly pendingRequests = new Map<string, Pending<RequestLabels>>();
  /** Token requests by outcome and status, handed over the same way. */
  readonly pendingTokens = new Map<string, Pending<{ outcome: string; status: string }>>();
  private lastPending: { route: string; status: number; format: string; counter: Pending<RequestLabels> } | undefined;
  private readonly routeLabels = new Map<string, string>();
  private readonly formats = new Map<string, string>();
  // Latency is counted into plain bucket arrays per route and read by prom-client at scrape time:
  // its Histogram hashes the label object at every observation.
  readonly latency = new LatencyHistogram(
    "exrates_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, in seconds, by route",
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  private exporter: Promise<MetricsExporter> | undefined;

  /**
   * A SQLite file (opened read-only on first use), or a shared PostgreSQL store to read through; and
   * the scheduler's status rows, when this process runs one (`exrates start`).
   */
  constructor(
    readonly source: string | Store,
    readonly status?: () => Promise<unknown[]>,
  ) {}

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
    if (routeLabel === "token" && req.method === "POST") this.countToken(status);
  }

  /** The counter of a label set; the last one used is at hand (most requests are the same request). */
  private pending(route: string, status: number, format: string): Pending<RequestLabels> {
    const last = this.lastPending;
    if (last && last.route === route && last.status === status && last.format === format) return last.counter;
    const key = `${route} ${status} ${format}`;
    let counter = this.pendingRequests.get(key);
    if (!counter)
      this.pendingRequests.set(key, (counter = { labels: { route, status: String(status), format }, n: 0 }));
    this.lastPending = { route, status, format, counter };
    return counter;
  }

  private countToken(status: number): void {
    const outcome = status === 200 ? "issued" : "refused";
    const key = `${outcome} ${status}`;
    const pending = this.pendingTokens.get(key);
    if (pending) pending.n++;
    else this.pendingTokens.set(key, { labels: { outcome, status: String(status) }, n: 1 });
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
    return (await this.exported()).text();
  }

  /** prom-client's side, imported at the first scrape. */
  exported(): Promise<MetricsExporter> {
    return (this.exporter ??= import("./metrics-export.js").then(
      (m) => new m.MetricsExporter(this),
      (error: unknown) => {
        this.exporter = undefined;
        throw error;
      },
    ));
  }

  close(): void {
    void this.exporter?.then((e) => e.close());
  }
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

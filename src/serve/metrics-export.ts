// The exposition of `GET /metrics` (prom-client), imported at the first scrape: a server whose metrics
// are never scraped (no EXRATES_METRICS_PORT) does not load prom-client. The counts are ServerMetrics'
// (src/serve/metrics.ts), handed to prom-client's counters when scraped; the banks' figures are read
// from the store at each scrape; the process-wide metrics (src/metrics.ts) follow.
import { createServer, type Server } from "node:http";

import Database from "better-sqlite3";
import { sql } from "../store/kysely.js";
import { Counter, Gauge, Registry, type Metric } from "prom-client";

import type { Logger } from "../log.js";
import { processRegistry } from "../metrics.js";
import type { Store } from "../store/database.js";
import { boundAddress, closing, listening } from "./http/bind.js";

type Row = { bank_id: string; v: string | number | null };

/** A label set's count since the last scrape. */
export interface Pending<Labels> {
  labels: Labels;
  n: number;
}

/** What the server counted (ServerMetrics, src/serve/metrics.ts) and where the banks' figures are read. */
export interface Counts {
  readonly pendingRequests: Map<string, Pending<{ route: string; status: string; format: string }>>;
  readonly pendingTokens: Map<string, Pending<{ outcome: string; status: string }>>;
  /** A histogram read by prom-client's registry as a custom metric. */
  readonly latency: object;
  /** A SQLite file, or a shared PostgreSQL store. */
  readonly source: string | Store;
  readonly status?: () => Promise<unknown[]>;
  /** This module's exporter for these counts (made once). */
  exported(): Promise<MetricsExporter>;
}

/** Counts since the last scrape, added to prom-client's counter (few label sets: no hashing per request). */
function handOver<L extends string>(pending: Map<string, Pending<Record<L, string>>>, counter: Counter<L>): void {
  for (const p of pending.values()) {
    if (p.n > 0) counter.inc(p.labels, p.n);
    p.n = 0;
  }
}

/** The exposition of a server's metrics: prom-client's registry over ServerMetrics' counts and the store's figures. */
export class MetricsExporter {
  readonly registry = new Registry();
  private readonly requests: Counter<"route" | "status" | "format"> = new Counter({
    name: "exrates_http_requests_total",
    help: "HTTP requests answered, by route, status and format",
    labelNames: ["route", "status", "format"] as const,
    registers: [this.registry],
    collect: () => handOver(this.metrics.pendingRequests, this.requests),
  });
  private readonly tokens: Counter<"outcome" | "status"> = new Counter({
    name: "exrates_tokens_total",
    help: "Token requests of the embedded SSO: issued, or refused (by status)",
    labelNames: ["outcome", "status"] as const,
    registers: [this.registry],
    collect: () => handOver(this.metrics.pendingTokens, this.tokens),
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
  private readonly source: string | Store;
  private readonly status?: () => Promise<unknown[]>;

  constructor(private readonly metrics: Counts) {
    this.source = metrics.source;
    this.status = metrics.status;
    this.registry.registerMetric(metrics.latency as unknown as Metric);
  }

  private bankGauge(name: string, help: string): Gauge<"bank"> {
    return new Gauge({ name, help, labelNames: ["bank"] as const, registers: [this.registry] });
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
  metrics: Counts,
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
    metrics.exported().then(
      async (exporter) => {
        const text = await exporter.text();
        res.writeHead(200, { "content-type": exporter.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: Error) => {
        log.error({ err: error.message }, "metrics failed");
        res.writeHead(500).end();
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await listening(server, port, host);
  const url = `${boundAddress(server).url}/metrics`;
  log.info({ url }, "metrics served");
  return { url, server, close: () => closing(server) };
}

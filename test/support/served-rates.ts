// A real `exrates serve` for the client and MCP tests (test/client, test/mcp): CNB-shaped rates imported and published by the
// built CLI (`exrates import`, `exrates publish`), a client made by `exrates clients create`, the server
// on a fixed free port (so a restart keeps its URL) with its metrics port (grants are counted there).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { addDays, weekday } from "../../src/feed/dates.js";
import { cli, finished, spawnCli, waitFor } from "../e2e/support.js";

/** The rates of one date, as the feed gives them (and as they must come back, digit for digit). */
export function ratesOf(date: string): Array<{ currency: string; amount: number; rate: string }> {
  const [, mm, dd] = date.split("-") as [string, string, string];
  return [
    // A trailing zero a double would lose, and a rate beyond a double's digits.
    { currency: "EUR", amount: 1, rate: `24.${dd}0` },
    { currency: "JPY", amount: 100, rate: `13.${date.slice(2, 4)}${dd}3` },
    { currency: "USD", amount: 1, rate: `20.${mm}${dd}1` },
    { currency: "XDR", amount: 1, rate: `29.${dd}34567890123456789` },
  ];
}

/** Every weekday from `from` to `to`. */
export function weekdays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) if (weekday(d) <= 5) out.push(d);
  return out;
}

/** A CNB `daily-year` answer holding these dates. */
export function cnbAnswer(dates: string[]): string {
  const rows = dates.flatMap((d) =>
    ratesOf(d).map((r) => `{"validFor":"${d}","currencyCode":"${r.currency}","amount":${r.amount},"rate":${r.rate}}`),
  );
  return `{"rates":[${rows.join(",")}]}`;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface ServedRates {
  root: string;
  env: Record<string, string>;
  url: string;
  metricsUrl: string;
  clientId: string;
  clientSecret: string;
  /** The published file, as on disk (`v1/Banks/CNB/DailyRates/Latest.json`...). */
  published(path: string): Buffer;
  /** Imports these dates of CNB and publishes (an event for a newer date). */
  addDates(dates: string[]): Promise<void>;
  /** `exrates <args>` against the same data. */
  run(args: string[]): ReturnType<typeof cli>;
  /** A bearer token of the client (the client-credentials grant, scope exchange-rates). */
  token(): Promise<string>;
  /** A metric's value, summed over the series whose labels include `labels`. */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  /** Server output so far (no secret may appear there). */
  output(): string;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  close(): Promise<void>;
}

export async function serveRates(dates: string[]): Promise<ServedRates> {
  const root = mkdtempSync(join(tmpdir(), "exrates-client-"));
  const port = await freePort();
  const metricsPort = await freePort();
  const env = {
    EXRATES_DATA_DIR: join(root, "data"),
    EXRATES_OUT_DIR: join(root, "out"),
    EXRATES_HOST: "127.0.0.1",
    EXRATES_PORT: String(port),
    EXRATES_METRICS_PORT: String(metricsPort),
  };
  let feeds = 0;
  const addDates = async (add: string[]) => {
    const file = join(root, `cnb-${feeds++}.json`);
    writeFileSync(file, cnbAnswer(add));
    const imported = await cli(["import", "CNB", file], env);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
    const published = await cli(["publish"], env);
    if (published.code !== 0) throw new Error(`publish failed: ${published.stderr}`);
  };
  await addDates(dates);
  const created = await cli(["clients", "create", "erp", "--json"], env);
  if (created.code !== 0) throw new Error(`clients create failed: ${created.stderr}`);
  const { client_id: clientId, client_secret: clientSecret } = JSON.parse(created.stdout) as Record<string, string>;

  let server: ReturnType<typeof spawnCli> | undefined;
  let log = "";
  const startServer = async () => {
    server = spawnCli(["serve"], env);
    await waitFor(server, (o) => o.stdout.includes("exrates serving on "), 60_000);
  };
  const stopServer = async () => {
    if (!server) return;
    const s = server;
    server = undefined;
    if (s.exitCode === null) process.kill(s.pid!, "SIGTERM");
    await finished(s, 15_000);
    log += s.out.stdout + s.out.stderr;
  };
  await startServer();
  return {
    root,
    env,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    clientId: clientId!,
    clientSecret: clientSecret!,
    published: (path) => readFileSync(join(env.EXRATES_OUT_DIR, "current", path)),
    addDates,
    run: (args) => cli(args, env),
    async token() {
      const answer = await fetch(`http://127.0.0.1:${port}/auth/realms/exrates/protocol/openid-connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: clientId!,
          client_secret: clientSecret!,
          scope: "exchange-rates",
        }),
      });
      if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
      return ((await answer.json()) as { access_token: string }).access_token;
    },
    async metric(name, labels = {}) {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      let sum = 0;
      for (const line of text.split("\n")) {
        const m = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
        if (!m || m[1] !== name) continue;
        const have = new Map([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
        if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) sum += Number(m[3]);
      }
      return sum;
    },
    output: () => log + (server ? server.out.stdout + server.out.stderr : ""),
    stopServer,
    startServer,
    async close() {
      await stopServer();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

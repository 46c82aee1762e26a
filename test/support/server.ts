// A real exrates server for a test, started one of two ways and handed back the same way: its base
// URL, a client with the API's scope (id and secret), tokens, and a stop.
//
//   startTestServer()  the server in this process (startServer) over a store: a fresh SQLite store
//                      by default, or one given (a PostgreSQL store of test/support/postgres.ts), and a
//                      small published tree (test/support/tree.ts) unless told otherwise.
//   testSite()         a temporary installation for end-to-end tests: its directories and environment,
//                      the feed mirror over the recordings when asked, the built CLI (`site.cli`), and
//                      `exrates serve` / `exrates start` as child processes (`site.serve`, `site.start`),
//                      each stopped by its process id (and any left running by `site.close`).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pino from "pino";

import { createClient } from "../../src/auth/clients.js";
import { loadConfig, type Config } from "../../src/config.js";
import { startServer, type RunningServer, type ServerOptions } from "../../src/serve/server.js";
import { openSqliteStore, type SqliteStore, type Store } from "../../src/store/database.js";
import { cli, finished, spawnCli, waitFor, type CliChild, type CliResult } from "./cli.js";
import { startMirror, type Mirror } from "./mirror.js";
import { publishGeneration } from "./tree.js";

export const silentLog = pino({ level: "silent" });

const REALM_TOKEN_PATH = "/auth/realms/exrates/protocol/openid-connect/token";

/** What every test server hands back. */
export interface TestServer {
  /** The base URL, http://127.0.0.1:<port>. */
  url: string;
  /** The token endpoint the client asks. */
  tokenUrl: string;
  /** A client with the API's scope; undefined when the test made none. */
  client: { id: string; secret: string } | undefined;
  /** A token of the client (or of the id and secret given); throws on any answer but 200. */
  token(clientId?: string, secret?: string, scope?: string): Promise<string>;
  /** Stops the server (a child process: by its pid, SIGTERM) and removes what the helper made. */
  stop(): Promise<unknown>;
}

/** The client credentials grant of a token endpoint. */
export async function requestToken(tokenUrl: string, clientId: string, secret: string, scope = "exchange-rates") {
  const response = await fetch(tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token)
    throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

function tokens(tokenUrl: string, client: TestServer["client"], scope: string): TestServer["token"] {
  return (clientId = client?.id, secret = client?.secret, asked = scope) => {
    if (clientId === undefined || secret === undefined) throw new Error("this test server has no client");
    return requestToken(tokenUrl, clientId, secret, asked);
  };
}

// ---------------------------------------------------------------- in this process

export interface InProcessServer<S extends Store = SqliteStore> extends TestServer {
  client: { id: string; secret: string };
  /** The temporary directory of the data and the tree (removed by stop). */
  root: string;
  config: Config;
  store: S;
  server: RunningServer;
  /** The issuer of the server's tokens. */
  issuer: string;
  stop(): Promise<void>;
}

export interface InProcessOptions<S extends Store = SqliteStore> {
  /** Configuration variables beside the defaults (the temporary directories, 127.0.0.1, port 0). */
  env?: Record<string, string>;
  /** The whole configuration instead (its directories are the caller's). */
  config?: Config;
  /** The store to serve (kept open by stop); default a SQLite store in the temporary directory (closed by stop). */
  store?: S;
  /** Publish a small tree before the server starts: of these banks, or (default) CNB and ECB; false: none. */
  publish?: boolean | Array<{ id: string; date: string; rate?: string }>;
  /** The id of the client made for the test (default "erp"). */
  clientId?: string;
  /** startServer's other options. */
  server?: Partial<ServerOptions>;
}

/** startServer over a store and a published tree, with a client; stop() closes and removes what it made. */
export async function startTestServer<S extends Store = SqliteStore>(
  options: InProcessOptions<S> = {},
): Promise<InProcessServer<S>> {
  const root = mkdtempSync(join(tmpdir(), "exrates-serve-"));
  let config =
    options.config ??
    loadConfig({
      EXRATES_DATA_DIR: join(root, "data"),
      EXRATES_OUT_DIR: join(root, "out"),
      EXRATES_HOST: "127.0.0.1",
      EXRATES_PORT: "0",
      ...options.env,
    });
  if (!options.config) mkdirSync(config.outDir, { recursive: true });
  if (options.publish !== false)
    publishGeneration(
      config.outDir,
      "20260402T123100000Z-1",
      Array.isArray(options.publish)
        ? options.publish
        : [
            { id: "CNB", date: "2026-04-02" },
            { id: "ECB", date: "2026-04-01" },
          ],
    );
  const store = options.store ?? ((await openSqliteStore(config.databasePath)) as Store as S);
  // A SQLite server reads the store's file (history, events, status page); a PostgreSQL one the store.
  if (options.store?.dialect === "sqlite") config = { ...config, databasePath: options.store.sqlite.name };
  const closeOwn = async () => {
    if (!options.store) await store.close();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const created = await createClient(store, { clientId: options.clientId ?? "erp", scope: config.scope });
    const server = await startServer({ config, store, log: silentLog, ...options.server });
    const tokenUrl = `${server.issuer}/protocol/openid-connect/token`;
    const client = { id: created.clientId, secret: created.clientSecret };
    return {
      url: server.url,
      tokenUrl,
      client,
      token: tokens(tokenUrl, client, config.scope),
      root,
      config,
      store,
      server,
      issuer: server.issuer,
      async stop() {
        await server.close();
        await closeOwn();
      },
    };
  } catch (error) {
    await closeOwn();
    throw error;
  }
}

// ---------------------------------------------------------------- child processes

export interface ChildServer extends TestServer {
  child: CliChild;
  /** What the process has written so far. */
  out: { stdout: string; stderr: string };
  /** Signals the process by its pid (SIGTERM by default) and waits for its exit. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<CliResult>;
  /** SIGKILL by its pid, and its exit. */
  kill(): Promise<CliResult>;
}

export interface SpawnOptions {
  /** Variables beside the site's. */
  env?: Record<string, string>;
  /** The client the test made (`exrates clients create`); `exrates start` names its first client itself. */
  client?: { id: string; secret: string };
  /** Ready when this holds too (beside "serving on" on stdout). */
  ready?: (out: { stdout: string; stderr: string }) => boolean;
  timeoutMs?: number;
}

export type SiteEnv = Record<string, string> & { EXRATES_DATA_DIR: string; EXRATES_OUT_DIR: string };

export interface TestSite {
  root: string;
  /** The site's environment: its data and out directories, port 0, and the mirror's URL when there is one. */
  env: SiteEnv;
  mirror: Mirror | undefined;
  /** The CLI to its end, with the site's environment (and `env`). */
  cli(args: string[], env?: Record<string, string>, timeoutMs?: number): Promise<CliResult>;
  /** `exrates clients create <id>`: a client with the API's scope. */
  createClient(id: string, env?: Record<string, string>): Promise<{ id: string; secret: string }>;
  /** `exrates serve` as a child process. */
  serve(options?: SpawnOptions): Promise<ChildServer>;
  /** `exrates start` as a child process; its client is the one it prints on a fresh data directory. */
  start(options?: SpawnOptions): Promise<ChildServer>;
  /** Kills the servers still running (by pid), stops the mirror, removes the directories. */
  close(): Promise<void>;
}

export async function testSite(
  options: { feeds?: string[]; env?: Record<string, string>; prefix?: string } = {},
): Promise<TestSite> {
  const root = mkdtempSync(join(tmpdir(), options.prefix ?? "exrates-site-"));
  const mirror = options.feeds ? await startMirror(options.feeds) : undefined;
  const env: SiteEnv = {
    EXRATES_DATA_DIR: join(root, "data"),
    EXRATES_OUT_DIR: join(root, "out"),
    EXRATES_PORT: "0",
    ...(mirror ? { EXRATES_FEED_MIRROR: mirror.url } : {}),
    ...options.env,
  };
  const children: CliChild[] = [];
  const spawnServer = async (command: "serve" | "start", spawn: SpawnOptions = {}): Promise<ChildServer> => {
    const child = spawnCli([command], { ...env, ...spawn.env });
    children.push(child);
    await waitFor(
      child,
      (o) => /serving on http:\/\/\S+ /.test(o.stdout) && (spawn.ready?.(o) ?? true),
      spawn.timeoutMs ?? 60_000,
    );
    return childServer(child, spawn.client);
  };
  return {
    root,
    env,
    mirror,
    cli: (args, extra, timeoutMs) => cli(args, { ...env, ...extra }, timeoutMs),
    async createClient(id, extra) {
      const made = await cli(["clients", "create", id, "--json"], { ...env, ...extra });
      if (made.code !== 0) throw new Error(`exrates clients create ${id}: ${made.stderr}`);
      const { client_id, client_secret } = JSON.parse(made.stdout) as Record<string, string>;
      return { id: client_id!, secret: client_secret! };
    },
    serve: (spawn) => spawnServer("serve", spawn),
    start: (spawn) => spawnServer("start", spawn),
    async close() {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null && child.pid) {
          process.kill(child.pid, "SIGKILL");
          await finished(child).catch(() => undefined);
        }
      await mirror?.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A server child process: its URL, and its client as given or as it printed it (read when asked). */
function childServer(child: CliChild, given: { id: string; secret: string } | undefined): ChildServer {
  const url = /serving on (http:\/\/\S+) /.exec(child.out.stdout)![1]!;
  const tokenUrl = `${url}${REALM_TOKEN_PATH}`;
  const printed = () => {
    const secret = /client_secret: (\S+)/.exec(child.out.stdout)?.[1];
    return secret ? { id: /client_id: +(\S+)/.exec(child.out.stdout)![1]!, secret } : undefined;
  };
  const signal = async (name: NodeJS.Signals, timeoutMs: number): Promise<CliResult> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, name);
    return finished(child, timeoutMs);
  };
  return {
    url,
    tokenUrl,
    get client() {
      return given ?? printed();
    },
    token(clientId, secret, scope) {
      return tokens(tokenUrl, given ?? printed(), "exchange-rates")(clientId, secret, scope);
    },
    child,
    out: child.out,
    stop: (name = "SIGTERM", timeoutMs = 15_000) => signal(name, timeoutMs),
    kill: () => signal("SIGKILL", 15_000),
  };
}

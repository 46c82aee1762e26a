// `exrates start` (what `npm start` runs): the daemon. Takes the data directory's daemon lock (one
// daemon per data directory), opens and migrates the database, ensures the signing keys, creates a
// first client on a first start (printing its secret once), serves the published tree with the
// embedded SSO, and runs every enabled bank on its schedule, in one process. On a shared PostgreSQL
// database several may run: each serves, and one at a time schedules (src/schedule/leader.ts); the
// others stand by and take over when it dies.
// SIGTERM/SIGINT: stop scheduling, let runs in flight finish (or abandon them: nothing half-stored),
// close the server and the database, exit 0 within 10 seconds.
import { existsSync, statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";

import type { Command } from "commander";

import { createClient, listClients } from "../../auth/clients.js";
import type { Config } from "../../config.js";
import { UserError } from "../../errors.js";
import { createHttpClient } from "../../feed/http.js";
import { loadAdapters } from "../../feed/registry.js";
import type { Logger } from "../../log.js";
import type { BankAdapter } from "../../types.js";
import { publicationSigning } from "../../publish/signing.js";
import { bucketPublisher } from "../../publish/target-for.js";
import { acquireDaemonLock } from "../../schedule/daemon-lock.js";
import { createScheduler, type Scheduler } from "../../schedule/daemon.js";
import { createElection, type Election, type SchedulerRole } from "../../schedule/leader.js";
import { bankStatuses } from "../../schedule/status.js";
import { createWebhookWorker } from "../../events/webhooks.js";
import { startServer } from "../../serve/server.js";
import { poolOf, type Store } from "../../store/database.js";
import { action, type CliContext } from "../context.js";

/** Runs in flight get this long to finish; the server and the database close in what is left of 10 s. */
const GRACE_MS = 5000;
const HARD_EXIT_MS = 9000;
const FIRST_CLIENT = "exrates-client";

type StartContext = CliContext & { close(): Promise<void> };
type FirstClient = { clientId: string; clientSecret: string; scope: string };
type Adapters = BankAdapter[];
type Webhooks = ReturnType<typeof createWebhookWorker>;

export function registerStart(program: Command, ctx: StartContext): void {
  program
    .command("start")
    .description("the daemon: fetch every bank at its publication time, publish, and serve (scheduler + serve)")
    .action(action(ctx, () => runDaemon(ctx)));
}

/** The daemon from its first check to its exit on SIGTERM/SIGINT. */
async function runDaemon(ctx: StartContext): Promise<void> {
  const config = ctx.config();
  const log = ctx.log();
  // A full disk is said in one line before anything is written to it.
  requireFreeSpace("EXRATES_DATA_DIR", config.dataDir);
  if (!config.publishUrl) requireFreeSpace("EXRATES_OUT_DIR", config.outDir);
  // Before anything else: a second daemon on this data directory stops here, naming the first.
  // On a shared database the scheduler's advisory lock takes this role (any number may serve).
  const lock = config.databaseUrl ? undefined : acquireDaemonLock(config.dataDir);
  if (lock) process.once("exit", () => lock.release());
  const store = await ctx.store();
  const adapters = [...(await loadAdapters()).values()];
  const pool = poolOf(store);
  // SQLite: this process is the one daemon, its scheduler is made now. Shared: once it leads.
  const role = schedulingRole({ store, log, newScheduler: await schedulerFactory(config, store, adapters, log) });
  if (!pool) role.prepare();
  const soleRole: SchedulerRole = { instance: config.instanceId, leader: true, leaderInstance: config.instanceId };
  let elected: Election | undefined;
  const server = await startServer({
    config,
    store,
    log,
    status: () => role.status() ?? standbyStatus(store, adapters),
    scheduler: () => elected?.role() ?? Promise.resolve(soleRole),
  });
  lock?.describe({ url: server.url });
  const firstClient = await firstClientOrClose(store, config, server, log);
  // Each publication's webhooks, from the queue in the store (src/events/webhooks.ts): sent by
  // the instance that schedules, so that no delivery goes out twice.
  const publicUrl = config.publicUrl.replace(/:0$/, `:${new URL(server.url).port}`);
  if (pool) elected = election(pool, store, config, log, role, publicUrl);
  try {
    await startScheduling(elected, role, config, log, publicUrl);
  } catch (error) {
    await elected?.stop();
    await server.close();
    throw error;
  }
  ctx.print(
    `exrates started: serving on ${server.url} (issuer ${server.issuer}); ${adapters.length} banks${config.feedMirror ? `, feeds from the mirror ${config.feedMirror}` : ""}`,
  );
  if (firstClient) ctx.print(firstStartText(firstClient, server));
  await untilSignal(log, () => role.abdicate(GRACE_MS).then(() => elected?.stop()), server);
  await ctx.close();
  log.info("stopped");
  // Requests abandoned in flight (nothing of theirs was stored) must not keep the process alive.
  process.exit(0);
}

/** How this daemon makes a scheduler: its feed client, its publish target and the publication keys. */
async function schedulerFactory(
  config: Config,
  store: Store,
  adapters: Adapters,
  log: Logger,
): Promise<() => Scheduler> {
  const http = createHttpClient({
    mirror: config.feedMirror,
    onRetry: (info) => log.debug(info, "retrying a feed request"),
  });
  // With EXRATES_PUBLISH_URL the daemon publishes to the bucket.
  // Every generation is signed with the publication keys, read at each publish (a rotation needs no restart).
  const signing = () => publicationSigning(config);
  const publish = await bucketPublisher(config, store, adapters, signing);
  return () => createScheduler({ store, adapters, outDir: config.outDir, log, http, publish, signing });
}

interface SchedulingRole {
  /** Makes the scheduler ahead of leading (the sole daemon on SQLite). */
  prepare(): void;
  /** Starts scheduling and sending webhooks. */
  lead(publicUrl: string): Promise<void>;
  /** Stops both, giving runs in flight graceMs. */
  abdicate(graceMs?: number): Promise<void>;
  /** The scheduler's status while this instance schedules. */
  status(): ReturnType<Scheduler["status"]> | undefined;
}

/** The scheduler and the webhook worker this instance runs while it leads, and nothing while it stands by. */
function schedulingRole(options: { store: Store; log: Logger; newScheduler: () => Scheduler }): SchedulingRole {
  const { store, log, newScheduler } = options;
  let scheduler: Scheduler | undefined;
  let webhooks: Webhooks | undefined;
  return {
    prepare: () => void (scheduler ??= newScheduler()),
    async lead(publicUrl) {
      const running = (scheduler ??= newScheduler());
      try {
        await running.start();
      } catch (error) {
        scheduler = undefined;
        await running.stop(0);
        throw error;
      }
      webhooks = createWebhookWorker({ store, log, publicUrl });
      webhooks.start();
    },
    async abdicate(graceMs = 0) {
      const running = scheduler;
      scheduler = undefined;
      const worker = webhooks;
      webhooks = undefined;
      await running?.stop(graceMs);
      await worker?.stop();
    },
    status: () => scheduler?.status(),
  };
}

/** On a shared database: the election that makes this instance lead while it holds the lock. */
function election(
  pool: NonNullable<ReturnType<typeof poolOf>>,
  store: Store,
  config: Config,
  log: Logger,
  role: SchedulingRole,
  publicUrl: string,
): Election {
  return createElection({
    pool,
    db: store.db,
    instance: config.instanceId,
    log,
    retryMs: config.leaderRetryMs,
    lead: () => role.lead(publicUrl),
    abdicate: () => role.abdicate(0),
  });
}

/** Leads at once (SQLite), or takes part in the election and says when another instance leads. */
async function startScheduling(
  elected: Election | undefined,
  role: SchedulingRole,
  config: Config,
  log: Logger,
  publicUrl: string,
): Promise<void> {
  if (!elected) return role.lead(publicUrl);
  await elected.start();
  if (!elected.leader())
    log.info(
      { instance: config.instanceId },
      "standing by: another instance schedules; serving, and trying to take over every few seconds",
    );
}

/** The first client on a first start (logged), or none; the server is closed when making it fails. */
async function firstClientOrClose(
  store: Store,
  config: Config,
  server: { close(): Promise<void> },
  log: Logger,
): Promise<FirstClient | undefined> {
  let firstClient: FirstClient | undefined;
  try {
    firstClient = await ensureFirstClient(store, config.oidcIssuer, config.scope);
  } catch (error) {
    await server.close();
    throw error;
  }
  if (firstClient)
    log.info(
      { event: "client.created", clientId: firstClient.clientId, scope: firstClient.scope },
      "first start: client created",
    );
  return firstClient;
}

/** What a first start prints: the new client's secret (once) and how to read the ECB's rates with it. */
function firstStartText(firstClient: FirstClient, server: { url: string; issuer: string }): string {
  const tokenUrl = `${server.issuer}/protocol/openid-connect/token`;
  return [
    "",
    "First start: a client was created. Its secret is shown this once (stored only as a hash):",
    `  client_id:     ${firstClient.clientId}`,
    `  client_secret: ${firstClient.clientSecret}`,
    `  scope:         ${firstClient.scope}`,
    "Get a token and read the ECB's latest rates:",
    `  TOKEN=$(curl -s -d grant_type=client_credentials -d client_id=${firstClient.clientId} -d client_secret=${firstClient.clientSecret} -d scope=${firstClient.scope} ${tokenUrl} | sed 's/.*"access_token":"\\([^"]*\\)".*/\\1/')`,
    `  curl -H "Authorization: Bearer $TOKEN" ${server.url}/v1/Banks/ECB/DailyRates/Latest.json`,
    "(ECB's rates are there once the catch-up has fetched it, within minutes; `exrates banks` shows each bank's state.)",
    "",
  ].join("\n");
}

/**
 * Waits for SIGINT or SIGTERM, then stops scheduling (runs in flight get their grace), closes the
 * server, and resolves; whatever happens, the process ends within 10 s.
 */
function untilSignal(log: Logger, stopScheduling: () => Promise<unknown>, server: { close(): Promise<void> }) {
  return new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      log.info({ signal }, "stopping: no new runs; waiting for runs in flight");
      // Whatever happens below, the process ends within 10 s.
      setTimeout(() => {
        log.error("shutdown took too long; exiting");
        process.exit(0);
      }, HARD_EXIT_MS).unref();
      // A leader on a shared database then gives the lock back and clears its row.
      void stopScheduling()
        .catch((error: Error) => log.error({ err: error.message }, "scheduler stop failed"))
        .then(() => server.close())
        .catch((error: Error) => log.error({ err: error.message }, "server close failed"))
        .then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Below this, the database, its journal and a publish cannot be written. */
const MIN_FREE_BYTES = 1024 * 1024;

/** Refuses to start on a file system with (almost) no space left, naming the setting and the space. */
export function requireFreeSpace(setting: string, dir: string, minBytes = MIN_FREE_BYTES): void {
  // The directory may not exist yet: its nearest existing parent is on the same file system.
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  let free: number;
  try {
    const fs = statfsSync(at);
    free = fs.bavail * fs.bsize;
  } catch {
    return; // a file system that cannot say: the writes will
  }
  if (free < minBytes)
    throw new UserError(
      `no space left on the device of ${dir} (${setting}): ${Math.floor(free / 1024)} KiB free, at least ${minBytes / 1024 / 1024} MiB needed; free some space and start again`,
    );
}

/** A standby's `/v1/status`: every bank as the database shows it (runs, fetches, rates), none running here. */
function standbyStatus(store: Store, adapters: Parameters<typeof bankStatuses>[1]) {
  return bankStatuses(store, adapters, { running: new Set() });
}

/**
 * On a first start (no client yet, embedded SSO), a first client whose secret is printed once. Two
 * instances starting at once on a shared database: one creates it; the other finds it made.
 */
async function ensureFirstClient(
  store: Store,
  oidcIssuer: string | undefined,
  scope: string,
): Promise<FirstClient | undefined> {
  if (oidcIssuer || (await listClients(store)).length > 0) return undefined;
  try {
    return await createClient(store, { clientId: FIRST_CLIENT, scope });
  } catch (error) {
    if ((await listClients(store)).length > 0) return undefined;
    throw error;
  }
}

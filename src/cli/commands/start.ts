// `exrates start` (what `npm start` runs): the daemon. Takes the data directory's daemon lock (one
// daemon per data directory), opens and migrates the database, ensures the signing keys, creates a
// first client on a first start (printing its secret once), serves the published tree with the
// embedded SSO, and runs every enabled bank on its schedule, in one process.
// SIGTERM/SIGINT: stop scheduling, let runs in flight finish (or abandon them: nothing half-stored),
// close the server and the database, exit 0 within 10 seconds.
import type { Command } from "commander";

import { createClient, listClients } from "../../auth/clients.js";
import { createHttpClient } from "../../feed/http.js";
import { loadAdapters } from "../../feed/registry.js";
import { bucketPublisher } from "../../publish/target-for.js";
import { acquireDaemonLock } from "../../schedule/daemon-lock.js";
import { createScheduler } from "../../schedule/daemon.js";
import { createWebhookWorker } from "../../events/webhooks.js";
import { startServer } from "../../serve/server.js";
import { action, type CliContext } from "../context.js";

/** Runs in flight get this long to finish; the server and the database close in what is left of 10 s. */
const GRACE_MS = 5000;
const HARD_EXIT_MS = 9000;
const FIRST_CLIENT = "exrates-client";

export function registerStart(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("start")
    .description("the daemon: fetch every bank at its publication time, publish, and serve (scheduler + serve)")
    .action(
      action(ctx, async () => {
        const config = ctx.config();
        const log = ctx.log();
        // Before anything else: a second daemon on this data directory stops here, naming the first.
        const lock = acquireDaemonLock(config.dataDir);
        process.once("exit", () => lock.release());
        const store = await ctx.store();
        const adapters = [...(await loadAdapters()).values()];

        const http = createHttpClient({
          mirror: config.feedMirror,
          onRetry: (info) => log.debug(info, "retrying a feed request"),
        });
        // With EXRATES_PUBLISH_URL the daemon publishes to the bucket.
        const publish = await bucketPublisher(config, store, adapters);
        const scheduler = createScheduler({ store, adapters, outDir: config.outDir, log, http, publish });
        const server = await startServer({ config, store, log, status: () => scheduler.status() });
        lock.describe({ url: server.url });
        // Only once the server is up (a busy port fails before): a secret is never created unseen.
        let firstClient: { clientId: string; clientSecret: string; scope: string } | undefined;
        if (!config.oidcIssuer && (await listClients(store)).length === 0) {
          firstClient = await createClient(store, { clientId: FIRST_CLIENT, scope: config.scope });
          log.info(
            { event: "client.created", clientId: firstClient.clientId, scope: firstClient.scope },
            "first start: client created",
          );
        }
        try {
          await scheduler.start();
        } catch (error) {
          await scheduler.stop(0);
          await server.close();
          throw error;
        }

        // Each publication's webhooks, from the queue in the store (src/events/webhooks.ts).
        const publicUrl = config.publicUrl.replace(/:0$/, `:${new URL(server.url).port}`);
        const webhooks = createWebhookWorker({ store, log, publicUrl });
        webhooks.start();

        ctx.print(
          `exrates started: serving on ${server.url} (issuer ${server.issuer}); ${adapters.length} banks${config.feedMirror ? `, feeds from the mirror ${config.feedMirror}` : ""}`,
        );
        if (firstClient) {
          const tokenUrl = `${server.issuer}/protocol/openid-connect/token`;
          ctx.print(
            [
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
            ].join("\n"),
          );
        }

        await new Promise<void>((resolve) => {
          const stop = (signal: NodeJS.Signals) => {
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
            log.info({ signal }, "stopping: no new runs; waiting for runs in flight");
            // Whatever happens below, the process ends within 10 s.
            setTimeout(() => {
              log.error("shutdown took too long; exiting");
              process.exit(0);
            }, HARD_EXIT_MS).unref();
            void scheduler
              .stop(GRACE_MS)
              .catch((error: Error) => log.error({ err: error.message }, "scheduler stop failed"))
              .then(() => webhooks.stop())
              .then(() => server.close())
              .catch((error: Error) => log.error({ err: error.message }, "server close failed"))
              .then(resolve);
          };
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
        });
        await ctx.close();
        log.info("stopped");
        // Requests abandoned in flight (nothing of theirs was stored) must not keep the process alive.
        process.exit(0);
      }),
    );
}

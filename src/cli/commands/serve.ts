// `exrates serve`: the token-checking proxy and the embedded SSO, until SIGINT/SIGTERM.
import type { Command } from "commander";

import { startServer } from "../../serve/server.js";
import type { Store } from "../../store/database.js";
import { action, type CliContext } from "../context.js";
import { armShutdownDeadline } from "../../serve/http/shutdown-deadline.js";

export function registerServe(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("serve")
    .description(
      "serve the published tree behind the bearer check, with the embedded SSO (token endpoint, discovery, JWKS)",
    )
    .action(
      action(ctx, async () => {
        const config = ctx.config();
        const log = ctx.log();
        // A shared database is read with an external issuer too (status page, metrics); SQLite only for clients.
        const { store, unreadable } =
          config.oidcIssuer && !config.databaseUrl ? { store: undefined, unreadable: undefined } : await openStore(ctx);
        if (unreadable !== undefined)
          log.error(
            { event: "database.unreadable", database: config.databasePath, err: unreadable },
            `the database ${config.databasePath} cannot be read (${unreadable}): serving the published tree; no token is issued until it is repaired or restored`,
          );
        const running = await startServer({ config, store, log, databaseUnreadable: unreadable });
        ctx.print(`exrates serving on ${running.url} (issuer ${running.issuer})`);
        await new Promise<void>((resolve) => {
          const stop = (signal: NodeJS.Signals) => {
            log.info({ signal }, "stopping");
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
            const closed = armShutdownDeadline(log, signal);
            const done = () => {
              closed();
              resolve();
            };
            running.close().then(done, done);
          };
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
        });
      }),
    );
}

/**
 * The store, or why a SQLite file cannot be read (not a database, damaged): the tree is served without
 * it. Anything else (a PostgreSQL server down, a bad setting) still stops the command.
 */
async function openStore(ctx: CliContext): Promise<{ store?: Store; unreadable?: string }> {
  try {
    return { store: await ctx.store() };
  } catch (error) {
    // The store's own error, under the one-line message the CLI made of it.
    const code = ((error as { cause?: { code?: unknown } }).cause ?? (error as { code?: unknown })).code;
    if (ctx.config().databaseUrl || typeof code !== "string" || !UNREADABLE.has(code)) throw error;
    return { unreadable: ((error as { cause?: Error }).cause ?? (error as Error)).message };
  }
}

const UNREADABLE = new Set(["SQLITE_NOTADB", "SQLITE_CORRUPT"]);

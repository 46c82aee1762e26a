// `exrates serve`: the token-checking proxy and the embedded SSO, until SIGINT/SIGTERM.
import type { Command } from "commander";

import { startServer } from "../../serve/server.js";
import { action, type CliContext } from "../context.js";

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
        const store = config.oidcIssuer && !config.databaseUrl ? undefined : await ctx.store();
        const running = await startServer({ config, store, log });
        ctx.print(`exrates serving on ${running.url} (issuer ${running.issuer})`);
        await new Promise<void>((resolve) => {
          const stop = (signal: NodeJS.Signals) => {
            log.info({ signal }, "stopping");
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
            running.close().then(resolve, resolve);
          };
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
        });
      }),
    );
}

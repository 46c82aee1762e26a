// `exrates keys rotate`: a new active signing key; the retired one stays in the JWKS until its tokens expire.
import type { Command } from "commander";

import { keyStorageFor, loadOrCreateKeys, rotateKeys } from "../../auth/keys.js";
import { action, type CliContext } from "../context.js";

export function registerKeys(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  const keys = program.command("keys").description("signing keys of the embedded SSO");
  keys
    .command("rotate")
    .description("make a new signing key active; the previous one stays published until its tokens have expired")
    .action(
      action(ctx, async () => {
        const { dataDir, databaseUrl } = ctx.config();
        // A shared database holds the keys of every replica; otherwise they are a file in the data directory.
        const storage = keyStorageFor(dataDir, databaseUrl ? await ctx.store() : undefined);
        await loadOrCreateKeys(storage);
        const result = await rotateKeys(storage);
        ctx
          .log()
          .info(
            { event: "keys.rotated", kid: result.kid, retired: result.retired, dropped: result.dropped },
            "signing key rotated",
          );
        ctx.print(
          `new signing key ${result.kid}` +
            (result.retired.length
              ? `; retired ${result.retired.join(", ")} (published until its tokens expire)`
              : "") +
            (result.dropped.length ? `; dropped ${result.dropped.join(", ")}` : ""),
        );
      }),
    );
}

// `exrates keys rotate`: a new active signing key; the retired one stays in the JWKS until its tokens expire.
import type { Command } from "commander";

import { keyStorageFor, loadOrCreateKeys, rotateKeys } from "../../auth/keys.js";
import { publicationKeyStorage } from "../../publish/signing.js";
import { action, type CliContext } from "../context.js";

export function registerKeys(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  const keys = program.command("keys").description("signing keys of the embedded SSO");
  keys
    .command("rotate")
    .description("make a new signing key active; the previous one stays published until its tokens have expired")
    .option(
      "--publication",
      "rotate the publication key (signs each generation's manifest) instead: the previous one stays in the JWKS 400 days",
    )
    .action(
      action(ctx, async (options: { publication?: boolean }) => {
        const { dataDir, databaseUrl } = ctx.config();
        // A shared database holds the keys of every replica; otherwise they are a file in the data directory.
        const storage = options.publication
          ? publicationKeyStorage(dataDir)
          : keyStorageFor(dataDir, databaseUrl ? await ctx.store() : undefined);
        await loadOrCreateKeys(storage);
        const result = await rotateKeys(storage);
        ctx.log().info(
          {
            event: "keys.rotated",
            publication: options.publication === true,
            kid: result.kid,
            retired: result.retired,
            dropped: result.dropped,
          },
          options.publication ? "publication key rotated" : "signing key rotated",
        );
        ctx.print(
          `new signing key ${result.kid}` +
            (result.retired.length
              ? `; retired ${result.retired.join(", ")} (published ${options.publication ? "400 more days" : "until its tokens expire"})`
              : "") +
            (result.dropped.length ? `; dropped ${result.dropped.join(", ")}` : ""),
        );
      }),
    );
}

// `exrates publish [<ID>...]`: render the tree (only banks whose data changed, or the ones named).
import type { Command } from "commander";

import { adapterFor, loadAdapters } from "../../feed/registry.js";
import { publish } from "../../publish/publisher.js";
import { publicationSigning } from "../../publish/signing.js";
import { treeTargetFor } from "../../publish/target-for.js";
import { action, type CliContext } from "../context.js";

export function registerPublish(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("publish")
    .description(
      "render every bank's latest rates (JSON, XML, CSV, XLSX) into the out/ tree (or EXRATES_PUBLISH_URL's bucket) and switch to it atomically",
    )
    .argument("[banks...]", "only these banks (default: every bank whose data changed)")
    .action(
      action(ctx, async (ids: string[]) => {
        for (const id of ids) await adapterFor(id); // unknown ids fail before anything is written
        const adapters = [...(await loadAdapters()).values()];
        const target = await treeTargetFor(ctx.config());
        const signing = await publicationSigning(ctx.config());
        const result = await publish(await ctx.store(), adapters, target, {
          signing,
          ...(ids.length ? { only: ids } : {}),
        });
        ctx.log().info(
          {
            generation: result.generation,
            rendered: result.rendered,
            carried: result.carried.length,
            files: result.files,
          },
          "published",
        );
        ctx.print(
          `published generation ${result.generation}: ${result.rendered.length} rendered` +
            (result.rendered.length ? ` (${result.rendered.join(", ")})` : "") +
            `, ${result.carried.length} unchanged, ${result.empty.length} without rates`,
        );
      }),
    );
}

// `exrates publish [<ID>...]`: render the tree (only banks whose data changed, or the ones named).
import type { Command } from "commander";

import { loadBanks, sourcesFor } from "../../feed/registry.js";
import { sourceLabel } from "../../feed/sources.js";
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
        // Unknown ids fail before anything is written; a bank with two tables (NBP) publishes both.
        const only = ids.length ? (await sourcesFor(ids, false)).map((a) => a.bank.id) : undefined;
        const banks = await loadBanks();
        const target = await treeTargetFor(ctx.config());
        const signing = await publicationSigning(ctx.config());
        const result = await publish(await ctx.store(), banks, target, {
          signing,
          ...(only ? { only } : {}),
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
            (result.rendered.length ? ` (${result.rendered.map(sourceLabel).join(", ")})` : "") +
            `, ${result.carried.length} unchanged, ${result.empty.length} without rates`,
        );
      }),
    );
}

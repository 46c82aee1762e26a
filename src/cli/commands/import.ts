// `exrates import <ID> <file> [--url URL] [--method POST] [--form key=value ...] [--by NAME] [--no-publish]`:
// parse a saved feed answer as the daemon would, store it (one transaction) and re-publish the bank when
// the tree does not show what is stored, as backfill and ingest do; with --no-publish it says how to
// publish. An answer that yields nothing without saying that nothing was published is refused ("no rates
// found"). The figures' provenance says it was imported: the file's base name, its sha256, who (--by,
// default the OS user) and when; a --url is shown as declared by the importer, never as fetched.
import type { Command } from "commander";

import { unpublishedBanks } from "../../backfill/backfill.js";
import { adapterFor, loadAdapters } from "../../feed/registry.js";
import { importer, importFile, logNewAnomalies } from "../../ingest/ingest.js";
import { publish } from "../../publish/publisher.js";
import { publicationSigning } from "../../publish/signing.js";
import { treeTargetFor } from "../../publish/target-for.js";
import { newestDate } from "../../store/rates.js";
import { action, type CliContext } from "../context.js";
import { savedRequest, savedRequestOptions, type SavedRequestOptions } from "../saved-request.js";

export function registerImport(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  savedRequestOptions(
    program
      .command("import")
      .description("parse a saved feed response and store its rates (nothing is stored if it does not parse)")
      .argument("<bank>", "bank id, e.g. CNB")
      .argument("<file>", "a saved response of the bank's feed")
      .option("--by <name>", "who imports it, as the provenance names them (default: the OS user)")
      .option("--no-publish", "store only; `exrates publish <bank>` publishes later"),
  ).action(
    action(ctx, async (bankId: string, file: string, options: ImportOptions) => {
      const adapter = await adapterFor(bankId);
      const by = options.by?.trim() || importer();
      const result = await importFile(() => ctx.store(), adapter, file, savedRequest(options), by);
      logNewAnomalies(ctx.log(), adapter.bank.id, result);
      ctx.log().info(
        {
          bank: adapter.bank.id,
          file,
          inserted: result.inserted,
          revised: result.revised,
          unchanged: result.unchanged,
          held: result.held,
          warned: result.warned,
          dates: result.changedDates.length,
        },
        "imported",
      );
      if (result.navigation)
        return ctx.print(`${adapter.bank.id}: a page that only leads to the data (never parsed): nothing to store`);
      if (result.noPublication)
        return ctx.print(
          `${adapter.bank.id}: no publication in this answer (${result.noPublication}): nothing to store`,
        );
      ctx.print(
        `${adapter.bank.id}: ${result.inserted} added, ${result.revised} revised, ${result.unchanged} unchanged` +
          (result.changedDates.length ? ` (${result.changedDates[0]} to ${result.changedDates.at(-1)})` : "") +
          `, ${result.held} held` +
          (result.warned ? `, ${result.warned} published with a warning` : "") +
          (result.held || result.warned ? " (exrates anomalies lists them)" : ""),
      );
      ctx.print(await publishImported(ctx, adapter.bank.id, options.publish));
    }),
  );
}

type ImportOptions = SavedRequestOptions & { publish: boolean; by?: string };

/** Publishes the bank when the tree does not show what is stored; the line that says what happened. */
async function publishImported(ctx: CliContext, bankId: string, wanted: boolean): Promise<string> {
  const store = await ctx.store();
  if ((await newestDate(store, bankId)) === undefined) return `${bankId}: no rates stored, nothing to publish`;
  const target = await treeTargetFor(ctx.config());
  if ((await unpublishedBanks(store, target, [bankId])).length === 0)
    return `${bankId}: the published tree is up to date`;
  if (!wanted) return `${bankId}: not published (--no-publish); \`exrates publish ${bankId}\` publishes it`;
  const result = await publish(store, [...(await loadAdapters()).values()], target, {
    only: [bankId],
    signing: await publicationSigning(ctx.config()),
  });
  return `${bankId}: published in generation ${result.generation}`;
}

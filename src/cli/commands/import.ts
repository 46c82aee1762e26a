// `exrates import <ID> <file> [--url URL] [--method POST] [--form key=value ...] [--by NAME] [--no-publish]`:
// parse a saved feed answer as the daemon would, store it (one transaction) and re-publish the bank when
// the tree does not show what is stored, as backfill and ingest do; with --no-publish it says how to
// publish. An answer that yields nothing without saying that nothing was published is refused ("no rates
// found"). The figures' provenance says it was imported: the file's base name, its sha256, who (--by,
// default the OS user) and when; a --url is shown as declared by the importer, never as fetched.
import type { Command } from "commander";

import { frequencyArgument, sourcesForBank } from "../../feed/registry.js";
import { publicIdOf, sourceLabel } from "../../feed/sources.js";
import {
  importer,
  importFile,
  logNewAnomalies,
  parseDocuments,
  readSavedResponse,
  type SavedRequest,
} from "../../ingest/ingest.js";
import { newestDate } from "../../store/rates.js";
import { action, type CliContext } from "../context.js";
import { publishing } from "../publish-banks.js";
import { savedRequest, savedRequestOptions, type SavedRequestOptions } from "../saved-request.js";
import type { BankAdapter } from "../../types.js";

export function registerImport(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  savedRequestOptions(
    program
      .command("import")
      .description("parse a saved feed response and store its rates (nothing is stored if it does not parse)")
      .argument("<bank>", "bank id, e.g. CNB")
      .argument("<file>", "a saved response of the bank's feed")
      .option("--by <name>", "who imports it, as the provenance names them (default: the OS user)")
      .option("--no-publish", "store only; `exrates publish <bank>` publishes later")
      .option(
        "--frequency <frequency>",
        "which of the bank's tables the answer is (daily, weekly...); default: the one whose parser accepts it",
      ),
  ).action(
    action(ctx, async (bankId: string, file: string, options: ImportOptions) => {
      const frequency = options.frequency === undefined ? undefined : frequencyArgument(options.frequency);
      const request = savedRequest(options);
      const adapter = await sourceOf(await sourcesForBank(bankId, frequency), file, request);
      const label = sourceLabel(adapter.bank.id);
      const by = options.by?.trim() || importer();
      const result = await importFile(() => ctx.store(), adapter, file, request, by);
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
        return ctx.print(`${label}: a page that only leads to the data (never parsed): nothing to store`);
      if (result.noPublication)
        return ctx.print(`${label}: no publication in this answer (${result.noPublication}): nothing to store`);
      ctx.print(
        `${label}: ${result.inserted} added, ${result.revised} revised, ${result.unchanged} unchanged` +
          (result.changedDates.length ? ` (${result.changedDates[0]} to ${result.changedDates.at(-1)})` : "") +
          `, ${result.held} held` +
          (result.warned ? `, ${result.warned} published with a warning` : "") +
          (result.held || result.warned ? " (exrates anomalies lists them)" : ""),
      );
      ctx.print(await publishImported(ctx, adapter.bank.id, options.publish));
    }),
  );
}

type ImportOptions = SavedRequestOptions & { publish: boolean; by?: string; frequency?: string };

/**
 * Which of a bank's sources an answer is for: the only one, else the first whose parser accepts it (NBP:
 * a Table B answer is the weekly table's); when none does, the first, which then says why it refuses.
 */
async function sourceOf(sources: BankAdapter[], file: string, request: SavedRequest): Promise<BankAdapter> {
  if (sources.length === 1) return sources[0]!;
  for (const source of sources) {
    try {
      await parseDocuments(source, [await readSavedResponse(source, file, request)]);
      return source;
    } catch {
      // not this table's answer: the next source is tried
    }
  }
  return sources[0]!;
}

/** Publishes the bank when the tree does not show what is stored; the line that says what happened. */
async function publishImported(ctx: CliContext, bankId: string, wanted: boolean): Promise<string> {
  const store = await ctx.store();
  const label = sourceLabel(bankId);
  if ((await newestDate(store, bankId)) === undefined) return `${label}: no rates stored, nothing to publish`;
  const tree = await publishing(ctx, store);
  if ((await tree.unpublished([bankId])).length === 0) return `${label}: the published tree is up to date`;
  if (!wanted) return `${label}: not published (--no-publish); \`exrates publish ${publicIdOf(bankId)}\` publishes it`;
  const result = await tree.publish([bankId]);
  return `${label}: published in generation ${result.generation}`;
}

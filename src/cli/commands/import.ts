// `exrates import <ID> <file> [--url URL] [--method POST] [--form key=value ...]`: parse a saved feed
// answer as the daemon would and store it (one transaction). An answer that yields nothing without
// saying that nothing was published is refused ("no rates found"), exit 1.
import type { Command } from "commander";

import { adapterFor } from "../../feed/registry.js";
import { importFile, logNewAnomalies } from "../../ingest/ingest.js";
import { action, type CliContext } from "../context.js";
import { savedRequest, savedRequestOptions, type SavedRequestOptions } from "../saved-request.js";

export function registerImport(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  savedRequestOptions(
    program
      .command("import")
      .description("parse a saved feed response and store its rates (nothing is stored if it does not parse)")
      .argument("<bank>", "bank id, e.g. CNB")
      .argument("<file>", "a saved response of the bank's feed"),
  ).action(
    action(ctx, async (bankId: string, file: string, options: SavedRequestOptions) => {
      const adapter = await adapterFor(bankId);
      const result = await importFile(() => ctx.store(), adapter, file, savedRequest(options));
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
    }),
  );
}

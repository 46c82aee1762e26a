// `exrates import <ID> <file> [--url URL]`: parse a saved feed answer and store it (one transaction).
import type { Command } from "commander";

import { adapterFor } from "../../feed/registry.js";
import { importFile, logNewAnomalies } from "../../ingest/ingest.js";
import { action, type CliContext } from "../context.js";

export function registerImport(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("import")
    .description("parse a saved feed response and store its rates (nothing is stored if it does not parse)")
    .argument("<bank>", "bank id, e.g. CNB")
    .argument("<file>", "a saved response of the bank's feed")
    .option("--url <url>", "the URL the response was fetched from")
    .action(
      action(ctx, async (bankId: string, file: string, options: { url?: string }) => {
        const adapter = await adapterFor(bankId);
        const result = await importFile(() => ctx.store(), adapter, file, options.url);
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

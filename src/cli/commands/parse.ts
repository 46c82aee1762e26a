// `exrates parse <ID> <file> [--url URL] [--method POST] [--form key=value ...]`: the normalised records of
// a saved feed answer, and the rows held with their reasons, as JSON, read as the daemon reads it.
// Exits 0 when the answer as a whole was read, even with held rows; 1 when it is refused, including an
// answer that yields nothing without saying that nothing was published ("no rates found").
import type { Command } from "commander";

import { baseCurrencyOf } from "../../feed/adapter.js";
import { adapterFor } from "../../feed/registry.js";
import { parseDocuments, readSavedResponse } from "../../ingest/ingest.js";
import { sortRecords } from "../../ingest/validate.js";
import { action, type CliContext } from "../context.js";
import { savedRequest, savedRequestOptions, type SavedRequestOptions } from "../saved-request.js";

export function registerParse(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  savedRequestOptions(
    program
      .command("parse")
      .description("print the normalised records of a saved feed response (JSON, sorted by date then currency)")
      .argument("<bank>", "bank id, e.g. CBR")
      .argument("<file>", "a saved response of the bank's feed"),
  ).action(
    action(ctx, async (bankId: string, file: string, options: SavedRequestOptions) => {
      const adapter = await adapterFor(bankId);
      const doc = await readSavedResponse(adapter, file, savedRequest(options));
      const { records, held, noPublication, navigation } = (await parseDocuments(adapter, [doc]))[0]!;
      ctx.print(
        JSON.stringify(
          {
            bankId: adapter.bank.id,
            baseCurrency: baseCurrencyOf(adapter.bank),
            quoteType: adapter.bank.quoteType,
            ...(navigation && { navigation: "a page that only leads to the data: never parsed" }),
            ...(noPublication && { noPublication }),
            // `source` names where a held row stood; a taken record's place is not part of the output.
            records: sortRecords(records).map((record) => {
              const { source, ...printed } = record;
              void source;
              return printed;
            }),
            held: held.map(({ kind, reason, source, effectiveDate, currency, rate, derivation }) => ({
              reason,
              kind,
              source,
              effectiveDate,
              currency,
              rate,
              derivation,
            })),
          },
          null,
          2,
        ),
      );
    }),
  );
}

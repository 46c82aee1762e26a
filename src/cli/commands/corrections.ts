// `exrates corrections [<ID>...] [--json] [--from D] [--to D]`: every revision of a stored figure (a
// bank's correction, or a figure released from the anomalies), oldest first per bank: the previous and
// the new figure, when each was stored, and where each came from: the bank's answer (URL, when fetched)
// or an imported file (its name, who imported it, when, the URL declared), with its sha256.
import type { Command } from "commander";

import { adapterFor } from "../../feed/registry.js";
import { isIsoDate } from "../../feed/dates.js";
import { otherSourcesOf, publicIdOf } from "../../feed/sources.js";
import { UserError } from "../../errors.js";
import { sourceJson, sourceText } from "../../publish/provenance.js";
import { AsOfReader, type Correction } from "../../store/as-of.js";
import { action, type CliContext } from "../context.js";

function line(bankId: string, c: Correction): string {
  const unit = (u: number) => (u ? ` per ${10 ** u}` : "");
  const [previous, current] = [sourceJson(c.previous.source), sourceJson(c.current.source)];
  return (
    `${bankId.padEnd(6)} ${c.effectiveDate} ${c.currency}  ${c.previous.rate}${unit(c.previous.unitMultiplier)} -> ` +
    `${c.current.rate}${unit(c.current.unitMultiplier)}  corrected ${c.current.storedAt}\n` +
    `       was stored ${c.previous.storedAt} from sha256 ${previous.sha256 ?? "-"} (${sourceText(previous)})\n` +
    `       now from sha256 ${current.sha256 ?? "-"} (${sourceText(current)})`
  );
}

/** A correction as the API's JSON has it: each figure's source as fetched or imported. */
function correctionJson(bankId: string, c: Correction) {
  const figure = (f: Correction["previous"]) => ({ ...f, source: sourceJson(f.source) });
  return { bankId, ...c, previous: figure(c.previous), current: figure(c.current) };
}

function dateOption(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (!isIsoDate(value)) throw new UserError(`--${name} "${value}" is not a date (YYYY-MM-DD)`);
  return value;
}

export function registerCorrections(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("corrections")
    .description("every correction of a stored figure, with the sha256 of both answers")
    .argument("[banks...]", "only these banks")
    .option("--json", "a JSON array")
    .option("--from <date>", "corrections made on or after this UTC date")
    .option("--to <date>", "corrections made on or before this UTC date")
    .action(
      action(ctx, async (ids: string[], options: { json?: boolean; from?: string; to?: string }) => {
        const from = dateOption("from", options.from, "1900-01-01");
        const to = dateOption("to", options.to, new Date().toISOString().slice(0, 10));
        const reader = AsOfReader.ofStore(await ctx.store({ readonly: true }));
        const banks = ids.length
          ? (await Promise.all(ids.map(async (id) => (await adapterFor(id)).bank.id))).flatMap((id) => [
              id,
              ...otherSourcesOf(id),
            ])
          : await reader.correctedBanks();
        const all: Array<{ bankId: string } & Correction> = [];
        for (const bankId of banks)
          for (const c of await reader.corrections(bankId, from, to)) all.push({ bankId: publicIdOf(bankId), ...c });
        if (options.json)
          return ctx.print(
            JSON.stringify(
              all.map(({ bankId, ...c }) => correctionJson(bankId, c)),
              null,
              2,
            ),
          );
        if (all.length === 0) return ctx.print("no corrections");
        ctx.print(all.map(({ bankId, ...c }) => line(bankId, c)).join("\n"));
      }),
    );
}

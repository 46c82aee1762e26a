// `exrates corrections [<ID>...] [--json] [--from D] [--to D]`: every revision of a stored figure (a
// bank's correction, or a figure released from the anomalies), oldest first per bank: the previous and
// the new figure, when each was stored, and the sha256 of the bank's answer each came from.
import type { Command } from "commander";

import { adapterFor } from "../../feed/registry.js";
import { isIsoDate } from "../../feed/dates.js";
import { UserError } from "../../errors.js";
import { AsOfReader, type Correction } from "../../store/as-of.js";
import { action, type CliContext } from "../context.js";

function line(bankId: string, c: Correction): string {
  const unit = (u: number) => (u ? ` per ${10 ** u}` : "");
  return (
    `${bankId.padEnd(6)} ${c.effectiveDate} ${c.currency}  ${c.previous.rate}${unit(c.previous.unitMultiplier)} -> ` +
    `${c.current.rate}${unit(c.current.unitMultiplier)}  corrected ${c.current.storedAt}\n` +
    `       was stored ${c.previous.storedAt} from sha256 ${c.previous.source.sha256 ?? "-"}\n` +
    `       now from sha256 ${c.current.source.sha256 ?? "-"} (${c.current.source.url})`
  );
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
          ? await Promise.all(ids.map(async (id) => (await adapterFor(id)).bank.id))
          : await reader.correctedBanks();
        const all: Array<{ bankId: string } & Correction> = [];
        for (const bankId of banks)
          for (const c of await reader.corrections(bankId, from, to)) all.push({ bankId, ...c });
        if (options.json) return ctx.print(JSON.stringify(all, null, 2));
        if (all.length === 0) return ctx.print("no corrections");
        ctx.print(all.map(({ bankId, ...c }) => line(bankId, c)).join("\n"));
      }),
    );
}

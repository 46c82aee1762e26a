// `exrates average BANK --from D [--to D] [--group month] [--currencies A,B] [--base X]`: a bank's daily
// figures averaged per period, exactly as `GET /v1/Banks/{id}/DailyRates?from&to&group=` answers
// (src/pairs/resolve.ts); CSV by default, --json or --xml for the API's other documents.
import type { Command } from "commander";

import { UserError } from "../../errors.js";
import { frequencyOf } from "../../feed/adapter.js";
import { isIsoDate } from "../../feed/dates.js";
import { adapterFor, knownBankIds } from "../../feed/registry.js";
import { readGroup } from "../../pairs/average.js";
import { averageBank, renderAverages } from "../../pairs/resolve.js";
import { todayAnywhere } from "../../serve/resources/history/request.js";
import { action, type CliContext } from "../context.js";
import { formatFlag, historyReaderOf } from "../history-reader.js";

interface AverageOptions {
  from?: string;
  to?: string;
  group: string;
  currencies?: string;
  base?: string;
  json?: boolean;
  xml?: boolean;
  csv?: boolean;
}

export function registerAverage(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("average")
    .description("a bank's daily rates averaged per week, month, quarter or year (exact means, partial periods marked)")
    .argument("<bank>", "bank id, e.g. CNB")
    .requiredOption("--from <YYYY-MM-DD>", "the range's first date")
    .option("--to <YYYY-MM-DD>", "the range's last date (default: today)")
    .option("--group <week|month|quarter|year>", "the period", "month")
    .option("--currencies <codes>", "comma-separated ISO 4217 codes (default: every currency)")
    .option("--base <code>", "re-express the figures against this currency first")
    .option("--json", "print the answer as JSON")
    .option("--xml", "print it as XML")
    .option("--csv", "print it as CSV (the default)")
    .action(
      action(ctx, async (bank: string, options: AverageOptions) => {
        const id = bank.toUpperCase();
        for (const [name, value] of [
          ["from", options.from],
          ["to", options.to],
        ] as const)
          if (value !== undefined && !isIsoDate(value))
            throw new UserError(`--${name}: "${value}" is not a date (YYYY-MM-DD)`);
        const from = options.from!;
        const to = options.to ?? todayAnywhere(Date.now());
        if (from > to) throw new UserError(`--from (${from}) is after --to (${to})`);
        let group;
        try {
          group = readGroup(options.group);
        } catch (error) {
          throw new UserError(`--${(error as Error).message}`);
        }
        const currencies = options.currencies
          ?.split(",")
          .map((c) => c.trim().toUpperCase())
          .sort();
        const store = historyReaderOf(await ctx.store({ readonly: true }));
        try {
          const quoting = await store.quoting(id);
          if (!quoting) throw new UserError(`No rates stored for bank ${id}`);
          // A period source's figures are already per period: refused as the API refuses its daily range.
          const frequency = knownBankIds().includes(id) ? frequencyOf((await adapterFor(id)).bank) : "Daily";
          if (frequency !== "Daily")
            throw new UserError(
              `Bank ${id} publishes ${frequency} rates, not Daily: its figures are already per period, under /v1/Banks/${id}/${frequency}Rates`,
            );
          const header = { bankId: id, ...quoting };
          const base = options.base?.toUpperCase();
          const q = {
            header,
            from,
            to,
            group,
            ...(currencies ? { currencies } : {}),
            ...(base && base !== quoting.baseCurrency ? { base } : {}),
          };
          const { doc } = await averageBank(store, q);
          const rendered = await renderAverages(doc, formatFlag(options) ?? "csv", {}, new Date(0));
          if ("text" in rendered) process.stdout.write(rendered.text);
        } finally {
          store.close();
        }
      }),
    );
}

// `exrates banks`: every bank with its newest stored date and its last fetch.
import type { Command } from "commander";

import { toBankResource } from "../../feed/adapter.js";
import { loadAdapters } from "../../feed/registry.js";
import { lastFetch, newestDates } from "../../store/rates.js";
import { action, type CliContext } from "../context.js";

export function registerBanks(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("banks")
    .description("list the banks with their newest stored date and last fetch")
    .option("--json", "print the Bank resources with their status as JSON")
    .action(
      action(ctx, async (options: { json?: boolean }) => {
        const adapters = [...(await loadAdapters()).values()];
        const store = await ctx.store();
        const newest = await newestDates(store);
        const rows = await Promise.all(
          adapters.map(async (a) => {
            const fetch = await lastFetch(store, a.bank.id);
            return {
              ...toBankResource(a.bank),
              quoteType: a.bank.quoteType,
              newestDate: newest.get(a.bank.id) ?? null,
              lastFetch: fetch ? { at: fetch.finished_at ?? fetch.started_at, ok: fetch.error === null, error: fetch.error } : null,
              needs: a.bank.credential && !process.env[a.bank.credential.env] ? a.bank.credential.env : null,
            };
          }),
        );
        if (options.json) return ctx.print(JSON.stringify(rows, null, 2));
        const lines = rows.map((r) =>
          [
            r.id.padEnd(8),
            r.bankCurrency,
            r.quoteType.padEnd(8),
            `${r.dailyUpdateTime} ${r.timeZone.ianaTimeZoneName}`.padEnd(30),
            (r.newestDate ?? "-").padEnd(10),
            r.lastFetch ? `${r.lastFetch.ok ? "ok" : "FAILED"} ${r.lastFetch.at}` : "never fetched",
            r.needs ? ` needs ${r.needs}` : "",
            `  ${r.name[0]?.name ?? ""}`,
          ].join(" "),
        );
        ctx.print(["BANK     CUR QUOTE    PUBLISHES (LOCAL)              NEWEST     LAST FETCH", ...lines].join("\n"));
      }),
    );
}

// `exrates ingest <ID...>|--all`: fetch the newest publication of banks now (filling a gap of a few
// days first, as the daemon does), store it, and re-publish the banks whose data changed. One try
// per bank, no polling; one bank's failure does not stop the others.
import type { Command } from "commander";

import { UserError } from "../../errors.js";
import { createHttpClient } from "../../feed/http.js";
import { frequencyArgument, loadAdapters, sourcesFor } from "../../feed/registry.js";
import { sourceLabel } from "../../feed/sources.js";
import { publicationSigning } from "../../publish/signing.js";
import { bucketPublisher } from "../../publish/target-for.js";
import { createScheduler, type RunOutcome } from "../../schedule/daemon.js";
import { notScheduledBecause } from "../../schedule/status.js";
import { action, type CliContext } from "../context.js";

export function registerIngest(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("ingest")
    .description("fetch the newest publication of banks now, store it and re-publish")
    .argument("[banks...]", "bank ids")
    .option("--all", "every bank that can be fetched (skips historical-only banks and banks missing a credential)")
    .option("--json", "print the outcomes as JSON")
    .option("--frequency <frequency>", "only the tables of this frequency (NBP: daily or weekly; default: every one)")
    .action(
      action(ctx, async (ids: string[], options: { all?: boolean; json?: boolean; frequency?: string }) => {
        if (options.all && ids.length) throw new UserError("give bank ids or --all, not both");
        const config = ctx.config();
        const frequency = options.frequency === undefined ? undefined : frequencyArgument(options.frequency);
        const chosen = await sourcesFor(ids, options.all === true, frequency);
        const runnable = chosen.filter((a) => !notScheduledBecause(a, process.env));
        if (!options.all) {
          const blocked = chosen.find((a) => notScheduledBecause(a, process.env));
          if (blocked) throw new UserError(`${blocked.bank.id}: ${notScheduledBecause(blocked, process.env)!.summary}`);
        }
        const log = ctx.log();
        const store = await ctx.store();
        const http = createHttpClient({
          mirror: config.feedMirror,
          onRetry: (info) => log.warn(info, "retrying a feed request"),
        });
        const adapters = [...(await loadAdapters()).values()];
        // With EXRATES_PUBLISH_URL each run publishes to the bucket.
        const signing = () => publicationSigning(config);
        const publish = await bucketPublisher(config, store, adapters, signing);
        const scheduler = createScheduler({
          store,
          adapters,
          outDir: config.outDir,
          log,
          http,
          cron: false,
          publish,
          signing,
        });
        // Every bank asked for at once; the scheduler's fetch slots let a few fetch at a time.
        const outcomes: RunOutcome[] = await Promise.all(
          runnable.map((a) => scheduler.runNow(a.bank.id, "manual", { poll: false, force: true })),
        );
        await scheduler.stop(0);
        outcomes.sort((a, b) => a.bankId.localeCompare(b.bankId));
        if (options.json) ctx.print(JSON.stringify(outcomes, null, 2));
        else ctx.print(ingestTable(outcomes));
        if (outcomes.some((o) => o.state === "failed")) process.exitCode = 1;
      }),
    );
}

/**
 * One line per bank: its state, newest stored date, what the run stored (added, revised, unchanged,
 * held: a revision is said here, not only in a log line), and the run's message.
 */
export function ingestTable(outcomes: RunOutcome[]): string {
  const state = (o: RunOutcome) =>
    o.state === "ok" ? "ok" : o.state === "gave-up" ? "not yet" : o.state.toUpperCase();
  const count = (n: number | undefined) => String(n ?? "-").padStart(7);
  // A bank's second table is named by its frequency (`NBP (Weekly)`), not by its internal source id.
  const width = Math.max(9, ...outcomes.map((o) => sourceLabel(o.bankId).length + 1));
  const lines = [
    `${"BANK".padEnd(width)}${"STATE".padEnd(9)}${"NEWEST".padEnd(11)}${["ADDED", "REVISED", "UNCHANGED", "HELD"].map((h) => h.padStart(h.length > 7 ? h.length : 7)).join(" ")}  MESSAGE`,
  ];
  for (const o of outcomes)
    lines.push(
      `${sourceLabel(o.bankId).padEnd(width)}${state(o).padEnd(9)}${(o.newest ?? "-").padEnd(11)}${count(o.inserted)} ${count(o.revised)} ${String(o.unchanged ?? "-").padStart(9)} ${count(o.held)}  ${o.message}`,
    );
  return lines.join("\n");
}

// `exrates backfill <ID...>|--all [--from D] [--to D] [--concurrency N] [--force]`: load history, chunked,
// resumable, polite; a progress bar on a terminal, one JSON log line per chunk otherwise.
import type { Command } from "commander";

import {
  planBackfill,
  type BankBackfillPlan,
  runBackfill,
  unpublishedBanks,
  type BackfillSummary,
  type ChunkEvent,
} from "../../backfill/backfill.js";
import { createProgress, formatDuration, type Progress } from "../../backfill/progress.js";
import { UserError } from "../../errors.js";
import { createHttpClient } from "../../feed/http.js";
import { frequencyArgument, loadBanks, sourcesFor } from "../../feed/registry.js";
import { sourceLabel } from "../../feed/sources.js";
import { publish } from "../../publish/publisher.js";
import { publicationSigning } from "../../publish/signing.js";
import { treeTargetFor } from "../../publish/target-for.js";
import type { Logger } from "../../log.js";
import type { Store } from "../../store/database.js";
import { action, type CliContext } from "../context.js";

interface Options {
  all?: boolean;
  from?: string;
  to?: string;
  concurrency: string;
  pause: string;
  json?: boolean;
  publish: boolean;
  force?: boolean;
  frequency?: string;
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new UserError(`${flag} "${text}" must be a whole number from ${min} to ${max}`);
  return n;
}

export function formatSummary(summary: BackfillSummary): string {
  const head = [
    "BANK",
    "FROM",
    "TO",
    "CHUNKS",
    "DONE",
    "NOT-DONE",
    "SKIPPED",
    "FAILED",
    "ADDED",
    "REVISED",
    "UNCHANGED",
    "NO-PUBLICATION",
  ];
  // The bank column fits its longest name (`NBP (Weekly)`), eight wide at least.
  const bankWidth = Math.max(8, ...summary.banks.map((b) => sourceLabel(b.bankId).length + 1));
  const row = (cells: Array<string | number>) =>
    cells
      .map((c, i) => String(c).padEnd(i < 3 ? (i === 0 ? bankWidth : 11) : head[i]!.length + 2))
      .join("")
      .trimEnd();
  const lines = [row(head)];
  for (const b of summary.banks) {
    lines.push(
      row([
        sourceLabel(b.bankId),
        b.from,
        b.to,
        b.chunks,
        b.stored,
        b.unfinished,
        b.skipped,
        b.failed,
        b.inserted,
        b.revised,
        b.unchanged,
        b.daysWithoutPublication,
      ]),
    );
  }
  const t = summary.totals;
  lines.push(
    row([
      "total",
      "",
      "",
      t.chunks,
      t.stored,
      t.unfinished,
      t.skipped,
      t.failed,
      t.inserted,
      t.revised,
      t.unchanged,
      t.daysWithoutPublication,
    ]),
  );
  const notDone = summary.banks.flatMap((b) =>
    b.notDone.map((n) => `  ${sourceLabel(b.bankId)} ${n.from}..${n.to}: ${n.reason}`),
  );
  if (notDone.length)
    lines.push(
      "not done (fetched, but the answer did not contain these dates; the next run fetches them again):",
      ...notDone,
    );
  const errors = summary.banks.flatMap((b) => b.errors.map((e) => `  ${sourceLabel(b.bankId)} ${e}`));
  if (errors.length) lines.push("errors:", ...errors);
  if (summary.interrupted) lines.push("interrupted: run the same command again to resume where it stopped");
  return lines.join("\n");
}

/** What Ctrl-C waits for, said at once. */
export function stoppingMessage(
  progress: Progress,
  publishing: boolean,
  willPublish: boolean,
  now = Date.now(),
): string {
  if (publishing) return "publishing what was stored; again to quit at once (the next run publishes it)";
  const flying = progress.inFlight();
  const then = willPublish ? "then publishing what was stored" : "then stopping (--no-publish)";
  if (!flying.length) return `stopping; ${then}`;
  const chunks = flying.map(
    (c) => `${sourceLabel(c.bankId)} ${c.from}..${c.to} (fetching for ${formatDuration(now - c.since)})`,
  );
  return `stopping: waiting for ${flying.length === 1 ? "the chunk" : `${flying.length} chunks`} in flight to finish: ${chunks.join(", ")}; ${then}; again to quit at once`;
}

/** The adapters of the banks asked for, checked before anything opens; a named bank lacking its key is refused. */
async function chosenBanks(ids: string[], options: Options) {
  // A bank with two tables (NBP) is backfilled whole, or only the table of --frequency.
  const frequency = options.frequency === undefined ? undefined : frequencyArgument(options.frequency);
  const chosen = await sourcesFor(ids, options.all === true, frequency);
  const missing = chosen.filter((a) => a.bank.credential && !process.env[a.bank.credential.env]);
  if (!options.all && missing.length) {
    const a = missing[0]!;
    throw new UserError(`${a.bank.id} needs ${a.bank.credential!.env} (${a.bank.credential!.description})`);
  }
  return { usable: chosen.filter((a) => !missing.includes(a)), missing };
}

/** The plans of the banks asked for; a named bank whose coverage the range misses is refused, with --all left out. */
async function planFor(ids: string[], options: Options, log: Logger): Promise<BankBackfillPlan[]> {
  const { usable, missing } = await chosenBanks(ids, options);
  const plans = planBackfill(usable, {
    from: options.from,
    to: options.to,
    outside: options.all ? "skip" : "refuse",
  });
  for (const a of missing) log.warn({ bank: a.bank.id }, `skipped: needs ${a.bank.credential!.env}`);
  const outside = plans.filter((p) => p.outside);
  if (outside.length === plans.length && outside.length > 0)
    throw new UserError(`no bank covers the range asked for (${outside[0]!.outside})`);
  for (const p of outside) process.stderr.write(`exrates: skipped: ${p.outside}\n`);
  return plans;
}

/** Ctrl-C (or SIGTERM) once stops starting chunks and says what it waits for; twice quits at once. */
interface Stopper {
  controller: AbortController;
  /** Set while publishing, for the message said on a signal. */
  publishing: boolean;
  release(): void;
}

function handleSignals(progress: Progress, willPublish: boolean): Stopper {
  let signals = 0;
  const stopper: Stopper = { controller: new AbortController(), publishing: false, release: () => {} };
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      progress.clear();
      process.stderr.write(
        `exrates: ${signal} again: quitting now; run the same command again to publish what was stored\n`,
      );
      process.exit(130);
    }
    stopper.controller.abort();
    progress.clear();
    process.stderr.write(`exrates: ${signal}: ${stoppingMessage(progress, stopper.publishing, willPublish)}\n`);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  stopper.release = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  return stopper;
}

/** Reports each chunk handled: the bar, a note while stopping, a log line off a terminal. */
function chunkReporter(progress: Progress, stopper: Stopper, tty: boolean, log: Logger) {
  return (e: ChunkEvent) => {
    progress.finished(e);
    if (stopper.controller.signal.aborted && e.status !== "skipped") {
      // Stopping: each chunk that was in flight says how it ended.
      const left = progress.inFlight().length;
      progress.note(
        `exrates: ${sourceLabel(e.bankId)} ${e.from}..${e.to} ${e.status}${e.status === "stored" || e.status === "partial" ? ` (+${e.inserted} rows)` : ""}` +
          (left ? `; still waiting for ${left}` : ""),
      );
    }
    if (!tty) {
      const { status, ...fields } = e;
      (status === "failed" || status === "empty" ? log.warn.bind(log) : log.info.bind(log))(
        { event: "backfill-chunk", status, ...fields },
        `backfill chunk ${status}`,
      );
    }
  };
}

/**
 * Publishes the banks whose data changed in this run, and those an earlier run stored without publishing
 * (killed, --no-publish). Without a summary (the run threw) every bank of the plans is a candidate.
 */
async function publishChanged(
  ctx: CliContext,
  store: Store,
  plans: BankBackfillPlan[],
  summary: BackfillSummary | undefined,
  stopping: boolean,
): Promise<string[]> {
  const config = ctx.config();
  const changed = summary
    ? summary.banks.filter((b) => b.inserted + b.revised > 0).map((b) => b.bankId)
    : plans.map((p) => p.adapter.bank.id);
  const target = await treeTargetFor(config);
  const behind = await unpublishedBanks(
    store,
    target,
    plans.map((p) => p.adapter.bank.id),
  );
  const banks = [...new Set([...changed, ...behind])].sort();
  if (!banks.length) return [];
  if (stopping) process.stderr.write(`exrates: publishing ${banks.join(", ")}\n`);
  const signing = await publicationSigning(config);
  const result = await publish(store, await loadBanks(), target, { only: banks, signing });
  return result.rendered;
}

/** The backfill command's work, once its options are read. */
async function backfillAction(ctx: CliContext, ids: string[], options: Options): Promise<void> {
  // Everything the user typed is checked before the database is opened: bad input changes nothing.
  const concurrency = wholeNumber("--concurrency", options.concurrency, 1, 32);
  const pauseMs = wholeNumber("--pause", options.pause, 0, 60_000);
  if (options.all && ids.length) throw new UserError("give bank ids or --all, not both");
  const config = ctx.config();
  const log = ctx.log();
  const plans = await planFor(ids, options, log);

  const store = await ctx.store();
  const http = createHttpClient({
    mirror: config.feedMirror,
    onRetry: (info) => log.warn(info, "retrying a feed request"),
  });
  const total = plans.reduce((n, p) => n + p.chunks.length, 0);
  const tty = process.stderr.isTTY === true && !options.json;
  const progress = createProgress(total, { stream: process.stderr, bar: tty });
  const stopper = handleSignals(progress, options.publish);
  let summary: BackfillSummary | undefined;
  let published: string[] = [];
  try {
    summary = await runBackfill(store, plans, {
      http,
      env: process.env,
      concurrency,
      pauseMs,
      force: options.force === true,
      signal: stopper.controller.signal,
      onChunkStart: (chunk) => progress.started(chunk),
      onChunk: chunkReporter(progress, stopper, tty, log),
    });
  } finally {
    progress.clear();
    // Whatever was stored is published, even after a failure or an interruption.
    if (options.publish) {
      stopper.publishing = true;
      published = await publishChanged(ctx, store, plans, summary, stopper.controller.signal.aborted);
    }
    stopper.release();
  }

  ctx.print(
    options.json
      ? JSON.stringify({ ...summary, published }, null, 2)
      : formatSummary(summary) + (published.length ? `\npublished: ${published.map(sourceLabel).join(", ")}` : ""),
  );
  if (summary.interrupted) process.exitCode = 130;
  else if (summary.totals.failed > 0 || summary.totals.notDone > 0) process.exitCode = 1;
}

export function registerBackfill(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("backfill")
    .description("load the history of banks, chunked by what each API allows; resumable and idempotent")
    .argument("[banks...]", "bank ids")
    .option("--all", "every bank")
    .option("--from <date>", "first date (default: each bank's coverage start)")
    .option("--to <date>", "last date (default: today in each bank's zone)")
    .option("--concurrency <n>", "banks worked on at once; one request at a time per host", "2")
    .option("--pause <ms>", "pause between two requests to the same host", "250")
    .option("--json", "print the summary as JSON")
    .option("--force", "fetch again the ranges recorded as done (and forget those records)")
    .option("--no-publish", "do not re-publish the banks whose data changed")
    .option("--frequency <frequency>", "only the tables of this frequency (NBP: daily or weekly; default: every one)")
    .action(action(ctx, (ids: string[], options: Options) => backfillAction(ctx, ids, options)));
}

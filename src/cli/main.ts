#!/usr/bin/env node
// The one binary: `exrates <command>`. Each command lives in ./commands/<name>.ts and registers itself.
// Only the command being run is imported (a long-running `serve` should not carry the publisher, the
// spreadsheet and PDF readers and ninety adapters in memory); help and unknown commands load them all.
import { Command, CommanderError } from "commander";

import { checkLogLevel } from "../config.js";
import { setDefaultLogLevel } from "../log.js";
import { keepYoungGenerationSmall } from "../serve/heap.js";
import { createCliContext, type CliContext } from "./context.js";

const DAEMONS = new Set(["start", "serve"]);
const named = process.argv[2];

type Register = (program: Command, ctx: CliContext & { close(): Promise<void> }) => void;

const COMMANDS: Record<string, () => Promise<Register>> = {
  import: async () => (await import("./commands/import.js")).registerImport,
  parse: async () => (await import("./commands/parse.js")).registerParse,
  publish: async () => (await import("./commands/publish.js")).registerPublish,
  banks: async () => (await import("./commands/banks.js")).registerBanks,
  convert: async () => (await import("./commands/convert.js")).registerConvert,
  pair: async () => (await import("./commands/pair.js")).registerPair,
  average: async () => (await import("./commands/average.js")).registerAverage,
  backfill: async () => (await import("./commands/backfill.js")).registerBackfill,
  ingest: async () => (await import("./commands/ingest.js")).registerIngest,
  start: async () => (await import("./commands/start.js")).registerStart,
  serve: async () => (await import("./commands/serve.js")).registerServe,
  clients: async () => (await import("./commands/clients.js")).registerClients,
  keys: async () => (await import("./commands/keys.js")).registerKeys,
  anomalies: async () => (await import("./commands/anomalies.js")).registerAnomalies,
  corrections: async () => (await import("./commands/corrections.js")).registerCorrections,
  verify: async () => (await import("./commands/verify.js")).registerVerify,
  webhooks: async () => (await import("./commands/webhooks.js")).registerWebhooks,
  mcp: async () => (await import("./commands/mcp.js")).registerMcp,
};

// A reader that went away (`exrates banks --json | head -1`) ends the command quietly: what it wanted
// it has. Any other failure to write the output is one line.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") process.stderr.write(`exrates: cannot write the output: ${error.message}\n`);
    process.exit(error.code === "EPIPE" ? (process.exitCode ?? 0) : 1);
  });
}
// The logger writes to stderr synchronously: a closed pipe there is thrown, not emitted.
process.on("uncaughtException", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`exrates: unexpected error: ${error.stack ?? error.message}\n`);
  process.exit(1);
});

// Every command logs: a LOG_LEVEL pino does not know is one line, before anything runs.
const badLevel = checkLogLevel(process.env.LOG_LEVEL);
if (badLevel) {
  process.stderr.write(`exrates: ${badLevel}\n`);
  process.exit(1);
}

// The daemons log their work at info; a one-off command only its warnings and errors, unless LOG_LEVEL
// says otherwise, so that its output is not interleaved with log lines when stderr is not a terminal.
setDefaultLogLevel(DAEMONS.has(named ?? "") ? "info" : "warn");

// `exrates serve` keeps its young generation at V8's initial size (src/serve/heap.ts). Set before the
// command's modules load: set once they had (in the command's action), the young generation still grew
// from 4 to 8 MiB under Latest's load, about 5 MiB more resident (BENCHMARKS.md, Serve).
if (named === "serve") keepYoungGenerationSmall();

const ctx = createCliContext();
const program = new Command("exrates")
  .description("Official daily exchange rates of central banks: fetch, store exactly, publish, serve.")
  .version("0.1.0")
  .showHelpAfterError(false)
  .exitOverride();

const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
for (const register of await Promise.all(wanted.map((name) => COMMANDS[name]!()))) register(program, ctx);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has already printed its one line (unknown command, missing argument, --help).
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`exrates: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

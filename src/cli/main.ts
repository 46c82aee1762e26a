#!/usr/bin/env node
// The one binary: `exrates <command>`. Each command lives in ./commands/<name>.ts and registers itself.
// Only the command being run is imported (a long-running `serve` should not carry the publisher, the
// spreadsheet and PDF readers and ninety adapters in memory); help and unknown commands load them all.
import { Command, CommanderError } from "commander";

import { createCliContext, type CliContext } from "./context.js";

type Register = (program: Command, ctx: CliContext & { close(): Promise<void> }) => void;

const COMMANDS: Record<string, () => Promise<Register>> = {
  import: async () => (await import("./commands/import.js")).registerImport,
  parse: async () => (await import("./commands/parse.js")).registerParse,
  publish: async () => (await import("./commands/publish.js")).registerPublish,
  banks: async () => (await import("./commands/banks.js")).registerBanks,
  backfill: async () => (await import("./commands/backfill.js")).registerBackfill,
  ingest: async () => (await import("./commands/ingest.js")).registerIngest,
  start: async () => (await import("./commands/start.js")).registerStart,
  serve: async () => (await import("./commands/serve.js")).registerServe,
  clients: async () => (await import("./commands/clients.js")).registerClients,
  keys: async () => (await import("./commands/keys.js")).registerKeys,
  anomalies: async () => (await import("./commands/anomalies.js")).registerAnomalies,
  webhooks: async () => (await import("./commands/webhooks.js")).registerWebhooks,
};

const ctx = createCliContext();
const program = new Command("exrates")
  .description("Official daily exchange rates of central banks: fetch, store exactly, publish, serve.")
  .version("0.1.0")
  .showHelpAfterError(false)
  .exitOverride();

const named = process.argv[2];
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

#!/usr/bin/env node
// The one binary: `exrates <command>`. Each command lives in ./commands/<name>.ts and registers itself.
import { Command, CommanderError } from "commander";

import { createCliContext } from "./context.js";
import { registerBackfill } from "./commands/backfill.js";
import { registerBanks } from "./commands/banks.js";
import { registerClients } from "./commands/clients.js";
import { registerImport } from "./commands/import.js";
import { registerIngest } from "./commands/ingest.js";
import { registerKeys } from "./commands/keys.js";
import { registerParse } from "./commands/parse.js";
import { registerPublish } from "./commands/publish.js";
import { registerServe } from "./commands/serve.js";
import { registerStart } from "./commands/start.js";

const ctx = createCliContext();
const program = new Command("exrates")
  .description("Official daily exchange rates of central banks: fetch, store exactly, publish, serve.")
  .version("0.1.0")
  .showHelpAfterError(false)
  .exitOverride();

for (const register of [registerImport, registerParse, registerPublish, registerBanks, registerBackfill, registerIngest, registerStart, registerServe, registerClients, registerKeys]) register(program, ctx);

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

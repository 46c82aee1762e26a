// What every command gets: configuration, a logger, the store, and a uniform way to fail.
import { loadConfig, type Config } from "../config.js";
import { describeError } from "../errors.js";
import { logger, type Logger } from "../log.js";
import { openStore, type Store } from "../store/database.js";

export interface CliContext {
  config(): Config;
  log(): Logger;
  /** Opens (and migrates) the database once; closed by the runner after the command. */
  store(): Promise<Store>;
  /** Command output (stdout). */
  print(text: string): void;
}

export function createCliContext(): CliContext & { close(): Promise<void> } {
  let config: Config | undefined;
  let store: Promise<Store> | undefined;
  return {
    config: () => (config ??= loadConfig()),
    log: () => logger(),
    store: () => (store ??= openStore((config ??= loadConfig()).databasePath)),
    print: (text) => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    async close() {
      if (store) await (await store).close();
    },
  };
}

/**
 * Wraps a command's action: any error becomes one line on stderr and exit code 1, never a stack
 * trace (LOG_LEVEL=debug adds the stack for bug reports).
 */
export function action<A extends unknown[]>(
  ctx: CliContext & { close(): Promise<void> },
  fn: (...args: A) => Promise<void> | void,
) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (error) {
      process.stderr.write(`exrates: ${describeError(error)}\n`);
      if (process.env.LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
      process.exitCode = 1;
    } finally {
      await ctx.close().catch(() => undefined);
    }
  };
}

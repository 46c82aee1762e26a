// `exrates verify <dir> [--jwks FILE]`: checks a copy of a published tree against its signed manifest,
// offline; names each missing, extra or altered file; exit 1 on any.
import { readFile } from "node:fs/promises";

import type { Command } from "commander";
import type { JSONWebKeySet } from "jose";

import { UserError } from "../../errors.js";
import { verifyBucket, verifyDirectory } from "../../publish/verify.js";
import { action, type CliContext } from "../context.js";

async function readJwks(path: string): Promise<JSONWebKeySet> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as JSONWebKeySet;
  } catch (error) {
    throw new UserError(`--jwks ${path}: ${(error as Error).message}`);
  }
}

export function registerVerify(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("verify")
    .description(
      "check a copy of a published tree against its signed manifest (exit 1 on any missing, extra or altered file)",
    )
    .argument(
      "<location>",
      "a directory (an out/ tree or one generation) or s3://bucket/prefix (its current generation)",
    )
    .option("--jwks <file>", "the service's publication keys (default: the JWKS beside the copy)")
    .action(
      action(ctx, async (location: string, options: { jwks?: string }) => {
        if (/^https?:\/\//i.test(location))
          throw new UserError(`${location}: only a directory or an s3:// bucket can be verified by this version`);
        const jwks = options.jwks ? await readJwks(options.jwks) : undefined;
        const result = /^s3:\/\//i.test(location)
          ? await verifyBucket(location, jwks)
          : await verifyDirectory(location, jwks);
        for (const p of result.problems) ctx.print(`${p.problem.padEnd(9)} ${p.path}: ${p.detail}`);
        if (result.problems.length) {
          process.exitCode = 1;
          return ctx.print(`FAILED: ${result.problems.length} problem(s) in generation ${result.generation ?? "?"}`);
        }
        ctx.print(
          `OK: generation ${result.generation}, ${result.files} files, signed by ${result.kid}${options.jwks ? "" : " (the key set beside the copy)"}`,
        );
      }),
    );
}

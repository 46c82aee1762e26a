// `exrates verify <dir | s3://bucket/prefix | https://host[/prefix]> [--jwks FILE] [--token TOKEN]`:
// checks a copy of a published tree against its signed manifest; names each missing, extra or altered
// file and a bad signature; exit 1 on any; exit 3 (UNSIGNED) for a whole copy that carries no signature
// at all. Over HTTP (src/publish/verify-http.ts) the token is --token, else EXRATES_TOKEN, else one granted to EXRATES_CLIENT_ID / EXRATES_CLIENT_SECRET.
import { readFile } from "node:fs/promises";

import type { Command } from "commander";
import type { JSONWebKeySet } from "jose";

import { UserError } from "../../errors.js";
import { registerSecret } from "../../secrets.js";
import { verifyBucket, verifyDirectory, type VerifyResult } from "../../publish/verify.js";
import { action, type CliContext } from "../context.js";

/** The exit code of a copy whose files match its manifest but that is not signed. */
const UNSIGNED_EXIT = 3;

async function readJwks(path: string): Promise<JSONWebKeySet> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as JSONWebKeySet;
  } catch (error) {
    throw new UserError(`--jwks ${path}: ${(error as Error).message}`);
  }
}

/** The check of one location, and what to say of the key set used. */
async function verifyLocation(
  location: string,
  options: { jwks?: string; token?: string },
): Promise<{ result: VerifyResult; keySet: string; notes: string[] }> {
  const jwks = options.jwks ? await readJwks(options.jwks) : undefined;
  if (/^https?:\/\//i.test(location)) {
    const { verifyUrl } = await import("../../publish/verify-http.js");
    const env = process.env;
    // A token given on the command line is masked wherever text leaves the process, as EXRATES_TOKEN is.
    registerSecret(options.token);
    const result = await verifyUrl(location, {
      jwks,
      token: options.token || env.EXRATES_TOKEN || undefined,
      clientId: env.EXRATES_CLIENT_ID || undefined,
      clientSecret: env.EXRATES_CLIENT_SECRET || undefined,
      tokenUrl: env.EXRATES_TOKEN_URL || undefined,
      issuer: env.EXRATES_OIDC_ISSUER || undefined,
      realm: env.EXRATES_REALM || undefined,
      scope: env.EXRATES_SCOPE || undefined,
    });
    return {
      result,
      keySet: jwks ? "" : ` (${result.keySet})`,
      notes: [
        `read from ${result.copy}/; a URL prefix cannot be listed, so files the manifest does not name were not looked for`,
      ],
    };
  }
  const result = /^s3:\/\//i.test(location)
    ? await verifyBucket(location, jwks)
    : await verifyDirectory(location, jwks);
  return { result, keySet: jwks ? "" : " (the key set beside the copy)", notes: [] };
}

export function registerVerify(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("verify")
    .description(
      "check a copy of a published tree against its signed manifest (exit 1 on any missing, extra or altered file)",
    )
    .argument(
      "<location>",
      "a directory (an out/ tree or one generation), s3://bucket/prefix (its current generation), " +
        "https://host (the service's current generation) or https://host/prefix (a copy at that URL)",
    )
    .option(
      "--jwks <file>",
      "the service's publication keys (default: the host's /v1/publications/jwks.json over HTTP, else the JWKS beside the copy)",
    )
    .option(
      "--token <token>",
      "a bearer token for an https:// service (default: EXRATES_TOKEN, else a token for EXRATES_CLIENT_ID / EXRATES_CLIENT_SECRET)",
    )
    .action(
      action(ctx, async (location: string, options: { jwks?: string; token?: string }) => {
        const { result, keySet, notes } = await verifyLocation(location, options);
        for (const note of notes) ctx.print(`note: ${note}`);
        for (const p of result.problems) ctx.print(`${p.problem.padEnd(9)} ${p.path}: ${p.detail}`);
        const unsigned = result.unsigned ? " (and it is UNSIGNED)" : "";
        if (result.problems.length) {
          process.exitCode = 1;
          return ctx.print(
            `FAILED: ${result.problems.length} problem(s) in generation ${result.generation ?? "?"}${unsigned}`,
          );
        }
        if (result.unsigned) {
          process.exitCode = UNSIGNED_EXIT;
          return ctx.print(
            `UNSIGNED: generation ${result.generation}, ${result.files} files match its manifest, but it carries no signature (published with EXRATES_PUBLICATION_SIGNING=off): nothing proves who wrote it`,
          );
        }
        ctx.print(`OK: generation ${result.generation}, ${result.files} files, signed by ${result.kid}${keySet}`);
      }),
    );
}

// How a saved answer was asked for, from `exrates parse` / `exrates import` options: --url, --method and
// --form key=value (repeatable), as the daemon sent them, so that the CLI reads the answer as the
// daemon would.
import type { Command } from "commander";

import { UserError } from "../errors.js";
import type { SavedRequest } from "../ingest/ingest.js";

export interface SavedRequestOptions {
  url?: string;
  method?: string;
  form: string[];
}

/** Adds --url, --method and --form to a command. */
export function savedRequestOptions(command: Command): Command {
  return command
    .option("--url <url>", "the URL the response was fetched from (adapters with several endpoints use it)")
    .option("--method <method>", "how it was asked for, as the daemon asked: GET (default) or POST")
    .option(
      "--form <key=value>",
      "a field of the form the daemon posted, as sent (repeatable, in order; implies --method POST)",
      (pair: string, all: string[]) => [...all, pair],
      [],
    );
}

/** The request the options describe; a malformed option is a UserError. */
export function savedRequest(options: SavedRequestOptions): SavedRequest {
  const method = options.method?.toUpperCase() ?? (options.form.length > 0 ? "POST" : "GET");
  if (method !== "GET" && method !== "POST") throw new UserError(`--method "${options.method}": GET or POST`);
  if (method === "GET" && options.form.length > 0) throw new UserError("--form sends a POST: drop --method GET");
  const form = new URLSearchParams();
  for (const pair of options.form) {
    const at = pair.indexOf("=");
    if (at < 1) throw new UserError(`--form "${pair}" is not key=value`);
    form.append(pair.slice(0, at), pair.slice(at + 1));
  }
  return {
    url: options.url,
    method,
    ...(options.form.length > 0 && { requestBody: form.toString() }),
  };
}

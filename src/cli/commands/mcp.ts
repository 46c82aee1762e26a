// `exrates mcp [--http PORT] [--host HOST]`: the MCP server for assistants (docs/MCP.md). On stdio (an
// assistant host starts it) it reads the API with the client credentials of EXRATES_CLIENT_ID and
// EXRATES_CLIENT_SECRET; over HTTP each caller brings its own bearer token, checked by the API.
import type { Command } from "commander";

import { ExratesClient, ResponseCache } from "@exrates/client";
import { UserError } from "../../errors.js";
import { startMcpHttp } from "../../mcp/http.js";
import { mcpSettings } from "../../mcp/config.js";
import { originPolicy } from "../../mcp/origin.js";
import { createRatesMcpServer } from "../../mcp/server.js";
import { action, type CliContext } from "../context.js";

export function registerMcp(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("mcp")
    .description("serve the rates to assistants over MCP: on stdio, or with --http on streamable HTTP at /mcp")
    .option("--http <port>", "listen on this port (streamable HTTP, bearer-checked like the API) instead of stdio")
    .option("--host <host>", "the address to listen on with --http", "127.0.0.1")
    .action(
      action(ctx, async (options: { http?: string; host: string }) => {
        const settings = mcpSettings(ctx.config(), process.env);
        const log = ctx.log();
        if (options.http !== undefined) {
          const port = Number(options.http);
          if (!/^\d+$/.test(options.http) || port > 65535)
            throw new UserError(`--http "${options.http}" is not a port number`);
          // One cache for every caller: a 304 is answered only after the API accepted the caller's token.
          const cache = new ResponseCache();
          const running = await startMcpHttp({
            host: options.host,
            port,
            apiUrl: settings.apiUrl,
            realm: settings.realm,
            clientFor: (token) => new ExratesClient({ baseUrl: settings.apiUrl, token: () => token, cache }),
            log,
            origins: originPolicy(process.env),
          });
          log.info({ url: running.url, apiUrl: settings.apiUrl }, "mcp serving");
          ctx.print(`exrates mcp serving on ${running.url} (API ${settings.apiUrl})`);
          await untilStopped();
          await running.close();
          return;
        }
        if (!settings.clientId || !settings.clientSecret)
          throw new UserError(
            "exrates mcp needs EXRATES_CLIENT_ID and EXRATES_CLIENT_SECRET (a client made with `exrates clients create`) to read the API",
          );
        const client = new ExratesClient({
          baseUrl: settings.apiUrl,
          tokenUrl: settings.tokenUrl,
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
          scope: settings.scope,
        });
        const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
        const server = createRatesMcpServer(client);
        // stdout carries the protocol: every log line goes to stderr (src/log.ts).
        await server.connect(new StdioServerTransport());
        log.info({ apiUrl: settings.apiUrl }, "mcp serving on stdio");
        await untilStopped(true);
        await server.close();
      }),
    );
}

/** Until SIGINT or SIGTERM (or, on stdio, the host closing our stdin). */
function untilStopped(stdin = false): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    if (stdin) {
      process.stdin.once("end", stop);
      process.stdin.once("close", stop);
    }
  });
}

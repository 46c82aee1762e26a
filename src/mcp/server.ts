// The exrates MCP server: the rates tools (./tools.ts) on an McpServer of the official SDK, for any
// transport (stdio for a local assistant host, streamable HTTP for a remote one: ./http.ts).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import { registerRatesTools, type RatesReader } from "./tools.js";

export const MCP_SERVER_INFO = { name: "exrates", version: "0.1.0" } as const;

const INSTRUCTIONS =
  "Official daily exchange rates published by central banks, digit for digit. Each rate is the bank's " +
  "exact decimal for a stated number of units (`unit`) in a stated direction (`reads`, e.g. " +
  '"100 JPY = 13.26033 CZK"), for the bank\'s effective date: quote it as given, with its bank and date.';

export function createRatesMcpServer(client: RatesReader): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  registerRatesTools(server, client);
  return server;
}

// The MCP tools: each reads the API through the typed client (@exrates/client) and answers with structured
// content (its zod output schema) and the same in words. Every figure states its bank, its effective
// date and its unit; a refusal of the API (unknown bank, no rates yet, no set in force on a date, a
// currency not quoted) is a tool error that says why and names the problem. Every input is strict: a key
// a tool does not know is refused. A new tool is one `server.registerTool` in the file of its kind:
// tools-banks.ts (list_banks, list_currencies, get_calendar), tools-rates.ts (get_latest_rates,
// get_rates_on_date, get_rate_history, compare_banks), tools-figures.ts (convert, list_corrections,
// average_rate).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import type { RatesReader } from "./answer.js";
import { registerBankTools } from "./tools-banks.js";
import { registerFigureTools } from "./tools-figures.js";
import { registerRateTools } from "./tools-rates.js";

export type { RatesReader } from "./answer.js";
export { MAX_HISTORY_POINTS } from "./tools-rates.js";

/** Each MCP tool and the API route it reads (docs/MCP.md; test/docs/coverage.test.ts checks the routes exist). */
export const TOOL_ROUTES = {
  list_banks: "/v1/banks",
  list_currencies: "/v1/currencies{.format}",
  get_calendar: "/v1/Banks/{bankId}/Calendar{.format}",
  get_latest_rates: "/v1/Banks/{bankId}/DailyRates/Latest{.format}",
  get_rates_on_date: "/v1/Banks/{bankId}/DailyRates/{date}{.format}",
  get_rate_history: "/v1/Banks/{bankId}/DailyRates{.format}",
  convert: "/v1/Banks/{bankId}/Convert{.format}",
  list_corrections: "/v1/Banks/{bankId}/Corrections{.format}",
  compare_banks: "/v1/Pairs/{rest...}",
  // A bank's grouped range; a pair's average reads /v1/Pairs/{BASE}/{QUOTE}?from&to&group=.
  average_rate: "/v1/Banks/{bankId}/DailyRates{.format}",
} as const;

export function registerRatesTools(server: McpServer, client: RatesReader): void {
  registerBankTools(server, client);
  registerRateTools(server, client);
  registerFigureTools(server, client);
}

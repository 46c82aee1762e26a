// The MCP tools that compute or audit figures: `convert` (an amount through a bank's table, exact
// decimal arithmetic by the API) and `list_corrections` (every revision of a stored figure, with where
// both figures came from).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

import { answer, type RatesReader } from "./answer.js";
import { bankId, currencyCode, isoDate, source, strictInput } from "./schemas.js";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerFigureTools(server: McpServer, client: RatesReader): void {
  registerConvert(server, client);
  registerCorrections(server, client);
}

function registerConvert(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "convert",
    {
      title: "Convert an amount through a bank's rates",
      description:
        "Converts an amount from one currency to another through one bank's published figures (the latest set, or the set in force on a date), in exact decimal arithmetic, rounded half away from zero to the target currency's minor units; gives the formula and the figures used.",
      inputSchema: strictInput({
        bank: bankId,
        from: currencyCode.describe("The currency of the amount (ISO 4217)"),
        to: currencyCode.describe("The currency to convert to (ISO 4217)"),
        amount: z
          .string()
          .regex(/^\d+(\.\d+)?$/, "a plain non-negative decimal such as 1250.00")
          .describe("The amount, a plain decimal as text, e.g. 1250.00"),
        date: isoDate.optional().describe("Convert with the rates in force on this date (default: the latest)"),
      }),
      outputSchema: {
        bankId: z.string(),
        baseCurrency: z.string(),
        quoteType: z.enum(["Direct", "Indirect"]),
        date: isoDate.optional(),
        effectiveDate: isoDate,
        amount: z.string(),
        from: z.string(),
        to: z.string(),
        result: z.string().describe("Rounded to the target currency's minor units"),
        unrounded: z.string(),
        unroundedExact: z.boolean(),
        rounding: z.object({ rule: z.string(), decimals: z.number().int() }),
        formula: z.string(),
        figures: z.array(
          z.object({ currency: z.string(), rate: z.string(), unit: z.number().int(), effectiveDate: isoDate }),
        ),
      },
      annotations: READ_ONLY,
    },
    ({ bank, from, to, amount, date }) =>
      answer(
        async () => {
          const c = await client.convert(bank, { from, to, amount, ...(date ? { date } : {}) });
          const text =
            `${c.amount} ${c.from} = ${c.result} ${c.to} by ${c.bankId}'s rates of ${c.effectiveDate}` +
            `${c.date && c.date !== c.effectiveDate ? ` (in force on ${c.date})` : ""}: ${c.formula}` +
            ` (unrounded ${c.unrounded}${c.unroundedExact ? "" : "…"}, rounded ${c.rounding.rule} to ${c.rounding.decimals} decimals)`;
          return { structured: { ...c }, text };
        },
        { client, bank },
      ),
  );
}

const corrected = z.object({
  rate: z.string(),
  unitMultiplier: z.number().int().optional(),
  storedAt: z.string(),
  source,
});

function registerCorrections(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "list_corrections",
    {
      title: "Corrections of a bank's published figures",
      description:
        "Every revision of a stored figure of one bank made between two dates (UTC dates of the correction; default this year): the effective date and currency, the previous and the new figure, when each was stored and where each came from.",
      inputSchema: strictInput({
        bank: bankId,
        from: isoDate.optional().describe("First day of corrections, YYYY-MM-DD (default: 1 January)"),
        to: isoDate.optional().describe("Last day of corrections, YYYY-MM-DD (default: today)"),
      }),
      outputSchema: {
        bankId: z.string(),
        from: isoDate,
        to: isoDate,
        corrections: z.array(
          z.object({ effectiveDate: isoDate, currency: z.string(), previous: corrected, current: corrected }),
        ),
      },
      annotations: READ_ONLY,
    },
    ({ bank, from, to }) =>
      answer(
        async () => {
          const list = await client.corrections(bank, { ...(from ? { from } : {}), ...(to ? { to } : {}) });
          const lines = [
            `${list.bankId}: ${list.corrections.length} corrections from ${list.from} to ${list.to}`,
            ...list.corrections.map(
              (c) =>
                `${c.effectiveDate} ${c.currency}: ${c.previous.rate} -> ${c.current.rate} (corrected ${c.current.storedAt}, from ${c.current.source.url})`,
            ),
          ];
          return { structured: { ...list }, text: lines.join("\n") };
        },
        { client, bank },
      ),
  );
}

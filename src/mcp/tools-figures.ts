// The MCP tools that compute or audit figures: `convert` (an amount through a bank's table, exact
// decimal arithmetic by the API) and `list_corrections` (every revision of a stored figure, with where
// both figures came from).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

import type { BankPeriodAverage } from "@exrates/client";

import { answer, sourceLine, ToolRefusal, type RatesReader } from "./answer.js";
import {
  bankId,
  banks,
  base,
  currencies,
  currencyCode,
  group,
  isoDate,
  periodAverage,
  rounding,
  source,
  strictInput,
} from "./schemas.js";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerFigureTools(server: McpServer, client: RatesReader): void {
  registerConvert(server, client);
  registerCorrections(server, client);
  registerAverage(server, client);
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
                `${c.effectiveDate} ${c.currency}: ${c.previous.rate} -> ${c.current.rate} (corrected ${c.current.storedAt}, from ${sourceLine(c.current.source)})`,
            ),
          ];
          return { structured: { ...list }, text: lines.join("\n") };
        },
        { client, bank },
      ),
  );
}

/** One average in words: "2026-03 EUR: 24.16357143 (mean of 7 days, 2026-03-02 to 2026-03-31; partial)". */
function averageLine(a: z.infer<typeof periodAverage>): string {
  return (
    `${a.period} ${a.currency ?? a.bankId}: ${a.mean}${a.exact ? "" : " (rounded)"}, mean of ${a.days} days ${a.first} to ${a.last}` +
    `, min ${a.min}, max ${a.max}, end of period ${a.endOfPeriod}${a.partial ? "; partial: the range cuts the period" : ""}`
  );
}

function registerAverage(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "average_rate",
    {
      title: "Average rate of a period",
      description:
        "The exact arithmetic mean of the published daily figures per week, month, quarter or year (IAS 21's average rate for income and expenses): of one bank's currencies (`bank`, optional `currencies` and `base`), or of one pair as each bank prices it (`base` and `quote`, optional `banks`). Each period gives its mean, the number of days averaged, the first and last dates, min, max, the end-of-period figure, and whether the range cuts it.",
      inputSchema: strictInput({
        bank: bankId.optional().describe("Average this bank's table (give it, or base and quote)"),
        currencies,
        base: base.describe("With bank: re-express the table against this currency; with quote: the pair's base"),
        quote: currencyCode.optional().describe("Average the pair base/quote across banks (QUOTE per one BASE)"),
        banks,
        from: isoDate.describe("First day, YYYY-MM-DD"),
        to: isoDate.optional().describe("Last day, YYYY-MM-DD (default: today)"),
        group,
      }),
      outputSchema: {
        bankId: z.string().optional(),
        baseCurrency: z.string().optional(),
        quoteType: z.enum(["Direct", "Indirect"]).optional(),
        base: z.string().optional(),
        quote: z.string().optional(),
        group,
        from: isoDate,
        to: isoDate.optional(),
        rounding,
        averages: z.array(periodAverage),
      },
      annotations: READ_ONLY,
    },
    (args) => answer(() => averageAnswer(client, args), args.bank ? { client, bank: args.bank } : undefined),
  );
}

interface AverageArgs {
  bank?: string;
  currencies?: string[];
  base?: string;
  quote?: string;
  banks?: string[];
  from: string;
  to?: string;
  group: z.infer<typeof group>;
}

async function averageAnswer(client: RatesReader, args: AverageArgs) {
  const { bank, currencies: only, base: b, quote, banks: ids, from, to, group: g } = args;
  const span = { from, ...(to ? { to } : {}), group: g };
  if (quote !== undefined) {
    if (bank !== undefined || only !== undefined || b === undefined)
      throw new ToolRefusal("average_rate: a pair's average takes base and quote (and banks), not bank or currencies");
    const doc = await client.pair(b.toUpperCase(), quote.toUpperCase(), { ...span, ...(ids ? { banks: ids } : {}) });
    const head = `${doc.base}/${doc.quote} (${doc.quote} per one ${doc.base}), ${doc.group}ly averages of each bank's daily figure, ${doc.from} to ${doc.to}:`;
    return { structured: { ...doc }, text: [head, ...doc.averages.map(averageLine)].join("\n") };
  }
  if (bank === undefined || ids !== undefined)
    throw new ToolRefusal(
      "average_rate: give bank (a bank's table) or base and quote (a pair), and banks only with a pair",
    );
  const averages = [];
  for await (const a of client.range(bank, {
    ...span,
    ...(only ? { currencies: only } : {}),
    ...(b ? { base: b } : {}),
  }))
    averages.push(a);
  const first = averages[0];
  const { bankId: id, baseCurrency, quoteType } = first ?? { bankId: bank.toUpperCase() };
  const reads = first
    ? `${quoteType === "Direct" ? `${baseCurrency} per one unit` : `units per one ${baseCurrency}`}`
    : "";
  const head = `${id}'s ${g}ly averages from ${from}${to ? ` to ${to}` : ""}${reads ? ` (${reads})` : ""}:`;
  const structured = {
    bankId: id,
    ...(first ? { baseCurrency, quoteType } : {}),
    group: g,
    from,
    ...(to ? { to } : {}),
    rounding: { digits: 10, rule: "half away from zero" },
    averages: averages.map(periodFigures),
  };
  return { structured, text: [head, ...averages.map(averageLine)].join("\n") };
}

/** An average as the API lists it (the table it is of said once, above). */
function periodFigures(
  a: BankPeriodAverage,
): Omit<BankPeriodAverage, "bankId" | "baseCurrency" | "quoteType" | "derivedFrom"> {
  const copy: Partial<BankPeriodAverage> = { ...a };
  delete copy.bankId;
  delete copy.baseCurrency;
  delete copy.quoteType;
  delete copy.derivedFrom;
  return copy as Omit<BankPeriodAverage, "bankId" | "baseCurrency" | "quoteType" | "derivedFrom">;
}

// The MCP tools that read a bank's rates: the latest set, the set in force on a date, and one currency
// over a range. Each works for a daily bank and for a period source (monthly, quarterly: the client finds
// its path; each figure carries its validity), with `asOf`, and the set tools with `base` and `provenance`.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

import type { DailyRates, RatesOptions } from "@exrates/client";
import {
  answer,
  detailOf,
  englishName,
  pick,
  ratesAnswer,
  storedSpan,
  ToolRefusal,
  type Answer,
  type RatesReader,
} from "./answer.js";
import { bankLabel, figureOf, quoteLine } from "./describe.js";
import {
  asOf,
  banks,
  base,
  bankId,
  bankRef,
  consensus,
  currencies,
  currencyCode,
  isoDate,
  pairFigure,
  ratesOutput,
  rounding,
  strictInput,
} from "./schemas.js";

/** A history longer than this many dates is refused: the answer would swamp an assistant's context. */
export const MAX_HISTORY_POINTS = 1000;

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const provenance = z
  .boolean()
  .optional()
  .describe("Name the bank's answers (URL, time fetched, sha256) the figures came from");

/** Which of a bank's frequencies (NBP publishes Daily and Weekly rates); absent: the one it publishes at. */
const frequency = z
  .enum(["Daily", "Weekly", "Monthly", "Quarterly"])
  .optional()
  .describe("Which of the bank's frequencies (NBP: Daily or Weekly); default: the bank's own");

/** The client's options of a set tool's arguments (absent ones left out). */
function setOptions(args: {
  currencies?: string[];
  asOf?: string;
  base?: string;
  provenance?: boolean;
  frequency?: RatesOptions["frequency"];
}): RatesOptions {
  const options: RatesOptions = {};
  if (args.frequency !== undefined) options.frequency = args.frequency;
  if (args.currencies) options.currencies = args.currencies;
  if (args.asOf !== undefined) options.asOf = args.asOf;
  if (args.base !== undefined) options.base = args.base;
  if (args.provenance !== undefined) options.provenance = args.provenance;
  return options;
}

export function registerRateTools(server: McpServer, client: RatesReader): void {
  registerLatest(server, client);
  registerOnDate(server, client);
  registerHistory(server, client);
  registerCompareBanks(server, client);
}

function registerLatest(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "get_latest_rates",
    {
      title: "Latest official rates of a bank",
      description:
        "The bank's latest published exchange rates (a monthly or quarterly source's: the set in force, each figure with its validity): the effective date, and each currency's exact rate with its unit and direction.",
      inputSchema: strictInput({ bank: bankId, currencies, base, asOf, provenance, frequency }),
      outputSchema: ratesOutput,
      annotations: READ_ONLY,
    },
    (args) =>
      answer(
        async () => {
          const [rates, detail] = await Promise.all([
            client.latest(args.bank, setOptions(args)),
            detailOf(client, args.bank),
          ]);
          return ratesAnswer(rates, detail, `latest rates, effective ${rates.effectiveDate}`);
        },
        { client, bank: args.bank },
      ),
  );
}

function registerOnDate(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "get_rates_on_date",
    {
      title: "Official rates of a bank on a date",
      description:
        "The rates in force on a date: the bank's newest publication on or before it (a weekend or holiday gives the previous publication; a monthly source gives the month's figures).",
      inputSchema: strictInput({
        bank: bankId,
        date: isoDate.describe("The date, YYYY-MM-DD"),
        currencies,
        base,
        asOf,
        provenance,
        frequency,
      }),
      outputSchema: { ...ratesOutput, requestedDate: isoDate },
      annotations: READ_ONLY,
    },
    (args) =>
      answer(
        async () => {
          const { bank, date } = args;
          const [rates, detail] = await Promise.all([
            client.onDate(bank, date, setOptions(args)),
            detailOf(client, bank),
          ]);
          const when =
            rates.effectiveDate === date
              ? `rates of ${date}`
              : `rates in force on ${date}: those published for ${rates.effectiveDate}`;
          const result = ratesAnswer(rates, detail, when);
          return { structured: { ...result.structured, requestedDate: date }, text: result.text };
        },
        { client, bank: args.bank },
      ),
  );
}

function registerHistory(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "get_rate_history",
    {
      title: "One currency's official rate over a range of dates",
      description: `Every published rate of one currency by one bank from one date to another, oldest first (at most ${MAX_HISTORY_POINTS} dates per call; a monthly source gives one figure per period, with its validity).`,
      inputSchema: strictInput({
        bank: bankId,
        currency: currencyCode.describe("The currency, ISO 4217 (e.g. USD)"),
        from: isoDate.describe("First date, YYYY-MM-DD"),
        to: isoDate.optional().describe("Last date, YYYY-MM-DD (default: today)"),
        asOf,
        frequency,
      }),
      outputSchema: {
        bank: bankRef,
        currency: z.string(),
        baseCurrency: z.string(),
        quoteType: z.enum(["Direct", "Indirect"]),
        frequency: ratesOutput.frequency,
        from: isoDate,
        to: isoDate.optional(),
        points: z.array(
          z.object({
            effectiveDate: isoDate,
            rate: z.string(),
            unit: z.number().int(),
            reads: z.string(),
            validFrom: isoDate.optional(),
            validTo: isoDate.optional(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    (args) => answer(() => history(client, args), { client, bank: args.bank }),
  );
}

async function history(
  client: RatesReader,
  query: {
    bank: string;
    currency: string;
    from: string;
    to?: string | undefined;
    asOf?: string | undefined;
    frequency?: RatesOptions["frequency"] | undefined;
  },
): Promise<Answer> {
  const code = query.currency.toUpperCase();
  const detail = await detailOf(client, query.bank);
  const points: Array<{ effectiveDate: string; rate: string; unit: number; reads: string }> = [];
  let shape: Pick<DailyRates, "baseCurrency" | "quoteType" | "frequency"> | undefined;
  const range = {
    from: query.from,
    currencies: [code],
    ...(query.to ? { to: query.to } : {}),
    ...(query.frequency ? { frequency: query.frequency } : {}),
  };
  for await (const day of client.range(query.bank, query.asOf ? { ...range, asOf: query.asOf } : range)) {
    shape ??= day;
    const r = day.rates.find((x) => x.currency === code);
    if (!r) continue;
    if (points.length === MAX_HISTORY_POINTS)
      throw new ToolRefusal(
        `${query.bank.toUpperCase()} has more than ${MAX_HISTORY_POINTS} dates of ${code} from ${query.from}: ask for a shorter range`,
      );
    const { unit, reads, validFrom, validTo } = figureOf(r, day);
    points.push({
      effectiveDate: day.effectiveDate,
      rate: r.rate,
      unit,
      reads,
      ...(validFrom ? { validFrom, validTo } : {}),
    });
  }
  const bank = { id: detail?.id ?? query.bank.toUpperCase(), ...(detail ? { name: englishName(detail) } : {}) };
  const span = `from ${query.from}${query.to ? ` to ${query.to}` : ""}`;
  if (!shape || points.length === 0) {
    const stored = detail ? await storedSpan(client, bank.id) : "";
    throw new ToolRefusal(`${bankLabel(bank)} published no rate of ${code} ${span}${stored}`);
  }
  return {
    structured: {
      bank,
      currency: code,
      ...pick(shape),
      frequency: shape.frequency,
      from: query.from,
      ...(query.to ? { to: query.to } : {}),
      points,
    },
    text: [
      `${bankLabel(bank)}: ${code} ${span}, ${points.length} dates, ${quoteLine(shape)}:`,
      ...points.map((p) => `${p.effectiveDate}: ${p.reads}`),
    ].join("\n"),
  };
}

function registerCompareBanks(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "compare_banks",
    {
      title: "One currency pair as every central bank sees it",
      description:
        "One pair (QUOTE per one BASE) as each bank with stored rates (or the banks named) prices it on a date or at its latest: each bank's exact figure, its effective date, whether it is the bank's own figure or derived (inverted, or crossed through the bank's currency, with the figures used and the rounding), and the consensus: the median of the same-day figures, min, max, dispersion, and the banks beyond the cross-bank check's band as outliers with the reason.",
      inputSchema: strictInput({
        base: currencyCode.describe("The currency priced, e.g. USD (ISO 4217)"),
        quote: currencyCode.describe("The currency it is priced in, e.g. JPY (ISO 4217)"),
        date: isoDate.optional().describe("The sets in force on this date (default: each bank's latest)"),
        banks,
        asOf,
      }),
      outputSchema: {
        base: z.string(),
        quote: z.string(),
        date: isoDate.optional(),
        asOf: z.string().optional(),
        rounding,
        consensus: consensus.optional(),
        banks: z.array(pairFigure),
        unpriced: z.array(z.object({ bankId: z.string(), reason: z.string() })).optional(),
      },
      annotations: READ_ONLY,
    },
    ({ base: b, quote: q, date, banks: ids, asOf: at }) =>
      answer(async () => {
        const pair = await client.pair(b.toUpperCase(), q.toUpperCase(), {
          ...(date ? { date } : {}),
          ...(ids ? { banks: ids } : {}),
          ...(at !== undefined ? { asOf: at } : {}),
        });
        const c = pair.consensus;
        const lines = [
          `${pair.base}/${pair.quote} (${pair.quote} per one ${pair.base})${date ? ` in force on ${date}` : ", latest"}:`,
          ...(c
            ? [
                `consensus of ${c.banks} banks on ${c.date}: median ${c.median}, min ${c.min}, max ${c.max}, dispersion ${c.dispersion}` +
                  `${c.outliers.length ? `; outliers: ${c.outliers.join(", ")}` : ""}`,
              ]
            : ["no bank prices the pair"]),
          ...pair.banks.map(
            (f) =>
              `${f.bankId} ${f.effectiveDate}: ${f.rate} (${f.quote}${f.derived ? `, derived through ${f.through}: ${f.from.map((u) => `${u.rate} ${u.reads}`).join(" and ")}` : `: ${f.from[0]?.reads ?? ""}`})` +
              `${f.outlier ? ` OUTLIER: ${f.reason}` : ""}`,
          ),
          ...(pair.unpriced ?? []).map((u) => `${u.bankId}: ${u.reason}`),
        ];
        return { structured: { ...pair }, text: lines.join("\n") };
      }),
  );
}

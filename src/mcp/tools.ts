// The MCP tools: each reads the API through the typed client (@exrates/client) and answers with structured
// content (its zod output schema) and the same in words. Every figure states its bank, its effective
// date and its unit; a refusal of the API (unknown bank, no rates yet, no set in force on a date) is a
// tool error that says why. A new tool is one `server.registerTool` here (a `convert` tool would read
// `client.convert` once the API has the endpoint).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

import { ExratesError, type BankDetail, type DailyRates, type ExratesClient, type RatesAnswer } from "@exrates/client";
import { bankLabel, figureOf, quoteLine } from "./describe.js";

/** What the tools read (the client, or anything answering the same). */
export type RatesReader = Pick<ExratesClient, "banks" | "bank" | "currencies" | "latest" | "onDate" | "range">;

/** A history longer than this many dates is refused: the answer would swamp an assistant's context. */
export const MAX_HISTORY_POINTS = 1000;

const bankId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]{1,9}$/, "a bank id such as CNB or ECB")
  .describe("The bank's id, e.g. ECB, CNB, FRB (list_banks gives them all)");
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");
const currencyCode = z.string().regex(/^[A-Za-z]{3}$/, "an ISO 4217 code such as USD");
const currencies = z
  .array(currencyCode)
  .max(200)
  .optional()
  .describe("Only these currencies (ISO 4217 codes); all of the bank's when absent");

const figure = z.object({
  currency: z.string(),
  rate: z.string().describe("The exact decimal the bank published (a string: no digit lost or added)"),
  unit: z.number().int().describe("How many units of `from` the rate is for"),
  from: z.string(),
  to: z.string(),
  reads: z.string().describe('The figure in words, e.g. "100 JPY = 13.26033 CZK"'),
});
const bankRef = z.object({ id: z.string(), name: z.string().optional() });
const ratesOutput = {
  bank: bankRef,
  baseCurrency: z.string(),
  quoteType: z.enum(["Direct", "Indirect"]),
  effectiveDate: isoDate.describe("The date of the bank's publication these rates are"),
  rates: z.array(figure),
  notQuoted: z.array(z.string()).describe("Currencies asked for that the bank did not quote on that date"),
};

export function registerRatesTools(server: McpServer, client: RatesReader): void {
  server.registerTool(
    "list_banks",
    {
      title: "List the central banks",
      description:
        "Every central bank with published official exchange rates: id, name, country, own currency, and the first and latest dates stored.",
      inputSchema: {},
      outputSchema: {
        banks: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            countryCode: z.array(z.string()).optional(),
            bankCurrency: z.string().optional(),
            firstEffectiveDate: isoDate.optional(),
            latestEffectiveDate: isoDate.optional(),
            website: z.string().optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      answer(async () => {
        const banks = (await client.banks()).map((b) => ({
          id: b.id,
          name: englishName(b),
          ...(b.countryCode ? { countryCode: b.countryCode } : {}),
          ...(b.bankCurrency ? { bankCurrency: b.bankCurrency } : {}),
          ...(b.firstEffectiveDate ? { firstEffectiveDate: b.firstEffectiveDate } : {}),
          ...(b.latestEffectiveDate ? { latestEffectiveDate: b.latestEffectiveDate } : {}),
          ...(b.website ? { website: b.website } : {}),
        }));
        const lines = banks.map(
          (b) =>
            `${b.id}: ${b.name}${b.bankCurrency ? `, ${b.bankCurrency}` : ""}` +
            (b.latestEffectiveDate ? `, rates ${b.firstEffectiveDate ?? "?"} to ${b.latestEffectiveDate}` : ""),
        );
        return { structured: { banks }, text: [`${banks.length} banks with published rates:`, ...lines].join("\n") };
      }),
  );

  server.registerTool(
    "list_currencies",
    {
      title: "List the quoted currencies",
      description:
        "Every currency any bank quotes (or one bank's), with its English name and, per bank, the first and latest dates it was quoted.",
      inputSchema: { bank: bankId.optional().describe("Only the currencies this bank quotes") },
      outputSchema: {
        currencies: z.array(
          z.object({
            code: z.string(),
            name: z.string().optional(),
            banks: z.array(z.object({ bankId: z.string(), since: isoDate, latest: isoDate })),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bank }) =>
      answer(async () => {
        const wanted = bank?.toUpperCase();
        const currencies = (await client.currencies())
          .map((c) => (wanted ? { ...c, banks: c.banks.filter((b) => b.bankId === wanted) } : c))
          .filter((c) => c.banks.length > 0);
        if (wanted && currencies.length === 0) await client.bank(wanted); // an unknown bank says so
        const lines = currencies.map(
          (c) =>
            `${c.code}${c.name ? ` (${c.name})` : ""}: ` +
            c.banks.map((b) => `${b.bankId} ${b.since} to ${b.latest}`).join("; "),
        );
        const head = wanted
          ? currencies.length
            ? `${wanted} quotes ${currencies.length} currencies:`
            : `${wanted} has no rates stored yet.`
          : `${currencies.length} currencies quoted:`;
        return { structured: { currencies }, text: [head, ...lines].join("\n") };
      }),
  );

  server.registerTool(
    "get_latest_rates",
    {
      title: "Latest official rates of a bank",
      description:
        "The bank's latest published exchange rates: the effective date, and each currency's exact rate with its unit and direction.",
      inputSchema: { bank: bankId, currencies },
      outputSchema: ratesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bank, currencies: only }) =>
      answer(
        async () => {
          const [rates, detail] = await Promise.all([
            client.latest(bank, { currencies: only }),
            detailOf(client, bank),
          ]);
          return ratesAnswer(rates, detail, `latest rates, effective ${rates.effectiveDate}`);
        },
        { client, bank },
      ),
  );

  server.registerTool(
    "get_rates_on_date",
    {
      title: "Official rates of a bank on a date",
      description:
        "The rates in force on a date: the bank's newest publication on or before it (a weekend or holiday gives the previous publication).",
      inputSchema: { bank: bankId, date: isoDate.describe("The date, YYYY-MM-DD"), currencies },
      outputSchema: { ...ratesOutput, requestedDate: isoDate },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bank, date, currencies: only }) =>
      answer(
        async () => {
          const [rates, detail] = await Promise.all([
            client.onDate(bank, date, { currencies: only }),
            detailOf(client, bank),
          ]);
          const when =
            rates.effectiveDate === date
              ? `rates of ${date}`
              : `rates in force on ${date}: those published for ${rates.effectiveDate}`;
          const result = ratesAnswer(rates, detail, when);
          return { structured: { ...result.structured, requestedDate: date }, text: result.text };
        },
        { client, bank },
      ),
  );

  server.registerTool(
    "get_rate_history",
    {
      title: "One currency's official rate over a range of dates",
      description: `Every published rate of one currency by one bank from one date to another, oldest first (at most ${MAX_HISTORY_POINTS} dates per call).`,
      inputSchema: {
        bank: bankId,
        currency: currencyCode.describe("The currency, ISO 4217 (e.g. USD)"),
        from: isoDate.describe("First date, YYYY-MM-DD"),
        to: isoDate.optional().describe("Last date, YYYY-MM-DD (default: today)"),
      },
      outputSchema: {
        bank: bankRef,
        currency: z.string(),
        baseCurrency: z.string(),
        quoteType: z.enum(["Direct", "Indirect"]),
        from: isoDate,
        to: isoDate.optional(),
        points: z.array(
          z.object({ effectiveDate: isoDate, rate: z.string(), unit: z.number().int(), reads: z.string() }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ bank, currency, from, to }) => answer(() => history(client, { bank, currency, from, to }), { client, bank }),
  );
}

async function history(
  client: RatesReader,
  query: { bank: string; currency: string; from: string; to: string | undefined },
): Promise<Answer> {
  const code = query.currency.toUpperCase();
  const detail = await detailOf(client, query.bank);
  const points: Array<{ effectiveDate: string; rate: string; unit: number; reads: string }> = [];
  let shape: Pick<DailyRates, "baseCurrency" | "quoteType"> | undefined;
  for await (const day of client.range(query.bank, { from: query.from, to: query.to, currencies: [code] })) {
    shape ??= day;
    const r = day.rates.find((x) => x.currency === code);
    if (!r) continue;
    if (points.length === MAX_HISTORY_POINTS)
      throw new ToolRefusal(
        `${query.bank.toUpperCase()} has more than ${MAX_HISTORY_POINTS} dates of ${code} from ${query.from}: ask for a shorter range`,
      );
    const f = figureOf(r, day);
    points.push({ effectiveDate: day.effectiveDate, rate: r.rate, unit: f.unit, reads: f.reads });
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

interface Answer {
  structured: Record<string, unknown>;
  text: string;
}

/** A refusal the tool itself makes, said as it is. */
class ToolRefusal extends Error {}

/** Runs a tool: its answer as structured content and text, or a tool error saying why. */
async function answer(
  run: () => Promise<Answer>,
  about?: { client: RatesReader; bank: string },
): Promise<CallToolResult> {
  try {
    const { structured, text } = await run();
    return { structuredContent: structured, content: [{ type: "text", text }] };
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: await whyNot(error, about) }] };
  }
}

/** The API's reason in words; for a bank with no rates yet, what the scheduler says of it (`exrates start`). */
async function whyNot(error: unknown, about: { client: RatesReader; bank: string } | undefined): Promise<string> {
  if (error instanceof ToolRefusal) return error.message;
  if (!(error instanceof ExratesError)) return `exrates: ${(error as Error).message}`;
  const id = about?.bank.toUpperCase();
  if (error.type === "urn:exrates:problem:unknown-bank")
    return `${id} is not a bank this service knows (list_banks gives them): ${error.detail}`;
  if (error.type === "urn:exrates:problem:no-rates-yet") {
    // Under `exrates start` the bank's status row says why (a missing credential, a failing feed).
    const status = about ? (await detailOf(about.client, about.bank))?.status : undefined;
    return `${error.detail}.` + (status ? ` Its state: ${status.state} (${status.summary}).` : "");
  }
  if (error.status === 404 && error.extensions.firstDate !== undefined) return `${id}: ${error.detail}`;
  return `The exrates API refused: ${error.status ? `${error.status} ` : ""}${error.title}: ${error.detail}`;
}

async function detailOf(client: RatesReader, bank: string): Promise<BankDetail | undefined> {
  // The name is a nicety: the rates' own answer says what is wrong with the bank.
  return client.bank(bank).catch(() => undefined);
}

async function storedSpan(client: RatesReader, id: string): Promise<string> {
  const listed = (await client.banks().catch(() => [])).find((b) => b.id === id);
  return listed?.latestEffectiveDate
    ? ` (its stored rates run from ${listed.firstEffectiveDate ?? "?"} to ${listed.latestEffectiveDate})`
    : "";
}

function ratesAnswer(rates: RatesAnswer, detail: BankDetail | undefined, when: string): Answer {
  const bank = { id: rates.bankId, ...(detail ? { name: englishName(detail) } : {}) };
  const figures = rates.rates.map((r) => figureOf(r, rates));
  const lines = [`${bankLabel(bank)}: ${when}, ${quoteLine(rates)}:`, ...figures.map((f) => f.reads)];
  if (rates.notQuoted.length)
    lines.push(`Not quoted by ${rates.bankId} on ${rates.effectiveDate}: ${rates.notQuoted.join(", ")}`);
  return {
    structured: {
      bank,
      ...pick(rates),
      effectiveDate: rates.effectiveDate,
      rates: figures,
      notQuoted: rates.notQuoted,
    },
    text: lines.join("\n"),
  };
}

const pick = (day: Pick<DailyRates, "baseCurrency" | "quoteType">) => ({
  baseCurrency: day.baseCurrency,
  quoteType: day.quoteType,
});

function englishName(bank: { id: string; name: Array<{ languageCode: string; name: string }> }): string {
  return (bank.name.find((n) => n.languageCode === "en") ?? bank.name[0])?.name ?? bank.id;
}

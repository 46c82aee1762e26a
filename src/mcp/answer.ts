// How an MCP tool answers: structured content (its output schema) and the same in words, or a tool error
// whose text says why (the API's problem, named; a refusal of the tool's own).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import {
  ExratesError,
  type BankDetail,
  type DailyRates,
  type ExratesClient,
  type ProvenanceSource,
  type RatesAnswer,
} from "@exrates/client";
import { bankLabel, figureOf, quoteLine } from "./describe.js";

/** What the tools read (the client, or anything answering the same). */
export type RatesReader = Pick<
  ExratesClient,
  "banks" | "bank" | "currencies" | "latest" | "onDate" | "range" | "convert" | "calendar" | "corrections" | "pair"
>;

export interface Answer {
  structured: Record<string, unknown>;
  text: string;
}

/** A refusal the tool itself makes, said as it is. */
export class ToolRefusal extends Error {}

/** Runs a tool: its answer as structured content and text, or a tool error saying why. */
export async function answer(
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
  return `The exrates API refused (${error.type}): ${error.status ? `${error.status} ` : ""}${error.title}: ${error.detail}`;
}

export async function detailOf(client: RatesReader, bank: string): Promise<BankDetail | undefined> {
  // The name is a nicety: the rates' own answer says what is wrong with the bank.
  return client.bank(bank).catch(() => undefined);
}

export async function storedSpan(client: RatesReader, id: string): Promise<string> {
  const listed = (await client.banks().catch(() => [])).find((b) => b.id === id);
  return listed?.latestEffectiveDate
    ? ` (its stored rates run from ${listed.firstEffectiveDate ?? "?"} to ${listed.latestEffectiveDate})`
    : "";
}

export function ratesAnswer(rates: RatesAnswer, detail: BankDetail | undefined, when: string): Answer {
  const bank = { id: rates.bankId, ...(detail ? { name: englishName(detail) } : {}) };
  const figures = rates.rates.map((r) => figureOf(r, rates));
  const lines = [`${bankLabel(bank)}: ${when}, ${quoteLine(rates)}:`, ...figures.map((f) => f.reads)];
  if (rates.derivedFrom)
    lines.push(
      `Re-expressed against ${rates.baseCurrency} from the bank's ${rates.derivedFrom.baseCurrency} table: not the bank's own figures`,
    );
  if (rates.asOf) lines.push(`As the service knew it at ${rates.asOf}`);
  if (rates.notQuoted.length)
    lines.push(`Not quoted by ${rates.bankId} on ${rates.effectiveDate}: ${rates.notQuoted.join(", ")}`);
  for (const s of rates.provenance ?? []) lines.push(`Source: ${sourceLine(s)}`);
  return {
    structured: {
      bank,
      ...pick(rates),
      frequency: rates.frequency,
      effectiveDate: rates.effectiveDate,
      rates: figures,
      notQuoted: rates.notQuoted,
      ...(rates.derivedFrom ? { derivedFrom: rates.derivedFrom } : {}),
      ...(rates.asOf ? { asOf: rates.asOf } : {}),
      ...(rates.provenance ? { provenance: rates.provenance } : {}),
    },
    text: lines.join("\n"),
  };
}

/**
 * A source in words: "<url> fetched <time> sha256 <hex>", or for an imported file "imported file <name> by
 * <who> at <time> sha256 <hex>" and the URL its importer declared, never said to be fetched.
 */
export function sourceLine(s: ProvenanceSource): string {
  const sha = `sha256 ${s.sha256 ?? "?"}`;
  if (s.kind !== "import") return `${s.url} fetched ${s.fetchedAt} ${sha}`;
  const declared = s.declaredUrl ? ` (URL declared by the importer: ${s.declaredUrl})` : "";
  return `imported file ${s.file ?? "?"} by ${s.importedBy ?? "?"} at ${s.importedAt} ${sha}${declared}`;
}

export const pick = (day: Pick<DailyRates, "baseCurrency" | "quoteType">) => ({
  baseCurrency: day.baseCurrency,
  quoteType: day.quoteType,
});

export function englishName(bank: { id: string; name: Array<{ languageCode: string; name: string }> }): string {
  return (bank.name.find((n) => n.languageCode === "en") ?? bank.name[0])?.name ?? bank.id;
}

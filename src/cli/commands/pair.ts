// `exrates pair BASE QUOTE [--date D | --from D [--to D] [--group G]] [--banks A,B] [--as-of T]`: one
// pair as every bank prices it, with the consensus, exactly as `GET /v1/Pairs/...` answers it
// (src/pairs/resolve.ts); the JSON, XML and CSV are the API's bytes.
import type { Command } from "commander";

import { UserError } from "../../errors.js";
import { isIsoDate } from "../../feed/dates.js";
import { frequencyOf } from "../../feed/adapter.js";
import { loadBanks } from "../../feed/registry.js";
import { readGroup, type Group } from "../../pairs/average.js";
import type { PairAnswer } from "../../pairs/pair.js";
import { pairSettings, renderPairResult, resolvePair, type PairQuery } from "../../pairs/resolve.js";
import { todayAnywhere } from "../../serve/resources/history/request.js";
import { action, type CliContext } from "../context.js";
import { formatFlag, historyReaderOf } from "../history-reader.js";

interface PairOptions {
  date?: string;
  from?: string;
  to?: string;
  group?: string;
  banks?: string;
  asOf?: string;
  json?: boolean;
  xml?: boolean;
  csv?: boolean;
}

const code = (text: string) => {
  const c = text.toUpperCase();
  if (!/^[A-Z]{3}$/.test(c)) throw new UserError(`"${text}" is not a currency code (three letters, such as USD)`);
  return c;
};

const date = (name: string, text: string | undefined) => {
  if (text !== undefined && !isIsoDate(text)) throw new UserError(`--${name}: "${text}" is not a date (YYYY-MM-DD)`);
  return text;
};

/** The command's options as the one query value. */
export function pairQuery(base: string, quote: string, o: PairOptions, today: string): PairQuery & { group?: Group } {
  const q: PairQuery & { group?: Group } = { base: code(base), quote: code(quote) };
  if (q.base === q.quote) throw new UserError(`A pair needs two currencies: ${q.base}/${q.quote} is one`);
  if (o.banks) q.banks = [...new Set(o.banks.split(",").map((b) => b.trim().toUpperCase()))].filter(Boolean).sort();
  if (o.asOf) {
    const ms = Date.parse(o.asOf);
    if (!Number.isFinite(ms)) throw new UserError(`--as-of: "${o.asOf}" is not an instant (2026-03-03T15:00:00Z)`);
    q.asOf = new Date(ms).toISOString();
  }
  const from = date("from", o.from);
  if (o.date !== undefined && from !== undefined) throw new UserError("--date and --from: one or the other");
  if (from === undefined) {
    if (o.group !== undefined || o.to !== undefined) throw new UserError("--group and --to are read with --from");
    if (o.date !== undefined) q.date = date("date", o.date)!;
    return q;
  }
  if (q.asOf) throw new UserError("--as-of is answered for Latest and a date, not a range");
  const to = date("to", o.to) ?? today;
  if (from > to) throw new UserError(`--from (${from}) is after --to (${to})`);
  q.range = { from, to };
  if (o.group !== undefined) {
    try {
      q.group = readGroup(o.group);
    } catch (error) {
      throw new UserError(`--${(error as Error).message}`);
    }
  }
  return q;
}

/** One day's answer as lines for a person. */
export function pairTable(a: PairAnswer): string {
  const lines = a.figures.map((f) => {
    const how = f.quote === "direct" ? "as published" : `${f.quote} through ${f.through}`;
    const mark = f.outlier ? `  OUTLIER: ${f.reason}` : f.sameDay ? "" : "  (an earlier day)";
    return `${f.bankId.padEnd(10)} ${f.rate.padStart(20)}  ${f.effectiveDate}  ${how}${mark}`;
  });
  const c = a.consensus;
  if (c)
    lines.push(
      `median of ${c.banks} bank${c.banks > 1 ? "s" : ""} on ${c.date}: ${c.median} (min ${c.min}, max ${c.max}, dispersion ${c.dispersion})`,
    );
  for (const u of a.unpriced) lines.push(`${u.bankId.padEnd(10)} -  ${u.reason}`);
  return `${a.base}/${a.quote}: ${a.quote} per one ${a.base}\n${lines.join("\n")}\n`;
}

export function registerPair(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("pair")
    .description("one pair as every bank prices it (direct, inverted or crossed), with the median and outliers")
    .argument("<base>", "the currency priced, e.g. USD")
    .argument("<quote>", "the currency it is priced in, e.g. JPY")
    .option("--date <YYYY-MM-DD>", "each bank's set in force on this date (default: each bank's newest)")
    .option("--from <YYYY-MM-DD>", "a range: every date with a figure")
    .option("--to <YYYY-MM-DD>", "the range's last date (default: today)")
    .option("--group <week|month|quarter|year>", "a range's averages per period, per bank")
    .option("--banks <ids>", "comma-separated bank ids (default: every bank with stored rates)")
    .option("--as-of <instant>", "as known at this instant (RFC 3339)")
    .option("--json", "print the answer of GET /v1/Pairs/... as JSON")
    .option("--xml", "print it as XML")
    .option("--csv", "print it as CSV")
    .action(
      action(ctx, async (base: string, quote: string, options: PairOptions) => {
        const q = pairQuery(base, quote, options, todayAnywhere(Date.now()));
        const store = historyReaderOf(await ctx.store({ readonly: true }));
        try {
          const banks = new Map((await loadBanks()).map(({ bank }) => [bank.id, bank]));
          const result = await resolvePair(store, q, todayAnywhere(Date.now()), pairSettings(), (id) => {
            const bank = banks.get(id);
            return bank && frequencyOf(bank);
          });
          if (result.kind === "unknown") throw new UserError(`No rates stored for ${result.unknown.join(", ")}`);
          const format = formatFlag(options);
          if (format || result.kind === "averages") {
            const rendered = await renderPairResult(
              result,
              format ?? "csv",
              q.asOf ? { asOf: q.asOf } : {},
              new Date(0),
            );
            if ("text" in rendered) process.stdout.write(rendered.text);
            return;
          }
          const days = result.kind === "day" ? [result.answer] : result.range.days;
          process.stdout.write(days.map(pairTable).join("\n"));
        } finally {
          store.close();
        }
      }),
    );
}

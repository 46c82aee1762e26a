// `exrates convert BANK AMOUNT FROM TO [--date D] [--json|--xml|--csv]`: an amount converted through a
// bank's stored table, exactly as `GET /v1/Banks/{id}/Convert` does (src/publish/cross.ts): the newest
// stored set, or the set in force on the date (the previous publication on a day without one).
import type { Command } from "commander";

import { UserError } from "../../errors.js";
import { baseCurrencyOf, frequencyOf } from "../../feed/adapter.js";
import { isIsoCurrency } from "../../feed/currency.js";
import { isIsoDate } from "../../feed/dates.js";
import { adapterFor } from "../../feed/registry.js";
import { frequencySourceOf, otherSourcesOf } from "../../feed/sources.js";
import { amountProblem, convert, missingFrom, type Conversion, type Table } from "../../publish/cross.js";
import { conversionCsv, conversionJson, conversionXml } from "../../publish/render-conversion.js";
import type { Store } from "../../store/database.js";
import { bridges } from "../../calendar/publication-gap.js";
import { inForceAmong } from "../../store/history.js";
import { inForceOn } from "../../store/periods.js";
import { periodFiguresOf, ratesOn } from "../../store/rates.js";
import type { IsoDate } from "../../types.js";
import { action, type CliContext } from "../context.js";

interface ConvertOptions {
  date?: string;
  json?: boolean;
  xml?: boolean;
  csv?: boolean;
}

export function registerConvert(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("convert")
    .description("convert an amount through a bank's stored rates, exactly (the figures and formula shown)")
    .argument("<bank>", "bank id, e.g. CNB")
    .argument("<amount>", "a plain decimal, e.g. 1250.00")
    .argument("<from>", "ISO 4217 code of the amount")
    .argument("<to>", "ISO 4217 code of the result")
    .option("--date <YYYY-MM-DD>", "the set in force on this date (default: the newest stored)")
    .option("--json", "print the answer of GET /v1/Banks/{id}/Convert as JSON")
    .option("--xml", "print it as XML")
    .option("--csv", "print it as CSV")
    .action(
      action(ctx, async (bank: string, amount: string, from: string, to: string, options: ConvertOptions) => {
        const problem = amountProblem(amount);
        if (problem) throw new UserError(problem);
        const [source, target] = [from, to].map((c) => c.toUpperCase()) as [string, string];
        for (const code of [source, target])
          if (!/^[A-Z]{3}$/.test(code) || !isIsoCurrency(code))
            throw new UserError(`"${code}" is not an ISO 4217 currency code`);
        if (options.date !== undefined && !isIsoDate(options.date))
          throw new UserError(`--date: "${options.date}" is not a date (YYYY-MM-DD)`);
        const adapter = await adapterFor(bank);
        const store = await ctx.store({ readonly: true });
        const header = {
          bankId: adapter.bank.id,
          baseCurrency: baseCurrencyOf(adapter.bank),
          quoteType: adapter.bank.quoteType,
        };
        const frequency = frequencyOf(adapter.bank);
        const table =
          frequency !== "Daily" && options.date !== undefined
            ? await periodTable(store, header, options.date)
            : await dailyTable(store, header, options.date);
        const missing = missingFrom(table, [source, target]);
        if (missing.length) throw new UserError(await notQuoted(store, header.bankId, missing, table.date));
        const c = convert(table, amount, source, target, options.date);
        ctx.print(
          options.json ? conversionJson(c) : options.xml ? conversionXml(c) : options.csv ? conversionCsv(c) : lines(c),
        );
      }),
    );
}

/** The bank's stored dates, oldest first. */
async function storedDates(store: Store, bankId: string, currency?: string): Promise<IsoDate[]> {
  let query = store.db.selectFrom("rates").select("effective_date").distinct().where("bank_id", "=", bankId);
  if (currency) query = query.where("currency", "=", currency);
  return (await query.orderBy("effective_date").execute()).map((r) => r.effective_date);
}

/** A daily bank's table: the newest stored set, or the set in force on `asked`. */
async function dailyTable(store: Store, header: Table["header"], asked: IsoDate | undefined): Promise<Table> {
  const date = await tableDate(store, header.bankId, asked);
  const rows = await ratesOn(store, header.bankId, date);
  return { header, date, figures: new Map(rows.map((r) => [r.currency, { effectiveDate: date, ...r }])) };
}

/** A period source's table on a date: the figures in force on it, as the API's Convert reads them. */
async function periodTable(store: Store, header: Table["header"], date: IsoDate): Promise<Table> {
  const set = inForceOn(await periodFiguresOf(store, header.bankId, date, date), date);
  if (!set) throw new UserError(`No figure of ${header.bankId} is in force on ${date}`);
  return { header, date: set.date, figures: new Map(set.rows.map((r) => [r.currency, r])) };
}

/** The newest stored date, or the effective date of the set in force on `asked`. */
async function tableDate(store: Store, bankId: string, asked: IsoDate | undefined): Promise<IsoDate> {
  const dates = await storedDates(store, bankId);
  if (dates.length === 0) throw new UserError(`no rates stored for ${bankId}`);
  if (asked === undefined) return dates[dates.length - 1]!;
  // The same reach as the API's dated lookup: the bank's weekly gap plus the holiday allowance.
  const { bank } = await adapterFor(bankId);
  const found = inForceAmong(dates, asked, "9999-12-31", (before, date) => bridges(bank, before, date));
  if (found.kind === "found") return found.effectiveDate;
  throw new UserError(
    `${bankId} has no set in force on ${asked}: stored dates run from ${found.first} to ${found.latest}` +
      (found.before ? ` (the previous is ${found.before})` : ""),
  );
}

/** The error naming each missing currency and the nearest date the bank quoted it. */
/** `NBP's Weekly rates quote it, newest 2026-03-18` when a bank's other table quotes `currency`; else "". */
async function otherTable(store: Store, bankId: string, currency: string): Promise<string> {
  for (const source of otherSourcesOf(bankId)) {
    const dates = await storedDates(store, source, currency);
    if (dates.length)
      return `${bankId}'s ${frequencySourceOf(source)!.frequency} rates quote it, newest ${[...dates].sort().at(-1)!}`;
  }
  return "";
}

async function notQuoted(store: Store, bankId: string, missing: string[], date: IsoDate): Promise<string> {
  const day = (d: IsoDate) => Date.parse(`${d}T00:00:00Z`);
  const said: string[] = [];
  for (const c of missing) {
    const dates = await storedDates(store, bankId, c);
    const nearest = dates.reduce<IsoDate | undefined>(
      (best, d) => (!best || Math.abs(day(d) - day(date)) < Math.abs(day(best) - day(date)) ? d : best),
      undefined,
    );
    const other = await otherTable(store, bankId, c);
    said.push(
      nearest
        ? `${c} (nearest date it did: ${nearest}${other ? `; ${other}` : ""})`
        : other
          ? `${c} (not in ${bankId}'s daily rates; ${other})`
          : `${c} (${bankId} never quoted it)`,
    );
  }
  return `${bankId} quoted no rate of ${said.join(" and ")} on ${date}`;
}

/** The answer for a person: the result, then where it came from. */
function lines(c: Conversion): string {
  const figures = c.figures.map((f) => `${f.currency} ${f.rate} per ${f.unit} (${f.effectiveDate})`).join("; ");
  return [
    `${c.amount} ${c.from} = ${c.result} ${c.to}`,
    `  ${c.bankId}, the set of ${c.effectiveDate}${c.date && c.date !== c.effectiveDate ? ` (in force on ${c.date})` : ""}, ${c.quoteType} against ${c.baseCurrency}`,
    `  ${c.formula} = ${c.unrounded}${c.unroundedExact ? "" : "..."}`,
    `  rounded ${c.rounding} to ${c.decimals} decimals (${c.to}'s ISO 4217 minor units)`,
    ...(figures ? [`  figures: ${figures}`] : []),
  ].join("\n");
}

// `exrates banks [<ID>...]`: every bank (or the ones named) with its newest stored date, last fetch, next
// run and state (stale, failing, needs a credential...). The same rows as `GET /v1/status`
// (src/schedule/status.ts).
import { statSync } from "node:fs";

import type { Command } from "commander";

import type { Config } from "../../config.js";
import { frequencyOf, toBankResource } from "../../feed/adapter.js";
import { loadBanks, sourcesFor } from "../../feed/registry.js";
import { publicIdOf, sourceLabel } from "../../feed/sources.js";
import { bankStatuses } from "../../schedule/status.js";
import { openSqliteStore, type Store } from "../../store/database.js";
import { action, type CliContext } from "../context.js";

/** No database yet (before the first `exrates start`): the SQLite file does not exist. */
function noDatabaseYet(config: Config): boolean {
  if (config.databaseUrl) return false;
  try {
    statSync(config.databasePath);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * The configured store, read-only; before the first start, an empty one in memory (every bank is then
 * "never fetched"), said on stderr with where the database is looked for, since a mistyped
 * EXRATES_DATA_DIR looks the same.
 */
async function storeOrNothing(ctx: CliContext): Promise<Store & { nothing?: true }> {
  const config = ctx.config();
  if (!noDatabaseYet(config)) return ctx.store({ readonly: true });
  process.stderr.write(
    `exrates: no database at ${config.databasePath} yet (\`exrates start\` creates it; EXRATES_DATA_DIR is ${config.dataDir}): every bank is listed as never fetched\n`,
  );
  return Object.assign(await openSqliteStore(":memory:"), { nothing: true as const });
}

/**
 * Columns as wide as their longest cell (a zone such as America/Argentina/Buenos_Aires), one space
 * apart; the `right` columns aligned right; the last one not padded.
 */
export function table(head: string[], rows: string[][], right: ReadonlySet<number> = new Set()): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) =>
        i === r.length - 1 ? cell : right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
      )
      .join(" ");
  return [head, ...rows].map(line).join("\n");
}

export function registerBanks(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  program
    .command("banks")
    .description("list the banks with their newest stored date, last fetch, next run and state")
    .argument("[banks...]", "only these banks (default: every bank)")
    .option("--json", "print the Bank resources with their status as JSON")
    .action(
      action(ctx, async (ids: string[], options: { json?: boolean }) => {
        // Unknown ids are refused by name, before anything is opened.
        // A bank with two tables (NBP) lists both.
        const wanted = new Set(ids.length ? (await sourcesFor(ids, false)).map((a) => a.bank.id) : []);
        const adapters = (await loadBanks()).filter((a) => wanted.size === 0 || wanted.has(a.bank.id));
        const store = await storeOrNothing(ctx);
        // One row per adapter, in their order (a bank's second table has its bank's id: NBP twice).
        let statuses: Awaited<ReturnType<typeof bankStatuses>>;
        try {
          statuses = await bankStatuses(store, adapters);
        } finally {
          if (store.nothing) await store.close();
        }
        const rows = adapters.map((a, i) => {
          const status = statuses[i]!;
          const lastAt = [status.lastSuccessAt, status.lastErrorAt]
            .filter((x): x is string => x !== null)
            .sort()
            .at(-1);
          return {
            ...toBankResource(a.bank),
            // A bank's second table is a row of its own, under the bank's key, named by its frequency.
            id: publicIdOf(a.bank.id),
            frequency: frequencyOf(a.bank),
            quoteType: a.bank.quoteType,
            newestDate: status.newestDate,
            lastFetch: lastAt
              ? {
                  at: lastAt,
                  ok: lastAt !== status.lastErrorAt,
                  error: lastAt === status.lastErrorAt ? status.lastError : null,
                }
              : null,
            needs: status.needs,
            status,
          };
        });
        if (options.json) return ctx.print(JSON.stringify(rows, null, 2));
        const head = [
          "BANK",
          "CUR",
          "QUOTE",
          "PUBLISHES (LOCAL)",
          "NEWEST",
          "LAST FETCH",
          "NEXT RUN (LOCAL)",
          "HELD",
          "STATE",
        ];
        const cells = rows.map((r, i) => [
          sourceLabel(adapters[i]!.bank.id),
          r.bankCurrency,
          r.quoteType,
          `${r.dailyUpdateTime} ${r.timeZone.ianaTimeZoneName}`,
          r.newestDate ?? "-",
          r.lastFetch ? `${r.lastFetch.ok ? "ok" : "FAILED"} ${r.lastFetch.at}` : "never fetched",
          r.status.nextRunLocal ? r.status.nextRunLocal.slice(0, 16) : "-",
          String(r.status.anomalies.held),
          r.status.summary,
        ]);
        ctx.print(table(head, cells, new Set([7])));
      }),
    );
}

// `exrates anomalies [<ID>...] [--json] [--status S]`: rows and figures held at ingest, and figures
// published with a warning. `exrates anomalies release <id>`: publish a held figure a person checked.
import { userInfo } from "node:os";

import type { Command } from "commander";

import { UserError } from "../../errors.js";
import { adapterFor } from "../../feed/registry.js";
import { isIsoDate } from "../../feed/dates.js";
import { releaseAnomaly } from "../../ingest/release.js";
import { dateLimit, futureDateProblem } from "../../ingest/validate.js";
import { sourceLabel } from "../../feed/sources.js";
import { getAnomaly, listAnomalies, type Anomaly, type AnomalyStatus } from "../../store/anomalies.js";
import type { Store } from "../../store/database.js";
import { action, type CliContext } from "../context.js";
import { publishing } from "../publish-banks.js";

const STATUSES: readonly AnomalyStatus[] = ["held", "released", "warned"];

function line(a: Anomaly): string {
  const figure = [a.effectiveDate, a.currency, a.rate].filter((x) => x !== null).join(" ");
  // How the figure or its currency was derived (a mean, a name resolved by rule), when it was.
  const derived = a.derivation ? `\n       derived: ${a.derivation}` : "";
  return `${String(a.id).padStart(5)}  ${sourceLabel(a.bankId).padEnd(6)} ${a.status.padEnd(8)} ${a.kind.padEnd(16)} ${figure}${a.source ? ` (${a.source})` : ""}\n       ${a.reason}${derived}`;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}

/**
 * A figure dated beyond what its bank can have published by now (9999-12-31) would become the bank's
 * Latest and stay it, every later publication older than it: released only with --allow-future.
 */
async function refuseFutureDate(store: Store, id: number): Promise<void> {
  const anomaly = await getAnomaly(store, id);
  if (!anomaly?.effectiveDate || !isIsoDate(anomaly.effectiveDate)) return; // releaseAnomaly says what is wrong
  const bank = (await adapterFor(anomaly.bankId)).bank;
  const limit = dateLimit(bank, new Date());
  if (!futureDateProblem(anomaly.effectiveDate, limit)) return;
  throw new UserError(
    `anomaly ${id} is dated ${anomaly.effectiveDate}, after ${limit.latest} (${limit.what}): released, it would be ${bank.id}'s Latest, above every real publication, until a later date is stored; add --allow-future to release it all the same`,
  );
}

export function registerAnomalies(program: Command, ctx: CliContext & { close(): Promise<void> }): void {
  const anomalies = program
    .command("anomalies")
    .description(
      "rows and figures held at ingest (never published until released), and figures published with a warning",
    )
    .argument("[banks...]", "only these banks")
    .option("--json", "a JSON array")
    .option("--status <status>", `only ${STATUSES.join(", ")}`)
    .action(
      action(ctx, async (ids: string[], options: { json?: boolean; status?: string }) => {
        const banks = await Promise.all(ids.map(async (id) => (await adapterFor(id)).bank.id));
        if (options.status !== undefined && !STATUSES.includes(options.status as AnomalyStatus)) {
          throw new UserError(`--status "${options.status}" is not one of ${STATUSES.join(", ")}`);
        }
        const statuses = options.status ? [options.status as AnomalyStatus] : undefined;
        const list = await listAnomalies(await ctx.store({ readonly: true }), { banks, statuses });
        if (options.json) return ctx.print(JSON.stringify(list, null, 2));
        if (list.length === 0) return ctx.print("no anomalies");
        ctx.print(list.map(line).join("\n"));
        const held = list.filter((a) => a.status === "held").length;
        ctx.print(
          `${list.length} anomalies, ${held} held (exrates anomalies release <id> publishes one after checking it)`,
        );
      }),
    );

  anomalies
    .command("release")
    .description("publish a held figure after a person has checked it (recorded as released, with who and when)")
    .argument("<id>", "the anomaly's id (exrates anomalies lists them)")
    .option("--by <name>", "who checked it (default: the current user)")
    .option("--allow-future", "release a figure dated after what the bank can have published by now")
    .action(
      action(ctx, async (idText: string, options: { by?: string; allowFuture?: boolean }) => {
        if (!/^\d+$/.test(idText)) throw new UserError(`"${idText}" is not an anomaly id`);
        const store = await ctx.store();
        if (!options.allowFuture) await refuseFutureDate(store, Number(idText));
        const by = options.by ?? currentUser();
        const released = await releaseAnomaly(store, Number(idText), by);
        const result = await (await publishing(ctx, store)).publish([released.bankId]);
        ctx.log().info({ anomaly: released.id, bank: released.bankId, by, generation: result.generation }, "released");
        ctx.print(
          `released anomaly ${released.id}: ${released.bankId} ${released.currency} ${released.rate} on ${released.effectiveDate}, published in generation ${result.generation}`,
        );
      }),
    );
}

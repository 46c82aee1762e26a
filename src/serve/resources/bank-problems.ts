// The 404s of a bank without rates, shared by every route that names a bank: an unknown bank (type
// unknown-bank) and a bank that is known but has nothing to show yet (type no-rates-yet), with the
// scheduler's state and next run when `exrates start` serves.
import type { ServerResponse } from "node:http";

import { publicIdOf, sourceLabel } from "../../feed/sources.js";
import { redactSecrets } from "../../secrets.js";
import type { ServeContext } from "../context.js";
import { PROBLEM_TYPES, sendProblem } from "../http/respond.js";

/** A bank's status row from the scheduler, secrets masked; undefined without a scheduler. */
export async function statusOf(ctx: ServeContext, id: string): Promise<unknown> {
  if (!ctx.status) return undefined;
  const row = (await ctx.status()).find((r) => (r as { id?: unknown }).id === id);
  return row === undefined ? undefined : (JSON.parse(redactSecrets(JSON.stringify(row))) as unknown);
}

export function sendUnknownBank(res: ServerResponse, head: boolean, id: string): void {
  sendProblem(res, 404, { type: PROBLEM_TYPES.unknownBank, detail: `Unknown bank ${id}`, extra: { bank: id }, head });
}

/** Latest of a bank with nothing published: known (no rates yet, its state and next run) or unknown. */
export async function sendNoRates(ctx: ServeContext, res: ServerResponse, head: boolean, id: string): Promise<void> {
  const known = ctx.tree()?.banks.has(id) || (await ctx.knownBanks())?.has(id);
  if (!known) return sendUnknownBank(res, head, id);
  const status = (await statusOf(ctx, id)) as { state?: string; nextRunAt?: string | null } | undefined;
  const when = status?.nextRunAt ? `; next run ${status.nextRunAt}` : "";
  const key = await credentialOf(ctx, id);
  sendProblem(res, 404, {
    type: PROBLEM_TYPES.noRatesYet,
    detail: `Bank ${sourceLabel(id)} is known but has no rates published yet${when}${needsKey(key)}`,
    extra: {
      bank: publicIdOf(id),
      ...(status?.state ? { state: status.state } : {}),
      ...(key ? { credential: key } : {}),
    },
    head,
  });
}

/**
 * A bank with no stored (or published) rates for a history or filtered request: known (`seen` in the
 * tree or the store, or among the adapters) is no-rates-yet with `detail`, else unknown-bank.
 */
export async function sendNoBank(
  ctx: ServeContext,
  res: ServerResponse,
  head: boolean,
  id: string,
  seen: boolean,
  detail: string,
): Promise<void> {
  const known = seen || ((await ctx.knownBanks())?.has(id) ?? false);
  const key = known ? await credentialOf(ctx, id) : undefined;
  sendProblem(res, 404, {
    type: known ? PROBLEM_TYPES.noRatesYet : PROBLEM_TYPES.unknownBank,
    detail: known ? `${detail}${needsKey(key)}` : `Unknown bank ${id}`,
    extra: { bank: publicIdOf(id), ...(key ? { credential: key } : {}) },
    head,
  });
}

/** The environment variable of the key a bank's feed needs (its name only, never a value); undefined when none. */
async function credentialOf(ctx: ServeContext, id: string): Promise<string | undefined> {
  return (await ctx.descriptor(id))?.credential?.env;
}

const needsKey = (env: string | undefined) =>
  env ? `; its feed needs a key: set ${env} in the environment of \`exrates start\`` : "";

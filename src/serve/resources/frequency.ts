// Which frequency a bank publishes at, for the rates routes of every frequency (`DailyRates`,
// `MonthlyRates`, `QuarterlyRates`...): a bank's rates live under the path of its own frequency only,
// and a request under another is a 404 naming the one it publishes.
import type { ServerResponse } from "node:http";

import { frequenciesOfBank, publicIdOf } from "../../feed/sources.js";
import type { Frequency } from "../../types.js";
import type { ServeContext } from "../context.js";
import { PROBLEM_TYPES, sendProblem } from "../http/respond.js";

/** The bank's frequency as the published tree says (synchronous: read on the daily routes' path). */
export function treeFrequency(ctx: ServeContext, id: string): Frequency | undefined {
  return ctx.tree()?.banks.get(id)?.frequency;
}

/** The bank's frequency: the published tree's, else its adapter's Bank resource's; undefined when unknown. */
export async function frequencyOfBank(ctx: ServeContext, id: string): Promise<Frequency | undefined> {
  const published = treeFrequency(ctx, id);
  if (published) return published;
  const resource = (await ctx.knownBanks())?.get(id);
  return resource?.supportedFrequencies[0] as Frequency | undefined;
}

/** 404: the bank publishes at `actual`, not at `asked`; names where its rates are. */
export function sendOtherFrequency(
  res: ServerResponse,
  head: boolean,
  id: string,
  asked: Frequency,
  actual: Frequency,
): void {
  // A source of a bank's second table (NBP's weekly) is named by its bank, which lists every frequency.
  const shown = publicIdOf(id);
  const all = frequenciesOfBank(shown, [actual]);
  const where = all.map((f) => `/v1/Banks/${shown}/${f}Rates`);
  sendProblem(res, 404, {
    type: PROBLEM_TYPES.otherFrequency,
    detail: `Bank ${shown} publishes ${all.join(" and ")} rates, not ${asked}: its rates are under ${where.join(" and ")}`,
    extra: { bank: shown, supportedFrequencies: all, path: where[0] },
    head,
  });
}

// `group=` on a period source's range (MonthlyRates, QuarterlyRates...): its figures are already the
// rates of a period, published by the source itself, so the answer is its figures in force over the
// range, as without group=; a header says so rather than the parameter being dropped in silence.
import type { Frequency } from "../../../types.js";
import { readGroup } from "../../../pairs/average.js";
import { AS_OF, BadRequest } from "../../http/query.js";

const GROUP_NOTE_HEADER = "x-group";

/** The header for `group=` on a period source (none without it); BadRequest for a bad group or with asOf. */
export function periodGroupHeader(
  params: Map<string, string>,
  query: string,
  frequency: Frequency,
): Record<string, string> {
  const value = params.get("group");
  if (value === undefined) return {};
  if (AS_OF.test(query)) throw new BadRequest("group cannot be combined with asOf or provenance");
  let group: string;
  try {
    group = readGroup(value);
  } catch (error) {
    throw new BadRequest((error as Error).message);
  }
  return {
    [GROUP_NOTE_HEADER]: `${group}: not averaged; a ${frequency} source answers with its own figures in force in each period`,
  };
}

// The `rates.corrected` event: after an ingest that changed figures already stored (of any date, not
// only the Latest one that `rates.published` covers), one event names the dates and currencies changed
// and links to the Corrections resource over the day of the correction, where each figure is listed
// with the provenance of both answers. The revisions are those whose new figure came from this
// ingest's answers (`rate_revisions.new_fetch_id`), so the event says exactly what this ingest changed.
import { publicIdOf } from "../feed/sources.js";
import { logger, type Logger } from "../log.js";
import type { Store } from "../store/database.js";
import { recordCorrectionEvent } from "../store/events.js";
import type { RatesCorrected } from "../types.js";

/** The event's data for the revisions an ingest made, or undefined when it made none. */
export function correctionOf(
  bankId: string,
  revisions: ReadonlyArray<{ effective_date: string; currency: string; revised_at: string }>,
): RatesCorrected | undefined {
  if (revisions.length === 0) return undefined;
  const correctedAt = revisions
    .map((r) => r.revised_at)
    .sort()
    .at(-1)!;
  const first = revisions
    .map((r) => r.revised_at)
    .sort()[0]!
    .slice(0, 10);
  const day = correctedAt.slice(0, 10);
  // A bank's second table (NBP's weekly, source NBPB) is named by its bank: its Corrections are the bank's.
  const bank = publicIdOf(bankId);
  return {
    bankId: bank,
    correctedAt,
    dates: [...new Set(revisions.map((r) => r.effective_date))].sort(),
    currencies: [...new Set(revisions.map((r) => r.currency))].sort(),
    figures: revisions.length,
    corrections: `/v1/Banks/${bank}/Corrections?from=${first}&to=${day}`,
  };
}

/**
 * Records the `rates.corrected` event of one ingest (its fetches' ids), if it revised anything. Called
 * once the ingest is committed; a failure is logged, never thrown (the ingest itself succeeded, and the
 * revisions stay listed by the Corrections resource).
 */
export async function recordCorrections(
  store: Store,
  bankId: string,
  fetchIds: readonly number[],
  options: { now?: Date; log?: Logger } = {},
): Promise<number | undefined> {
  if (fetchIds.length === 0) return undefined;
  try {
    const revisions = await store.db
      .selectFrom("rate_revisions")
      .select(["effective_date", "currency", "revised_at"])
      .where("bank_id", "=", bankId)
      .where("new_fetch_id", "in", [...fetchIds])
      .execute();
    const data = correctionOf(bankId, revisions);
    return data && (await recordCorrectionEvent(store, data, options.now));
  } catch (error) {
    (options.log ?? logger()).error({ err: (error as Error).message, bankId }, "rates.corrected event not recorded");
    return undefined;
  }
}

// Publishing from a one-off command (`import`, `anomalies release`), loaded only when the command gets
// that far: the publisher, its renderers, the bucket client and the signing keys take about half a second
// to load, which a command refused on its input, or one that only lists, does not pay.
import type { PublishResult } from "../publish/publisher.js";
import type { Store } from "../store/database.js";
import type { CliContext } from "./context.js";

/** The configured tree, once: which banks it lags behind the store on, and a publish of some banks. */
export interface Publishing {
  /** The banks among these whose published tree does not show what is stored. */
  unpublished(bankIds: string[]): Promise<string[]>;
  /** Re-publishes these banks (the others carried), signed as configured; the new generation. */
  publish(bankIds: string[]): Promise<PublishResult>;
}

export async function publishing(ctx: CliContext, store: Store): Promise<Publishing> {
  const [{ unpublishedBanks }, { loadBanks }, { publish }, { publicationSigning }, { treeTargetFor }] =
    await Promise.all([
      import("../backfill/backfill.js"),
      import("../feed/registry.js"),
      import("../publish/publisher.js"),
      import("../publish/signing.js"),
      import("../publish/target-for.js"),
    ]);
  const target = await treeTargetFor(ctx.config());
  return {
    unpublished: (bankIds) => unpublishedBanks(store, target, bankIds),
    publish: async (bankIds) =>
      publish(store, await loadBanks(), target, {
        only: bankIds,
        signing: await publicationSigning(ctx.config()),
      }),
  };
}

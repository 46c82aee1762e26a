// Publishing from a one-off command (`import`, `anomalies release`), loaded only when the command gets
// that far: the publisher, its renderers, the bucket client and the signing keys take about half a second
// to load, which a command refused on its input, or one that only lists, does not pay.
import type { PublishResult } from "../publish/publisher.js";
import type { Store } from "../store/database.js";
import type { CliContext } from "./context.js";

/** Re-publishes these banks (the others carried), signed as configured; the new generation. */
export async function publishBanks(ctx: CliContext, store: Store, bankIds: string[]): Promise<PublishResult> {
  const [{ loadAdapters }, { publish }, { publicationSigning }, { treeTargetFor }] = await Promise.all([
    import("../feed/registry.js"),
    import("../publish/publisher.js"),
    import("../publish/signing.js"),
    import("../publish/target-for.js"),
  ]);
  return publish(store, [...(await loadAdapters()).values()], await treeTargetFor(ctx.config()), {
    only: bankIds,
    signing: await publicationSigning(ctx.config()),
  });
}

/** The banks among these whose published tree does not show what is stored. */
export async function unpublishedOf(ctx: CliContext, store: Store, bankIds: string[]): Promise<string[]> {
  const [{ unpublishedBanks }, { treeTargetFor }] = await Promise.all([
    import("../backfill/backfill.js"),
    import("../publish/target-for.js"),
  ]);
  return unpublishedBanks(store, await treeTargetFor(ctx.config()), bankIds);
}

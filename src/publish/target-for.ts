// Which tree target the configuration names (src/publish/target.ts).
import type { Config } from "../config.js";
import type { Store } from "../store/database.js";
import type { BankEntry } from "../types.js";
import { publish, type PublishResult } from "./publisher.js";
import type { PublicationSigning } from "./signing.js";
import { LocalTreeTarget, type TreeTarget } from "./target.js";

/**
 * EXRATES_PUBLISH_URL's bucket when set (the publish lock stays in out/), else the out/ directory.
 * The S3 code (and the AWS SDK) is loaded only when a bucket is configured.
 */
export async function treeTargetFor(config: Pick<Config, "outDir" | "publishUrl">): Promise<TreeTarget> {
  if (!config.publishUrl) return new LocalTreeTarget(config.outDir);
  const { S3TreeTarget } = await import("./s3-target.js");
  return S3TreeTarget.fromUrl(config.publishUrl, config.outDir);
}

/**
 * What the daemon's scheduler publishes with when the tree goes to a bucket (its `publish` option:
 * no ids means every bank whose data changed); undefined keeps its default, the out/ directory.
 */
export async function bucketPublisher(
  config: Pick<Config, "outDir" | "publishUrl">,
  store: Store,
  adapters: readonly BankEntry[],
  signing: () => Promise<PublicationSigning>,
): Promise<((bankIds: string[]) => Promise<PublishResult>) | undefined> {
  if (!config.publishUrl) return undefined;
  const target = await treeTargetFor(config);
  return async (bankIds) =>
    publish(store, adapters, target, { ...(bankIds.length ? { only: bankIds } : {}), signing: await signing() });
}

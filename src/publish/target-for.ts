// Which tree target the configuration names (src/publish/target.ts).
import type { Config } from "../config.js";
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

// The publisher for tests that check what a generation holds, not its signature: `publish` with
// signing turned off explicitly, as an operator's EXRATES_PUBLICATION_SIGNING=off does. The product's
// callers always pass the publication keys (src/publish/signing.ts).
import type { Store } from "../../src/store/database.js";
import type { BankAdapter } from "../../src/types.js";
import { publish as publishSigned, type PublishOptions, type PublishResult } from "../../src/publish/publisher.js";
import { UNSIGNED } from "../../src/publish/signing.js";
import type { TreeTarget } from "../../src/publish/target.js";

export { latestPath, compressSiblings } from "../../src/publish/publisher.js";

/** Publishes unsigned unless `options.signing` says otherwise. */
export function publish(
  store: Store,
  adapters: BankAdapter[],
  target: string | TreeTarget,
  options: Partial<PublishOptions> = {},
): Promise<PublishResult> {
  return publishSigned(store, adapters, target, { signing: UNSIGNED, ...options });
}

/** The signing a scheduler or a bucket publisher is given in a test: off. */
export const unsigned = () => Promise.resolve(UNSIGNED);

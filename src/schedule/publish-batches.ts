// The daemon's publishes: one at a time, batched. A bank whose data changed asks for a publish of its
// files; the banks asked for while a publish is going on are rendered together by the next one.

/**
 * Publishes one at a time, and batches: the banks asked for while a publish is going on are rendered
 * together by the next one (at a catch-up, ninety banks stored within a minute make a few
 * generations, not ninety). Each caller's promise settles with the publish that covered its banks.
 */
export function batchingPublisher(publishBanks: (bankIds?: string[]) => Promise<unknown>) {
  interface Batch {
    /** undefined: every bank whose data changed. */
    ids: Set<string> | undefined;
    done: Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }
  let next: Batch | undefined;
  let current: Promise<void> | undefined;

  async function drain(): Promise<void> {
    for (let batch = next; batch; batch = next) {
      next = undefined;
      try {
        batch.resolve(await publishBanks(batch.ids ? [...batch.ids].sort() : undefined));
      } catch (error) {
        batch.reject(error);
      }
    }
    current = undefined;
  }

  return {
    /** Re-renders the given banks; without ids, every bank whose data changed since the last publish. */
    republish: (bankIds?: string[]): Promise<unknown> => {
      if (!next) {
        let resolve!: (value: unknown) => void;
        let reject!: (error: unknown) => void;
        const done = new Promise((res, rej) => ((resolve = res), (reject = rej)));
        next = { ids: new Set(), done, resolve, reject };
      }
      if (!bankIds) next.ids = undefined;
      else if (next.ids) for (const id of bankIds) next.ids.add(id);
      const { done } = next;
      current ??= drain();
      return done;
    },
    /** Settles when the publishes asked for so far have. */
    idle: (): Promise<void> => current ?? Promise.resolve(),
  };
}

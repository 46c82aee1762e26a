// The fetch slots the daemon's tries share: at most `size` tries fetch and store at once, handed out
// by priority, then in the order they were asked for. A run holds a slot only for one try; its wait
// before polling again is a timer and holds none, so a bank whose publication is late never keeps
// the banks behind it from starting.

/** Lower goes first. */
export const PRIORITY = {
  /** The first try of a scheduled or manual run: on time, so ahead of the catch-up. */
  scheduled: 0,
  /** The first try of a catch-up run at start. */
  catchUp: 1,
  /** A poll after a try that found nothing new, or a retry after a failure. */
  retry: 2,
} as const;

export type Release = () => void;

export interface Slots {
  /**
   * Resolves with the function that gives the slot back once one is free (calling it twice is
   * harmless), or with undefined when `signal` aborts first.
   */
  acquire(priority: number, order: number, signal: AbortSignal): Promise<Release | undefined>;
  /** Tries holding a slot. */
  busy(): number;
  /** Tries waiting for one. */
  queued(): number;
}

interface Waiter {
  priority: number;
  order: number;
  grant: (release: Release | undefined) => void;
}

export function createSlots(size: number): Slots {
  const capacity = Math.max(1, size);
  let busy = 0;
  const waiting: Waiter[] = [];

  const first = (a: Waiter, b: Waiter) => a.priority - b.priority || a.order - b.order;

  function release(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      busy--;
      handOut();
    };
  }

  function handOut() {
    while (busy < capacity && waiting.length > 0) {
      waiting.sort(first);
      const next = waiting.shift()!;
      busy++;
      next.grant(release());
    }
  }

  return {
    acquire(priority, order, signal) {
      if (signal.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const waiter: Waiter = {
          priority,
          order,
          grant: (r) => {
            signal.removeEventListener("abort", onAbort);
            resolve(r);
          },
        };
        const onAbort = () => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          resolve(undefined);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.push(waiter);
        handOut();
      });
    },
    busy: () => busy,
    queued: () => waiting.length,
  };
}

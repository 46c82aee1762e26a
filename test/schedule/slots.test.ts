// The fetch slots shared by the daemon's tries, and the batching of its publishes.
import { describe, expect, it } from "vitest";

import { batchingPublisher } from "../../src/schedule/publish-batches.js";
import { createSlots } from "../../src/schedule/slots.js";

describe("slots and publishing", () => {
  it("slots go by priority, then in the order asked; an abort takes a waiter out of the queue", async () => {
    const slots = createSlots(1);
    const signal = new AbortController();
    const order: string[] = [];
    const first = await slots.acquire(5, 0, signal.signal);
    const take = (name: string, priority: number, n: number, s = signal.signal) =>
      slots.acquire(priority, n, s).then((release) => {
        order.push(release ? name : `${name} (aborted)`);
        release?.();
      });
    const gone = new AbortController();
    const all = [
      take("late retry", 2, 1),
      take("catch-up", 1, 3),
      take("scheduled", 0, 4),
      take("x", 0, 2, gone.signal),
    ];
    gone.abort();
    expect(slots.queued()).toBe(3);
    first!();
    first!(); // twice is harmless
    await Promise.all(all);
    expect(order).toEqual(["x (aborted)", "scheduled", "catch-up", "late retry"]);
    expect(slots.busy()).toBe(0);
  });

  it("publishes asked for during a publish are batched into the next one", async () => {
    const calls: Array<string[] | undefined> = [];
    let finish!: () => void;
    const publisher = batchingPublisher((banks) => {
      calls.push(banks);
      return calls.length === 1 ? new Promise<void>((r) => (finish = r)) : Promise.resolve();
    });
    const a = publisher.republish(["AAA"]);
    const b = publisher.republish(["CCC"]);
    const c = publisher.republish(["BBB", "CCC"]);
    finish();
    await Promise.all([a, b, c]);
    await publisher.idle();
    expect(calls).toEqual([["AAA"], ["BBB", "CCC"]]);
  });
});

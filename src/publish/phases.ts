// Where a publish spends its time, phase by phase (render, compress, links, fsyncs, manifest, switch,
// prune...): filled when the caller asks for it (bench/publish.mjs prints it), a few clock reads
// otherwise.

/** Milliseconds per phase, summed over the publish. */
export type PublishTimings = Record<string, number>;

export class PhaseTimer {
  constructor(readonly timings: PublishTimings = {}) {}

  add(phase: string, ms: number): void {
    this.timings[phase] = (this.timings[phase] ?? 0) + ms;
  }

  /** Runs `work`, adding its time to `phase` (also when it throws). */
  async time<T>(phase: string, work: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, performance.now() - start);
    }
  }

  /** The synchronous twin of `time`. */
  timeSync<T>(phase: string, work: () => T): T {
    const start = performance.now();
    try {
      return work();
    } finally {
      this.add(phase, performance.now() - start);
    }
  }
}

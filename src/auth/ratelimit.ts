// Failed client authentications, counted per key (client id, address) in fixed windows. A key that
// reached its limit is refused (429, Retry-After) until its window ends, even with the right secret:
// that is what makes guessing pointless. Memory is bounded: expired windows are swept, and when the
// table is still full the oldest entries go.

export interface LimitOptions {
  /** Failures allowed per window. */
  max: number;
  windowMs: number;
  /** Keys tracked at most. */
  capacity?: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class FailureLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly capacity: number;

  constructor(
    private readonly options: LimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.capacity = options.capacity ?? 100_000;
  }

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const w = this.windows.get(key);
    if (!w) return 0;
    const now = this.now();
    if (w.resetAt <= now) {
      this.windows.delete(key);
      return 0;
    }
    return w.count >= this.options.max ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const w = this.windows.get(key);
    if (w && w.resetAt > now) {
      w.count++;
      return;
    }
    if (w) this.windows.delete(key);
    if (this.windows.size >= this.capacity) this.sweep(now);
    this.windows.set(key, { count: 1, resetAt: now + this.options.windowMs });
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    let excess = this.windows.size - Math.floor(this.capacity * 0.9);
    for (const key of this.windows.keys()) {
      if (excess-- <= 0) break;
      this.windows.delete(key);
    }
  }
}

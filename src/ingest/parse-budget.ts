// Parsing within a memory budget. Parsing an answer takes several times its size (the text, a tree or
// packed cells, the records), and the daemon's catch-up runs several banks' tries at once, each with
// answers of up to 64 MiB. Each parse reserves its answer's size times PARSE_COST_FACTOR from one budget
// for the process and waits, first come first served, while the budget is spent: concurrent parses
// together stay within it. Small answers (nearly all) never wait; an answer larger than the whole budget
// still parses, alone.

const MiB = 1024 * 1024;

/** What the parses of one process may reserve at once. */
export const PARSE_BUDGET_BYTES = 384 * MiB;
/** What a parse is reckoned to take, in times its answer's size. */
export const PARSE_COST_FACTOR = 4;

export class ParseBudget {
  private used = 0;
  private readonly waiting: Array<{ cost: number; go: () => void }> = [];

  constructor(readonly capacity: number) {}

  /** Runs `work` (a parse of `bytes` of answer) once its share of the budget is free. */
  async run<T>(bytes: number, work: () => T | Promise<T>): Promise<T> {
    const cost = Math.min(this.capacity, Math.max(0, bytes) * PARSE_COST_FACTOR);
    await this.acquire(cost);
    try {
      return await work();
    } finally {
      this.release(cost);
    }
  }

  /** Bytes reserved now. */
  inUse(): number {
    return this.used;
  }

  private acquire(cost: number): Promise<void> {
    if (this.waiting.length === 0 && this.used + cost <= this.capacity) {
      this.used += cost;
      return Promise.resolve();
    }
    return new Promise((go) => this.waiting.push({ cost, go }));
  }

  private release(cost: number): void {
    this.used -= cost;
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.cost <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.cost;
      next.go();
    }
  }
}

/** The budget every ingest of this process parses within. */
export const parseBudget = new ParseBudget(PARSE_BUDGET_BYTES);

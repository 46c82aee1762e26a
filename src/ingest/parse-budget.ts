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

/**
 * The largest HTML answer read. HTML cannot be read in pieces: a page is parsed whole into a tree (cheerio),
 * which takes about 35 times the page's size (measured: 8 MiB of a bank's table rows, 320 MB peak RSS;
 * 16 MiB, 532 MB; 32 MiB exhausted a 512 MB heap). Bank pages are under 400 KB (the largest recorded,
 * BOJA's, is 396 KB), so 8 MiB leaves twenty times that while keeping a parse within the process's
 * 512 MB. A larger HTML answer is refused whole, before it is parsed.
 */
export const HTML_MAX_BYTES = 8 * MiB;

/** Whether an answer is an HTML page: by its declared type, or by its first bytes when none says. */
export function isHtmlAnswer(body: Buffer, contentType: string | undefined): boolean {
  if (contentType && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  const start = body
    .subarray(0, 512)
    .toString("latin1")
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart();
  return /^<(!doctype\s+html|html[\s>])/i.test(start);
}

/** Why an answer is too large to read (an HTML page over HTML_MAX_BYTES); undefined when it is not. */
export function tooLargeToParse(body: Buffer, contentType: string | undefined): string | undefined {
  if (body.length <= HTML_MAX_BYTES || !isHtmlAnswer(body, contentType)) return undefined;
  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  return `an HTML answer of ${mib(body.length)} is over the ${mib(HTML_MAX_BYTES)} an HTML page is read within (a page is parsed whole, about 35 times its size)`;
}

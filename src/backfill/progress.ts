// The progress bar of `exrates backfill` on a terminal: one line, drawn again on every chunk that
// starts or ends, showing the chunks in progress (not the last one done). Lines written through
// `note` appear above it; `clear` removes it for good, so the summary that follows stands alone.
import type { ChunkEvent, ChunkStart } from "./backfill.js";

/** What the bar writes to: stderr, or a test's fake terminal. */
export interface TerminalStream {
  write(text: string): unknown;
  columns?: number;
}

export interface Progress {
  started(chunk: ChunkStart): void;
  finished(event: ChunkEvent): void;
  /** The chunks fetching now, oldest first. */
  inFlight(): Array<ChunkStart & { since: number }>;
  /** A line above the bar. */
  note(line: string): void;
  /** Removes the bar; later notes are plain lines. */
  clear(): void;
}

/** Carriage return, then erase the whole line. */
const ERASE_LINE = "\r\x1b[2K";
const BAR_WIDTH = 20;

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export interface ProgressOptions {
  /** Where notes (and the bar) go; none: nothing is written. */
  stream?: TerminalStream;
  /** Draw the bar (a terminal); false: notes only, as plain lines. Default true. */
  bar?: boolean;
  now?: () => number;
}

/** Tracks the chunks in flight and draws the bar. */
export function createProgress(total: number, options: ProgressOptions = {}): Progress {
  const { stream } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const flying = new Map<string, ChunkStart & { since: number }>();
  const key = (c: ChunkStart) => `${c.bankId} ${c.from}`;
  let done = 0;
  let added = 0;
  let failed = 0;
  let fetched = 0;
  let fetchMs = 0;
  let visible = stream !== undefined && options.bar !== false;

  function line(): string {
    const filled = total ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
    const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`;
    const chunks = [...flying.values()].map((c) => `${c.bankId} ${c.from}..${c.to}`);
    const now_ = chunks.length ? `now ${chunks.join(", ")}` : done < total ? "starting" : "done";
    // The ETA counts the chunks fetched, not those skipped as done already.
    const left = total - done;
    const eta = fetched && left ? ` | eta ${formatDuration((fetchMs / fetched) * left)}` : "";
    return `backfill ${bar} ${done}/${total} chunks | ${now_} | +${added} rows, ${failed} failed | ${formatDuration(now() - started)}${eta}`;
  }

  function draw(): void {
    if (!visible || !stream) return;
    const width = (stream.columns ?? 120) - 1;
    const text = line();
    stream.write(`${ERASE_LINE}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
  }

  draw();
  return {
    started(chunk) {
      flying.set(key(chunk), { ...chunk, since: now() });
      draw();
    },
    finished(event) {
      flying.delete(key(event));
      done = event.done;
      added += event.inserted;
      if (event.status === "failed") failed++;
      if (event.status !== "skipped") {
        fetched++;
        fetchMs += event.ms;
      }
      draw();
    },
    inFlight: () => [...flying.values()],
    note(text) {
      if (!stream) return;
      stream.write(visible ? `${ERASE_LINE}${text}\n` : `${text}\n`);
      draw();
    },
    clear() {
      if (visible && stream) stream.write(ERASE_LINE);
      visible = false;
    },
  };
}

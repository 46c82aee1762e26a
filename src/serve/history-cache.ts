// The dated answers the server has rendered, kept so that the same date asked again costs no read and
// no rendering: a least-recently-used map from (bank, effective date, format, filter, bank facts) to
// the answer's bytes (identity, and gzip or br once asked for), its ETag and Last-Modified. Bounded
// both by bytes (ANSWER_CACHE_BYTES, every encoding counted) and by entries (ANSWER_CACHE_ENTRIES).
//
// An entry is stamped with the store's generation (`PRAGMA data_version`, which moves at every commit
// of another connection). After a commit, an entry is checked once against the version of its rows
// (count, newest stored_at and fetch id: a cheap statement) before it is served again: an ingest of
// another date or bank keeps it, a change of one of its figures drops it.
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

import { Counter } from "prom-client";

import { processRegistry } from "../metrics.js";

/**
 * At most this many bytes of answers are kept: about 8,000 one-date answers of a 40-currency bank (JSON
 * 2 KB, XML 3 KB, CSV 1.4 KB), eleven years of one such bank in the three text formats.
 */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;
/** At most this many answers are kept (small filtered answers would otherwise be many). */
export const ANSWER_CACHE_ENTRIES = 16_384;

export type Encoding = "identity" | "gzip" | "br";

/** The brotli settings of every history answer (fast, text mode). */
export const BROTLI = {
  params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
};

/** A rendered dated answer. */
export interface Answer {
  etag: string;
  /** ISO 8601 time of the newest row behind it ("" when none). */
  lastModified: string;
  /** Headers that depend on the answer's rows (the currencies asked for and not quoted). */
  headers: Record<string, string>;
  /** What the answer was made from: compared after a commit before the entry is served again. */
  version: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

interface Entry {
  answer: Answer;
  generation: number;
  bytes: number;
}

const lookups = new Counter({
  name: "exrates_history_answer_cache_total",
  help: "Dated history answers: served from the cache of rendered answers (hit) or read and rendered (miss)",
  labelNames: ["result"] as const,
  registers: [processRegistry],
});
const hits = lookups.labels("hit");
const misses = lookups.labels("miss");

/**
 * The bytes in memory of their own: a small Buffer is often a slice of a larger block (Node's 8 KB pool,
 * zlib's 16 KB output chunk) that it keeps alive whole, which would make the byte bound a fiction.
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = ANSWER_CACHE_BYTES,
    private readonly maxEntries = ANSWER_CACHE_ENTRIES,
  ) {}

  /** How many answers and bytes are held. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The answer under `key`, or one made by `make` (and kept). An entry of an older generation is
   * served only if `version()` still names what it was made from.
   */
  answer(key: string, generation: number, version: () => string, make: () => Answer): Answer {
    const entry = this.entries.get(key);
    if (entry && (entry.generation === generation || entry.answer.version === version())) {
      entry.generation = generation;
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
      hits.inc();
      return entry.answer;
    }
    if (entry) this.drop(key, entry);
    misses.inc();
    const answer = make();
    const fresh = { answer, generation, bytes: answer.identity.length };
    this.entries.set(key, fresh);
    this.bytes += fresh.bytes;
    this.trim();
    return answer;
  }

  /**
   * answer, for a store read asynchronously (PostgreSQL): the entry is looked at again after each
   * read, since other requests may have replaced or dropped it meanwhile.
   */
  async answerAsync(
    key: string,
    generation: number,
    version: () => Promise<string>,
    make: () => Promise<Answer>,
  ): Promise<Answer> {
    const entry = this.entries.get(key);
    if (entry) {
      const current = entry.generation === generation || entry.answer.version === (await version());
      if (this.entries.get(key) === entry) {
        if (current) {
          entry.generation = generation;
          this.entries.delete(key);
          this.entries.set(key, entry);
          hits.inc();
          return entry.answer;
        }
        this.drop(key, entry);
      }
    }
    misses.inc();
    const answer = await make();
    const previous = this.entries.get(key);
    if (previous) this.drop(key, previous);
    const fresh = { answer, generation, bytes: answer.identity.length };
    this.entries.set(key, fresh);
    this.bytes += fresh.bytes;
    this.trim();
    return answer;
  }

  /** The answer's bytes in an encoding, compressed on first need and kept with it. */
  encoded(key: string, answer: Answer, encoding: Encoding): Buffer {
    if (encoding === "identity") return answer.identity;
    let bytes = answer[encoding];
    if (!bytes) {
      bytes = ownBytes(encoding === "gzip" ? gzipSync(answer.identity) : brotliCompressSync(answer.identity, BROTLI));
      answer[encoding] = bytes;
      const entry = this.entries.get(key);
      if (entry?.answer === answer) {
        entry.bytes += bytes.length;
        this.bytes += bytes.length;
        this.trim();
      }
    }
    return bytes;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** Drops the least recently used answers until both bounds hold. */
  private trim(): void {
    while (this.entries.size > this.maxEntries || (this.bytes > this.maxBytes && this.entries.size > 0)) {
      const [key, entry] = this.entries.entries().next().value!;
      this.drop(key, entry);
    }
  }
}

// The dated answers the server has rendered, kept so that the same date asked again costs no read and
// no rendering: a least-recently-used map from (bank, effective date, format, filter, bank facts) to
// the answer's bytes (identity, and gzip or br once asked for), its ETag and Last-Modified. Bounded
// both by bytes (ANSWER_CACHE_BYTES, every encoding counted) and by entries (ANSWER_CACHE_ENTRIES);
// filtered answers are kept apart (AnswerCaches, FILTERED_CACHE_BYTES).
//
// An entry is stamped with the store's generation (`PRAGMA data_version`, which moves at every commit
// of another connection). After a commit, an entry is checked once against the version of its rows
// (count, newest stored_at and fetch id: a cheap statement) before it is served again: an ingest of
// another date or bank keeps it, a change of one of its figures drops it.
import { brotliCompressSync, gzipSync } from "node:zlib";

import { LRUCache } from "lru-cache";
import { Counter } from "prom-client";

import { processRegistry } from "../../../metrics.js";
import { BROTLI } from "../../http/dynamic.js";
import type { Encoding } from "../../http/negotiate.js";

/**
 * At most this many bytes of answers are kept: about 8,000 one-date answers of a 40-currency bank (JSON
 * 2 KB, XML 3 KB, CSV 1.4 KB), eleven years of one such bank in the three text formats.
 */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;
/** At most this many answers are kept (small filtered answers would otherwise be many). */
export const ANSWER_CACHE_ENTRIES = 16_384;
/**
 * Answers to a `currencies=` filter have a cache of their own, this large: filters come in endless
 * combinations, and a client trying many of them must not push out the whole-day answers every client
 * shares (each of its answers would be a miss anyway).
 */
export const FILTERED_CACHE_BYTES = 4 * 1024 * 1024;
export const FILTERED_CACHE_ENTRIES = 8_192;

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

// lru-cache rather than a Map re-inserted on every hit: deleting and setting the same key again and
// again leaves a chain of deleted slots behind it in V8's hash table, so that one date asked thousands of
// times a second cost tens of microseconds per lookup in a full cache (BENCHMARKS.md, History).
export class AnswerCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(maxBytes = ANSWER_CACHE_BYTES, maxEntries = ANSWER_CACHE_ENTRIES) {
    this.entries = new LRUCache({ max: maxEntries, maxSize: maxBytes });
  }

  /** How many answers and bytes are held. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /**
   * The answer under `key`, or one made by `make` (and kept). An entry of an older generation is
   * served only if `version()` still names what it was made from.
   */
  answer(key: string, generation: number, version: () => string, make: () => Answer): Answer {
    const entry = this.entries.get(key);
    if (entry && (entry.generation === generation || entry.answer.version === version())) {
      entry.generation = generation;
      hits.inc();
      return entry.answer;
    }
    misses.inc();
    return this.keep(key, make(), generation);
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
      if (current && this.entries.peek(key) === entry) {
        entry.generation = generation;
        hits.inc();
        return entry.answer;
      }
    }
    misses.inc();
    return this.keep(key, await make(), generation);
  }

  /** The answer's bytes in an encoding, compressed on first need and kept with it. */
  encoded(key: string, answer: Answer, encoding: Encoding): Buffer {
    if (encoding === "identity") return answer.identity;
    let bytes = answer[encoding];
    if (!bytes) {
      bytes = ownBytes(encoding === "gzip" ? gzipSync(answer.identity) : brotliCompressSync(answer.identity, BROTLI));
      answer[encoding] = bytes;
      // Set again with its new size, so that the byte bound counts every encoding (as a new entry
      // object: lru-cache keeps the old size when the same value is set again).
      const entry = this.entries.peek(key);
      if (entry?.answer === answer) this.entries.set(key, { ...entry }, { size: sizeOf(answer) });
    }
    return bytes;
  }

  private keep(key: string, answer: Answer, generation: number): Answer {
    // An answer larger than the whole bound is served but not kept (lru-cache refuses it).
    this.entries.set(key, { answer, generation }, { size: sizeOf(answer) });
    return answer;
  }
}

/** The bytes an answer holds, every encoding made so far counted (at least 1: lru-cache's rule). */
function sizeOf(answer: Answer): number {
  return Math.max(1, answer.identity.length + (answer.gzip?.length ?? 0) + (answer.br?.length ?? 0));
}

/** The caches of one store: whole-day answers, and answers to a `currencies=` filter kept apart. */
export class AnswerCaches {
  readonly whole = new AnswerCache();
  readonly filtered = new AnswerCache(FILTERED_CACHE_BYTES, FILTERED_CACHE_ENTRIES);

  for(filtered: boolean): AnswerCache {
    return filtered ? this.filtered : this.whole;
  }
}

// The token endpoint's limits, built so that nobody can turn them against a client:
// - FailureLimiter: failed client authentications per key - (client id, address) for a known client,
//   the address alone for ids that name no client. Past `max` failures a key is refused (429,
//   Retry-After) for `windowMs`, doubled at each further failure up to `maxDelayMs`; a success clears
//   it, and a key quiet for a window after its last refusal is forgotten. Someone else's failures -
//   from another address, or with made-up ids - never refuse a client's right secret.
// - GrantLimiter: successful grants per client (a token bucket): tokens live 300 s, so a client asking
//   for one every second is far off any sane use and gets 429 until its bucket refills.
// Memory is bounded by entries (capacity; expired ones swept, then the least recently used dropped) and
// by key size (a longer key is kept as its hash: an attacker cannot make an entry large).
import { createHash } from "node:crypto";

import { LRUCache } from "lru-cache";

export interface LimitOptions {
  /** Failures allowed before a key is refused. */
  max: number;
  /** The first refusal lasts this long; a key quiet this long after its last refusal is forgotten. */
  windowMs: number;
  /** The longest refusal: each failure past `max` doubles it up to this (default 15 minutes). */
  maxDelayMs?: number;
  /** Keys tracked at most. */
  capacity?: number;
}

/** Longest key kept as it is. */
const MAX_KEY_LENGTH = 200;

function boundedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `#${createHash("sha256").update(key).digest("base64url")}`;
}

/** Seconds of a wait in ms, as Retry-After says it (at least 1). */
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

interface Failures {
  count: number;
  /** Epoch ms until which the key is refused (0: not refused). */
  blockedUntil: number;
  /** Epoch ms after which the entry is forgotten. */
  expiresAt: number;
}

/**
 * Entries in least-recently-used order, with a capacity. lru-cache rather than a Map re-inserted at each
 * use: one key deleted and set again and again (one address failing over and over) leaves a chain of
 * deleted slots behind it in V8's hash table, which made each of its failures cost ~40 µs in a table of
 * 20,000 keys.
 */
class BoundedMap<V extends { expiresAt: number }> {
  private readonly entries: LRUCache<string, V>;

  constructor(private readonly capacity: number) {
    this.entries = new LRUCache({ max: capacity });
  }

  get(key: string, now: number): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined && v.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return v;
  }

  set(key: string, value: V, now: number): void {
    if (this.entries.size >= this.capacity && !this.entries.has(key)) this.sweep(now);
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Characters held in keys (memory is bounded by entries and by key size). */
  get keyChars(): number {
    let n = 0;
    for (const key of this.entries.keys()) n += key.length;
    return n;
  }

  /** Full: the expired entries go, and if that is not a tenth, the least recently used down to 90%. */
  private sweep(now: number): void {
    const expired = [...this.entries.entries()].filter(([, v]) => v.expiresAt <= now).map(([key]) => key);
    for (const key of expired) this.entries.delete(key);
    while (this.entries.size > Math.floor(this.capacity * 0.9)) this.entries.pop();
  }
}

export class FailureLimiter {
  private readonly failures: BoundedMap<Failures>;
  private readonly maxDelayMs: number;

  constructor(
    private readonly options: LimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.failures = new BoundedMap(options.capacity ?? 100_000);
    this.maxDelayMs = Math.max(options.windowMs, options.maxDelayMs ?? 15 * 60_000);
  }

  /** Seconds until `key` may try again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const now = this.now();
    const f = this.failures.get(boundedKey(key), now);
    return f !== undefined && f.blockedUntil > now ? seconds(f.blockedUntil - now) : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const k = boundedKey(key);
    const f = this.failures.get(k, now) ?? { count: 0, blockedUntil: 0, expiresAt: 0 };
    f.count++;
    const past = f.count - this.options.max;
    if (past >= 0) f.blockedUntil = now + Math.min(this.options.windowMs * 2 ** Math.min(past, 30), this.maxDelayMs);
    f.expiresAt = Math.max(now, f.blockedUntil) + this.options.windowMs;
    this.failures.set(k, f, now);
  }

  /** A success: the key's failures are forgotten. */
  succeed(key: string): void {
    this.failures.delete(boundedKey(key));
  }

  get size(): number {
    return this.failures.size;
  }

  get keyChars(): number {
    return this.failures.keyChars;
  }
}

export interface GrantOptions {
  /** Grants a client may get per minute, sustained (0: no limit). */
  perMinute: number;
  /** Grants a client may get at once (default: twice perMinute). */
  burst?: number;
  /** Clients tracked at most. */
  capacity?: number;
}

interface Bucket {
  tokens: number;
  at: number;
  expiresAt: number;
}

export class GrantLimiter {
  private readonly buckets: BoundedMap<Bucket>;
  private readonly burst: number;
  private readonly perMs: number;

  constructor(
    private readonly options: GrantOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new BoundedMap(options.capacity ?? 10_000);
    this.burst = Math.max(1, options.burst ?? options.perMinute * 2);
    this.perMs = options.perMinute / 60_000;
  }

  /** Takes one grant for `key`: 0 when granted, else the seconds until one is available. */
  take(key: string): number {
    if (this.options.perMinute <= 0) return 0;
    const now = this.now();
    const k = boundedKey(key);
    const b = this.buckets.get(k, now) ?? { tokens: this.burst, at: now, expiresAt: 0 };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    // A full bucket is the default state: forget it once it would be full again.
    const refill = (tokens: number) => now + Math.ceil((this.burst - tokens) / this.perMs);
    if (b.tokens < 1) {
      b.expiresAt = refill(b.tokens);
      this.buckets.set(k, b, now);
      return seconds((1 - b.tokens) / this.perMs);
    }
    b.tokens -= 1;
    b.expiresAt = refill(b.tokens);
    this.buckets.set(k, b, now);
    return 0;
  }

  get size(): number {
    return this.buckets.size;
  }
}

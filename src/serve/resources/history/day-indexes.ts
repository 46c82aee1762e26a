// The in-memory indexes of banks' stored days (src/store/day-index.ts) that a dated lookup missing the
// cache of answers reads instead of the store: built on a bank's first miss, from one read of all its
// rows, and kept current by the store's generation. After a commit, a bank's index is checked once
// against the version of all its rows and its warned figures (what every dated ETag is made of); an
// ingest of another bank keeps it, a change to one of its figures builds it again.
//
// Bounded by bytes (DAY_INDEX_BYTES, least recently used bank dropped first): about 8 bytes a figure,
// so that ninety banks of twenty years (16 million figures) fit.
import { LRUCache } from "lru-cache";

import { BankDays, bankFingerprint } from "../../../store/day-index.js";
import type { Eventually, HistoryReader, HistoryStore, RateWarning, RowsVersion } from "../../../store/history.js";

/** At most this many bytes of indexes are kept by default. */
export const DAY_INDEX_BYTES = 160 * 1024 * 1024;

/**
 * The bound of a new store's indexes: EXRATES_DAY_INDEX_MB when set (0: no index, every miss read from
 * the store, as before the index), else DAY_INDEX_BYTES. Read when a store's first miss makes its indexes.
 */
export function dayIndexBytes(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const mb = env.EXRATES_DAY_INDEX_MB;
  if (mb === undefined || mb.trim() === "") return DAY_INDEX_BYTES;
  const n = Number(mb);
  if (!Number.isFinite(n) || n < 0) throw new Error(`EXRATES_DAY_INDEX_MB: "${mb}" is not a number of megabytes`);
  return Math.floor(n * 1024 * 1024);
}

const FIRST = "0000-01-01";
const LAST = "9999-12-31";

interface Entry {
  days: BankDays;
  generation: number;
}

/** Both values, now when both are, else later. */
function both<A, B>(a: Eventually<A>, b: Eventually<B>): Eventually<[A, B]> {
  return a instanceof Promise || b instanceof Promise ? Promise.all([a, b]) : [a, b];
}
function then<T, U>(value: Eventually<T>, f: (v: T) => Eventually<U>): Eventually<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

export class DayIndexes {
  /** Indexes being read (PostgreSQL): requests arriving meanwhile share the read. */
  private readonly pending = new Map<string, Promise<BankDays | undefined>>();
  /** Banks whose index alone is larger than the bound: read from the store. */
  private readonly tooLarge = new Set<string>();

  private readonly banks: LRUCache<string, Entry> | undefined;

  constructor(private readonly maxBytes = DAY_INDEX_BYTES) {
    // lru-cache refuses a bound of 0: no cache at all then.
    this.banks =
      maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (e) => Math.max(1, e.days.bytes) }) : undefined;
  }

  /** How many banks and bytes are held. */
  get size(): { banks: number; bytes: number } {
    return { banks: this.banks?.size ?? 0, bytes: this.banks?.calculatedSize ?? 0 };
  }

  /** The bank's index on SQLite (every read synchronous); undefined when it is too large to keep. */
  now(store: HistoryReader, id: string): BankDays | undefined {
    return this.of(store, id) as BankDays | undefined;
  }

  /** The bank's index, current for the store's generation; undefined when it is too large to keep. */
  of(store: HistoryStore, id: string): Eventually<BankDays | undefined> {
    if (!this.banks || this.tooLarge.has(id)) return undefined;
    const generation = store.generation();
    const entry = this.banks.get(id);
    if (entry && entry.generation === generation) return entry.days;
    const waiting = this.pending.get(id);
    if (waiting) return waiting;
    const made = entry ? this.checked(store, id, entry, generation) : this.built(store, id, generation);
    if (made instanceof Promise) {
      const shared = made.finally(() => this.pending.delete(id));
      this.pending.set(id, shared);
      return shared;
    }
    return made;
  }

  /** The entry, if its bank's rows and warnings are still those it was built from, else a new one. */
  private checked(store: HistoryStore, id: string, entry: Entry, generation: number): Eventually<BankDays | undefined> {
    const now = both<RowsVersion, RateWarning[]>(store.versionOf(id, FIRST, LAST), store.warnings(id, FIRST, LAST));
    return then(now, ([version, warnings]) => {
      if (bankFingerprint(version, warnings) !== entry.days.fingerprint) return this.built(store, id, generation);
      entry.generation = generation;
      return entry.days;
    });
  }

  private built(store: HistoryStore, id: string, generation: number): Eventually<BankDays | undefined> {
    const read = both(store.bankRows(id), store.warnings(id, FIRST, LAST));
    return then(read, ([rows, warnings]) => {
      const days = BankDays.build(rows, warnings);
      if (days.bytes > this.maxBytes) {
        this.banks!.delete(id);
        this.tooLarge.add(id);
        return undefined;
      }
      this.banks!.set(id, { days, generation });
      return days;
    });
  }
}

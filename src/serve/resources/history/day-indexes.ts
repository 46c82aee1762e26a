// The in-memory indexes of banks' stored days (src/store/day-index.ts) that a dated lookup missing the
// cache of answers reads instead of the store: made after a bank's first miss from a read of all its
// rows, in turns of the event loop (misses read the store meanwhile), and kept current by the store's
// generation. After a commit, a bank's index is checked once against the version of all its rows and
// its warned figures (what every dated ETag is made of); an ingest of another bank keeps it, a change
// to one of its figures builds it again. A build during which another connection commits is dropped
// (its reads would mix two states) and made again at the next miss.
//
// Bounded by bytes (DAY_INDEX_BYTES, least recently used bank dropped first): about 8 bytes a figure,
// so that ninety banks of twenty years (16 million figures) fit.
import { LRUCache } from "lru-cache";

import { BankDays, bankFingerprint } from "../../../store/day-index.js";
import { HistoryReader, type HistoryStore } from "../../../store/history.js";

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
/** Rows read from SQLite per turn of a build in turns: ~10 ms on a quiet core, ~35 ms with the core shared ten ways. */
const READ_SLICE = 4096;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Entry {
  days: BankDays;
  generation: number;
}

export class DayIndexes {
  /** Banks whose index is being checked or built in turns. */
  private readonly building = new Map<string, Promise<unknown>>();
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

  /**
   * The bank's index when one is current for the store's generation; else undefined, and its check or
   * build is started (unless one is under way, or the bank is too large to keep). That is done in turns
   * of the event loop (on SQLite a slice of rows read, then a slice indexed, per turn; on PostgreSQL one
   * asynchronous read, then a slice indexed per turn), while the miss that starts it and those meanwhile
   * read the store as without an index: no request waits behind a whole bank's build (~290 ms for
   * 182,630 figures on a quiet core).
   */
  of(store: HistoryStore, id: string): BankDays | undefined {
    if (!this.banks || this.tooLarge.has(id)) return undefined;
    const generation = store.generation();
    const entry = this.banks.get(id);
    if (entry && entry.generation === generation) return entry.days;
    if (!this.building.has(id)) {
      const made = this.madeInTurns(store, id, entry, generation)
        .catch(() => undefined) // a failed read leaves no index: the next miss starts again
        .finally(() => this.building.delete(id));
      this.building.set(id, made);
    }
    return undefined;
  }

  /**
   * The bank's index, waiting for a build under way (and starting one) as a first miss's request never
   * does: for tests and benches. Undefined when the bank has no index to keep.
   */
  async whenBuilt(store: HistoryStore, id: string): Promise<BankDays | undefined> {
    for (let tries = 0; tries < 3; tries++) {
      const days = this.of(store, id);
      if (days || !this.building.has(id)) return days;
      await this.building.get(id);
    }
    return this.of(store, id);
  }

  /** The entry checked against the store, else built again, in turns; dropped if the store changes meanwhile. */
  private async madeInTurns(store: HistoryStore, id: string, entry: Entry | undefined, generation: number) {
    // Anything another connection committed since `generation` was read makes the index's reads a mix.
    const unchanged = async () => (await store.refresh()) === generation;
    await turn();
    if (!(await unchanged())) return;
    if (entry) {
      // Two reads in two turns: on SQLite each is 10-20 ms for twenty years of a bank.
      const version = await store.versionOf(id, FIRST, LAST);
      await turn();
      const warnings = await store.warnings(id, FIRST, LAST);
      if (!(await unchanged())) return;
      if (bankFingerprint(version, warnings) === entry.days.fingerprint) {
        entry.generation = generation;
        return;
      }
      await turn();
    }
    const days = await this.builtInTurns(store, id, unchanged);
    if (!days || !(await unchanged())) return;
    if (days.bytes > this.maxBytes) {
      this.banks!.delete(id);
      this.tooLarge.add(id);
      return;
    }
    this.banks!.set(id, { days, generation });
  }

  /**
   * The bank's index from its rows and warnings: on SQLite read and added READ_SLICE rows per turn, on
   * PostgreSQL read at once (asynchronously) then added in turns. Undefined when the store changed meanwhile.
   */
  private async builtInTurns(store: HistoryStore, id: string, unchanged: () => Promise<boolean>) {
    const warnings = () => store.warnings(id, FIRST, LAST);
    if (!(store instanceof HistoryReader)) {
      const rows = await store.bankRows(id);
      if (!(await unchanged())) return undefined;
      return BankDays.buildInTurns(rows, await warnings(), turn);
    }
    const builder = await this.readInTurns(store, id, unchanged);
    if (!builder) return undefined;
    const warned = await warnings();
    await turn();
    return builder.finish(warned);
  }

  /** A SQLite bank's rows read and added READ_SLICE per turn; undefined when the store changed meanwhile. */
  private async readInTurns(store: HistoryReader, id: string, unchanged: () => Promise<boolean>) {
    const builder = BankDays.builder();
    let after: [string, string] | undefined = ["", ""];
    while (after) {
      const slice = store.bankRowsAfter(id, after[0], after[1], READ_SLICE);
      builder.add(slice.rows);
      after = slice.next;
      await turn();
      if (!(await unchanged())) return undefined;
    }
    return builder;
  }
}

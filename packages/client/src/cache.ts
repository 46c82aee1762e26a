// The client's small cache of answers by ETag: a GET that gets 304 is answered from here. Bounded by
// bytes (a range's XLSX may be large); an answer bigger than a quarter of the bound is not kept.
import { LRUCache } from "lru-cache";

export interface CachedAnswer {
  etag: string;
  body: Buffer;
  /** The headers the client reads from a 200 (content type, disposition, filters, location). */
  headers: Record<string, string>;
}

export interface ResponseCacheOptions {
  /** Total bytes of bodies kept (default 16 MiB). */
  maxBytes?: number;
  /** Answers kept at most (default 500). */
  maxEntries?: number;
}

export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer>;

  constructor(options: ResponseCacheOptions = {}) {
    const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.entries = new LRUCache({
      max: options.maxEntries ?? 500,
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
      sizeCalculation: (answer) => Math.max(1, answer.body.length),
    });
  }

  get(key: string): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, answer: CachedAnswer): void {
    this.entries.set(key, answer);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

// The cache of rendered dated answers (src/serve/resources/history/answer-cache.ts): least recently used out first, both
// bounds held (bytes, every encoding counted, and entries), and an entry of an older store generation
// served only while the version of its rows is unchanged.
import { gunzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import {
  AnswerCache,
  AnswerCaches,
  FILTERED_CACHE_ENTRIES,
  ownBytes,
  type Answer,
} from "../../src/serve/resources/history/answer-cache.js";

const answer = (text: string, version = "v1"): Answer => ({
  etag: `"${text.slice(0, 8)}"`,
  lastModified: "",
  headers: {},
  version,
  identity: Buffer.from(text),
});

describe("the cache of dated answers", () => {
  it("makes an answer once, then serves it until the generation moves and its version with it", () => {
    const cache = new AnswerCache(1 << 20, 100);
    let made = 0;
    const make = () => (made++, answer("body one"));
    const first = cache.answer("k", 1, () => "v1", make);
    expect(cache.answer("k", 1, () => "v1", make)).toBe(first);
    expect(made).toBe(1);
    // Another commit (generation 2) that left this answer's rows alone: still served, not made again.
    expect(cache.answer("k", 2, () => "v1", make)).toBe(first);
    expect(made).toBe(1);
    // A commit that changed them: made again.
    const second = cache.answer(
      "k",
      3,
      () => "v2",
      () => (made++, answer("body two", "v2")),
    );
    expect(second).not.toBe(first);
    expect(second.identity.toString()).toBe("body two");
    expect(made).toBe(2);
  });

  it("drops the least recently used answers to stay within its entries", () => {
    const cache = new AnswerCache(1 << 20, 2);
    const version = () => "v1";
    cache.answer("a", 1, version, () => answer("a"));
    cache.answer("b", 1, version, () => answer("b"));
    cache.answer("a", 1, version, () => answer("a again")); // a is now the most recent
    cache.answer("c", 1, version, () => answer("c"));
    expect(cache.size.entries).toBe(2);
    expect(cache.answer("a", 1, version, () => answer("a made again")).identity.toString()).toBe("a");
    expect(cache.answer("b", 1, version, () => answer("b made again")).identity.toString()).toBe("b made again");
  });

  it("counts every encoding's bytes against its byte bound", () => {
    const text = "x".repeat(1000);
    const cache = new AnswerCache(2500, 100);
    const a = cache.answer(
      "a",
      1,
      () => "v1",
      () => answer(text),
    );
    cache.answer(
      "b",
      1,
      () => "v1",
      () => answer(text),
    );
    expect(cache.size).toEqual({ entries: 2, bytes: 2000 });
    const gz = cache.encoded("a", a, "gzip");
    expect(gunzipSync(gz).toString()).toBe(text);
    expect(cache.encoded("a", a, "gzip")).toBe(gz);
    expect(cache.size.bytes).toBe(2000 + gz.length);
    expect(
      cache.answer(
        "a",
        1,
        () => "v1",
        () => answer("not made"),
      ),
    ).toBe(a); // a is now the most recent
    // A third answer goes over the bound: the least recently used (b) goes.
    cache.answer(
      "c",
      1,
      () => "v1",
      () => answer(text),
    );
    expect(cache.size.entries).toBe(2);
    expect(cache.size.bytes).toBe(2000 + gz.length);
    let remade = false;
    cache.answer(
      "b",
      1,
      () => "v1",
      () => ((remade = true), answer(text)),
    );
    expect(remade).toBe(true);
  });

  it("keeps bytes of their own, not a slice that holds a larger block alive", () => {
    const pooled = Buffer.from("a short body"); // a slice of Node's 8 KB pool
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const own = ownBytes(pooled);
    expect(own.equals(pooled)).toBe(true);
    expect(own.buffer.byteLength).toBe(own.length);
    const cache = new AnswerCache(1 << 20, 10);
    const a = cache.answer(
      "a",
      1,
      () => "v1",
      () => answer("x".repeat(100)),
    );
    const gz = cache.encoded("a", a, "gzip");
    expect(gz.buffer.byteLength).toBe(gz.length);
  });

  it("keeps filtered answers apart: a flood of one-off filters does not push out the whole-day answers", () => {
    const caches = new AnswerCaches();
    let made = 0;
    const whole = () => (made++, answer("the whole day"));
    const first = caches.for(false).answer("CNB 2025-06-13 json *", 1, () => "v1", whole);
    for (let i = 0; i < FILTERED_CACHE_ENTRIES + 1000; i++)
      caches.for(true).answer(
        `CNB 2025-06-13 json filter ${i}`,
        1,
        () => "v1",
        () => answer(`filtered ${i}`),
      );
    expect(caches.for(true).size.entries).toBe(FILTERED_CACHE_ENTRIES);
    expect(caches.for(false).answer("CNB 2025-06-13 json *", 1, () => "v1", whole)).toBe(first);
    expect(made).toBe(1);
    // The oldest filtered answers went: the first is made again.
    let remade = false;
    caches.for(true).answer(
      "CNB 2025-06-13 json filter 0",
      1,
      () => "v1",
      () => ((remade = true), answer("again")),
    );
    expect(remade).toBe(true);
  });
});

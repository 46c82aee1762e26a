import { describe, expect, it, vi } from "vitest";

import cnb from "../../adapters/CNB.js";
import { FeedError } from "../../src/errors.js";
import { parseDocuments } from "../../src/ingest/ingest.js";

import {
  HTML_MAX_BYTES,
  isHtmlAnswer,
  PARSE_COST_FACTOR,
  ParseBudget,
  tooLargeToParse,
} from "../../src/ingest/parse-budget.js";
import type { FeedDocument } from "../../src/types.js";

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("the parse budget", () => {
  it("runs small parses at once and makes a large one wait until the budget is free again", async () => {
    const budget = new ParseBudget(100 * PARSE_COST_FACTOR);
    const order: string[] = [];
    const parse = (name: string, bytes: number) =>
      budget.run(bytes, async () => {
        order.push(`start ${name}`);
        await later();
        order.push(`end ${name}`);
        return name;
      });
    const results = await Promise.all([parse("a", 60), parse("b", 30), parse("c", 60), parse("d", 5)]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    // c (60) does not fit beside a (60): it waits for a; d waits behind c (first come, first served).
    expect(order.indexOf("start c")).toBeGreaterThan(order.indexOf("end a"));
    expect(order.indexOf("start b")).toBeLessThan(order.indexOf("end a"));
    expect(order.indexOf("start d")).toBeGreaterThan(order.indexOf("end a"));
    expect(budget.inUse()).toBe(0);
  });

  it("parses an answer larger than the whole budget alone, and gives its share back when the parse throws", async () => {
    const budget = new ParseBudget(10);
    await expect(budget.run(1_000, () => Promise.reject(new Error("bad answer")))).rejects.toThrow("bad answer");
    expect(budget.inUse()).toBe(0);
    expect(await budget.run(1_000, () => "parsed")).toBe("parsed");
  });
});

describe("an HTML answer over the size an HTML page is read within", () => {
  const doc = (body: Buffer, contentType = "application/octet-stream"): FeedDocument => ({
    url: "https://bank.example/rates.html",
    method: "GET",
    status: 200,
    contentType,
    body,
    startedAt: new Date("2026-03-02T12:00:00Z"),
    finishedAt: new Date("2026-03-02T12:00:00Z"),
  });
  const page = (bytes: number) =>
    Buffer.concat([Buffer.from("<!DOCTYPE html><html><body><table>"), Buffer.alloc(bytes, "<tr><td>x</td></tr>")]);

  it("is refused whole, naming its size and the bound, before the adapter parses it", async () => {
    const parse = vi.fn(() => ({ records: [], held: [] }));
    const big = page(HTML_MAX_BYTES + 1);
    await expect(parseDocuments({ ...cnb, parse }, [doc(big, "text/html; charset=utf-8")])).rejects.toThrow(
      /^CNB: refused https:\/\/bank\.example\/rates\.html: an HTML answer of 8\.0 MiB is over the 8\.0 MiB an HTML page is read within/,
    );
    // Told by its first bytes when the declared type is not HTML's.
    await expect(parseDocuments({ ...cnb, parse }, [doc(big)])).rejects.toBeInstanceOf(FeedError);
    expect(parse).not.toHaveBeenCalled();
  });

  it("is read up to the bound, and any size of another format goes to the adapter", () => {
    expect(isHtmlAnswer(page(10), undefined)).toBe(true);
    expect(isHtmlAnswer(Buffer.from('{"rates":[]}'), "application/json")).toBe(false);
    expect(tooLargeToParse(page(HTML_MAX_BYTES - 100), "text/html")).toBeUndefined();
    expect(tooLargeToParse(Buffer.alloc(HTML_MAX_BYTES * 2, " "), "text/csv")).toBeUndefined();
    expect(tooLargeToParse(page(HTML_MAX_BYTES), "application/xhtml+xml")).toMatch(/an HTML answer of 8\.0 MiB/);
  });
});

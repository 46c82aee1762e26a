import { describe, expect, it } from "vitest";

import { PARSE_COST_FACTOR, ParseBudget } from "../../src/ingest/parse-budget.js";

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

// The exact JSON reader gives lossless-json's tree (every number's digits, key order, duplicate keys) on
// every JSON fixture of the project and on hand-made edge cases, and refuses a tree beyond its budget.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";

import { jsonNumberText, parseJsonExact } from "../../src/feed/body.js";
import { JsonTooLarge, readJsonExact, readJsonReckoned } from "../../src/feed/json-exact.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

/** A tree with each number as `n:<its text>`, to compare trees number text by number text. */
const plain = (value: unknown): unknown =>
  isLosslessNumber(value)
    ? `n:${(value as { value: string }).value}`
    : Array.isArray(value)
      ? value.map(plain)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
        : value;

const walk = (d: string): string[] =>
  readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const jsonFixtures = walk(FIXTURES_DIR)
  .map((path) => ({ path, body: readFileSync(path) }))
  .filter(({ body }) => /^\s*[[{]/.test(body.subarray(0, 64).toString("latin1")))
  .filter(({ body }) => {
    try {
      parseLossless(body.toString("utf8").replace(/^\uFEFF/, ""));
      return true;
    } catch {
      return false;
    }
  });

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("exact JSON from bytes", () => {
  it("finds JSON fixtures to compare", () => {
    expect(jsonFixtures.length).toBeGreaterThan(40);
  });

  it("gives lossless-json's tree, key order and number texts included, on every JSON fixture", () => {
    for (const { path, body } of jsonFixtures) {
      const expected = parseLossless(body.toString("utf8").replace(/^\uFEFF/, ""));
      expect(JSON.stringify(plain(readJsonExact(body))), path).toBe(JSON.stringify(plain(expected)));
    }
  });

  it("keeps digits, escapes, non-Latin letters and repeated values exactly", () => {
    const text =
      '{"rate": 24.170, "big": 123456789012345678901234567890.000000000000000000001, "e": -0.5E-3, "z": 0,' +
      '"s": "x\\u00e9\\n\\"\\/\\\\ \\ud83d\\ude00", "cz": "Záhřeb €", "a": [1, 1, 24.170, "EUR", "EUR"],' +
      ' "t": true, "f": false, "n": null, "o": {}, "l": [], "__proto__": {"p": 1}}';
    const tree = readJsonExact(bytes(text)) as Record<string, unknown>;
    expect(plain(tree)).toEqual(plain(parseLossless(text)));
    expect(jsonNumberText(tree.rate)).toBe("24.170");
    expect(jsonNumberText(tree.big)).toBe("123456789012345678901234567890.000000000000000000001");
    expect(tree.s).toBe('xé\n"/\\ 😀');
    expect(tree.cz).toBe("Záhřeb €");
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype);
    expect(Object.keys(tree)).toEqual(Object.keys(parseLossless(text) as object));
    const shared = tree.a as unknown[];
    expect(shared[0]).toBe(shared[1]); // one copy of a repeated number
    expect(jsonNumberText(shared[2])).toBe("24.170");
  });

  it("reads the bytes of an answer as its text: a byte-order mark, whitespace, one value", () => {
    expect(plain(readJsonExact(bytes('\uFEFF \n[1, "a"]\r\n')))).toEqual(["n:1", "a"]);
    expect(plain(parseJsonExact("AAA", bytes("  7.50 ")))).toBe("n:7.50");
    expect(parseJsonExact("AAA", '"text"')).toBe("text");
  });

  it.each([
    ['{"rate": 24.1', /^AAA: malformed JSON \(.*end of input/],
    ['{"a": 1, "a": 2}', /^AAA: malformed JSON \(Duplicate key 'a'/],
    ["[1,]", /^AAA: malformed JSON/],
    ['{"a": 1,}', /^AAA: malformed JSON \(Quoted object key expected/],
    ["[01]", /^AAA: malformed JSON/],
    ["[-]", /^AAA: malformed JSON \(Invalid number/],
    ["[1.]", /^AAA: malformed JSON \(Invalid number/],
    ["[1e]", /^AAA: malformed JSON \(Invalid number/],
    ["tru", /^AAA: malformed JSON \(JSON value expected/],
    ["[1 2]", /^AAA: malformed JSON \(Comma ','/],
    ['{"a" 1}', /^AAA: malformed JSON \(Colon ':'/],
    ['"\\x"', /^AAA: malformed JSON \(Invalid escape/],
    ['"\\u12"', /^AAA: malformed JSON \(Invalid escape/],
    ['"a\tb"', /^AAA: malformed JSON \(Invalid character/],
    ["[1] x", /^AAA: malformed JSON \(Expected end of input/],
    ["  \n ", /^AAA: empty body where JSON was expected/],
    ["<!DOCTYPE html><html>", /^AAA: an HTML page where JSON was expected/],
  ])("refuses %j", (text, error) => {
    expect(() => parseJsonExact("AAA", bytes(text))).toThrow(error);
    expect(() => parseLossless(text)).toThrow(); // lossless-json refuses it too
  });

  it("refuses bytes that are not UTF-8", () => {
    expect(() => parseJsonExact("AAA", Buffer.from([0x22, 0xff, 0x22]))).toThrow("AAA: body is not valid utf-8 text");
  });

  it("refuses a tree beyond its budget whole, saying so, however the answer is shaped", () => {
    const budget = 1024 * 1024;
    const shapes = {
      "empty objects": `[${"{},".repeat(100_000)}{}]`,
      "nested arrays": `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      "distinct keys": `[${Array.from({ length: 20_000 }, (_, k) => `{"k${k}":0}`).join(",")}]`,
      "one huge figure": `{"rates":[{"rate":1${"0".repeat(2 * budget)}}]}`,
      "one huge string": `["${"é".repeat(budget)}"]`,
    };
    for (const [shape, text] of Object.entries(shapes)) {
      expect(() => readJsonExact(bytes(text), budget), shape).toThrow(JsonTooLarge);
      expect(() => readJsonExact(bytes(text), budget), shape).toThrow(
        /^the JSON answer \(.* MiB\) would take more than 1\.0 MiB once read \(reckoned at byte \d+ of it\): refused whole$/,
      );
    }
    // The same within a budget that holds them.
    expect(readJsonReckoned(bytes(shapes["empty objects"]), 64 * budget).cost).toBeGreaterThan(100_000 * 64);
  });

  it("reckons what a tree of small rows costs, well under the budget for a year of fixings", () => {
    const row = (i: number) =>
      `{"validFor":"2026-01-${String(1 + (i % 28)).padStart(2, "0")}","order":${i % 31},"country":"EMU","currency":"euro","amount":1,"currencyCode":"EUR","rate":24.${i}}`;
    const text = `{"rates":[${Array.from({ length: 10_000 }, (_, i) => row(i)).join(",")}]}`;
    const { value, cost } = readJsonReckoned(bytes(text));
    expect((value as { rates: unknown[] }).rates).toHaveLength(10_000);
    expect(cost).toBeLessThan(4 * text.length);
  });
});

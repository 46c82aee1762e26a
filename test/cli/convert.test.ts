// `exrates convert` through the real binary over imported fixtures of CNB's real format: the result
// and the formula as the hand computation says, the set in force on a weekend, JSON as the API gives
// it, and one clear line for bad input.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-convert-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
  const imported = exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/convert-days.json")], env);
  expect(imported.status, imported.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exrates convert", () => {
  it("converts through the newest stored set, saying how", () => {
    // 1250.00 x 20.742 / 24.195 = 1071.605703657780533168... -> 1071.61
    const r = exrates(["convert", "cnb", "1250.00", "usd", "EUR"], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        "1250.00 USD = 1071.61 EUR",
        "  CNB, the set of 2026-01-05, Direct against CZK",
        "  1250.00 x 20.742 / 24.195 = 1071.6057036577805331...",
        "  rounded half away from zero to 2 decimals (EUR's ISO 4217 minor units)",
        "  figures: USD 20.742 per 1 (2026-01-05); EUR 24.195 per 1 (2026-01-05)",
        "",
      ].join("\n"),
    );
  });

  it("uses the set in force on a Saturday, and prints the API's JSON", () => {
    // 2026-01-03 (Saturday) -> 2026-01-02: 125000 x 13.141 / 100 / 24.170 = 16426.25 / 24.170 = 679.6131568059577989...
    const r = exrates(["convert", "CNB", "125000", "JPY", "EUR", "--date", "2026-01-03", "--json"], env);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      date: "2026-01-03",
      effectiveDate: "2026-01-02",
      result: "679.61",
      unrounded: "679.61315680595779892",
      formula: "125000 x 13.141 / 100 / 24.170",
    });
  });

  it.each([
    [["convert", "CNB", "1e3", "USD", "EUR"], /amount: "1e3" is not a plain non-negative decimal/],
    [["convert", "CNB", "1", "USD", "XYZ"], /"XYZ" is not an ISO 4217 currency code/],
    [
      ["convert", "CNB", "1", "IDR", "CZK", "--date", "2026-01-05"],
      /CNB quoted no rate of IDR \(nearest date it did: 2026-01-02\) on 2026-01-05/,
    ],
  ])("refuses %j with one line", (args, message) => {
    const r = exrates(args, env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

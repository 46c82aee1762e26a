// A currency named by rule, through the built binary: `exrates parse` shows how each name was resolved
// on the records and on a held row, and `exrates anomalies` shows it beside a held figure.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";

let dir: string;
let env: Record<string, string>;
const KRONA = 'name "DANISH KRONA" resolved by normalisation as "Danish Krone"';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-names-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
  // The Central Bank of Nigeria's whole-history answer: one name read by territory, and one date given
  // two figures for a name read by normalisation (both held, as any conflict).
  const row = (id: number, currency: string, rate: string) =>
    ({ id, currency, ratedate: "2026-05-19", buyingrate: "1", centralrate: rate, sellingrate: "1" }) as const;
  const body = [
    row(1, "U.S.A DOLLAR", "1373.3717"),
    row(2, "DANISH KRONA", "214.5012"),
    row(3, "DANISH KRONA", "215.5012"),
  ];
  writeFileSync(join(dir, "cbn.json"), JSON.stringify(body));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("currency names resolved by rule, at the command line", () => {
  it("exrates parse prints each resolution's derivation", () => {
    const r = exrates(["parse", "CBN", join(dir, "cbn.json")], env);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { records: unknown[]; held: Array<Record<string, unknown>> };
    expect(out.records).toEqual([
      {
        effectiveDate: "2026-05-19",
        currency: "USD",
        rate: "1373.3717",
        derivation: 'name "U.S.A DOLLAR" resolved by territory US',
      },
    ]);
    expect(out.held.map((h) => [h.kind, h.currency, h.rate, h.derivation])).toEqual([
      ["conflict", "DKK", "214.5012", KRONA],
      ["conflict", "DKK", "215.5012", KRONA],
    ]);
  });

  it("exrates anomalies shows it beside the held figures, in JSON and in text", () => {
    const imported = exrates(["import", "CBN", join(dir, "cbn.json")], env);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/^CBN: 1 added, .* 2 held/);
    const list = JSON.parse(exrates(["anomalies", "CBN", "--json"], env).stdout) as Array<Record<string, unknown>>;
    expect(list.map((a) => [a.kind, a.currency, a.rate, a.derivation])).toEqual([
      ["conflict", "DKK", "214.5012", KRONA],
      ["conflict", "DKK", "215.5012", KRONA],
    ]);
    const text = exrates(["anomalies", "CBN"], env).stdout;
    expect(text.match(/^ {7}derived: .*$/gm)).toEqual([`       derived: ${KRONA}`, `       derived: ${KRONA}`]);
  });
});

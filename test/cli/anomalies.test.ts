// `exrates import` of an answer with bad rows, through the built binary: every other row stored, exit 0,
// the held count printed; `exrates anomalies --json` lists them; the published files never carry a held
// figure; `exrates anomalies release` publishes one after review.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";

let dir: string;
let env: Record<string, string>;
const latest = () => readFileSync(join(dir, "out/v1/Banks/CNB/DailyRates/Latest.json"), "utf8");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-anomalies-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
  const body = {
    rates: [
      { validFor: "2026-03-02", currencyCode: "EUR", amount: 1, rate: 24.17 },
      { validFor: "2026-03-02", currencyCode: "USD", amount: 1, rate: 20.611 },
      { validFor: "2026-03-02", currencyCode: "USD", amount: 1, rate: 20.612 },
      { validFor: "2026-03-02", currencyCode: "GBP", amount: "one", rate: 27.5 },
      { validFor: "2026-02-30", currencyCode: "JPY", amount: 100, rate: 13.141 },
    ],
  };
  writeFileSync(join(dir, "answer.json"), JSON.stringify(body));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exrates import and anomalies", () => {
  it("stores every other row, exits 0 and says how many rows it held", () => {
    const r = exrates(["import", "CNB", join(dir, "answer.json")], env);
    expect(r.stderr).not.toMatch(/unexpected/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^CNB: 1 added, 0 revised, 0 unchanged \(2026-03-02 to 2026-03-02\), 4 held/);
  });

  it("lists the held rows with their reasons as JSON", () => {
    const r = exrates(["anomalies", "CNB", "--json"], env);
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(list.map((a) => [a.kind, a.currency, a.rate, a.status])).toEqual([
      ["unknown-unit", "GBP", "27.5", "held"],
      ["bad-date", "JPY", "13.141", "held"],
      ["conflict", "USD", "20.611", "held"],
      ["conflict", "USD", "20.612", "held"],
    ]);
    for (const a of list) {
      expect(a).toHaveProperty("id");
      expect(a.bankId).toBe("CNB");
      expect(String(a.reason).length).toBeGreaterThan(10);
    }
    expect(exrates(["anomalies", "CNB", "--json"], env).stdout).toBe(r.stdout); // listing changes nothing
  });

  it("publishes none of the held figures, and one after it is released", () => {
    expect(exrates(["publish"], env).status).toBe(0);
    expect(latest()).toContain("24.17");
    expect(latest()).not.toContain("20.61");
    const [conflict] = (
      JSON.parse(exrates(["anomalies", "--json", "--status", "held"], env).stdout) as Array<{
        id: number;
        kind: string;
      }>
    ).filter((a) => a.kind === "conflict");
    const r = exrates(["anomalies", "release", String(conflict!.id), "--by", "auditor"], env);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/released anomaly \d+: CNB USD 20.611 on 2026-03-02/);
    expect(latest()).toContain("20.611");
    expect(latest()).not.toContain("20.612");
  });

  it("re-importing the same answer adds no anomaly and keeps the released figure", () => {
    const r = exrates(["import", "CNB", join(dir, "answer.json")], env);
    expect(r.status).toBe(0);
    const list = JSON.parse(exrates(["anomalies", "--json"], env).stdout) as unknown[];
    expect(list).toHaveLength(4);
    expect(exrates(["banks", "--json"], env).stdout).toContain('"held": 3');
  });

  it("refuses a release of what cannot be published, with one line", () => {
    const r = exrates(["anomalies", "release", "999"], env);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("exrates: no anomaly 999 (exrates anomalies lists them)");
  });
});

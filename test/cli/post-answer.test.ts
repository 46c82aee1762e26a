// Issue 21 item 5, through the real binary: `exrates parse` and `exrates import` read a saved answer of a
// POST as the daemon read it (--method POST, --form key=value), tell a navigation page by what it holds,
// and refuse an answer that yields nothing without saying why ("no rates found"), exit 1.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exrates } from "../support/cli.js";
import { FIXTURES_DIR } from "../support/fixtures.js";

const BI_RESULTS = join(FIXTURES_DIR, "BI/search-result.html");
const MAS_FORM = join(FIXTURES_DIR, "MAS/ExchangeRates.aspx.html");
const CURRENCY_FIELD = "ctl00$PlaceHolderMain$g_6c89$ctl00$ddlmatauang1";

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-post-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Parsed {
  records: Array<{ effectiveDate: string; currency: string; rate: string }>;
  held: unknown[];
  navigation?: string;
  noPublication?: string;
}

describe("a POST answer through the CLI", () => {
  it("parses a saved BI search answer with the form the daemon posted", () => {
    const run = exrates(["parse", "BI", BI_RESULTS, "--method", "POST", "--form", `${CURRENCY_FIELD}=JPY `], env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as Parsed;
    expect(out.records.map((r) => [r.effectiveDate, r.currency, r.rate])).toEqual([
      ["2026-03-04", "JPY", "10548.15"], // (10601.20 + 10495.10) / 2
      ["2026-03-05", "JPY", "10520.235"], // (10573.15 + 10467.32) / 2
    ]);
    expect(out.navigation).toBeUndefined();
  });

  it("refuses the answer when the posted form asked for another currency (--form implies POST)", () => {
    const run = exrates(["parse", "BI", BI_RESULTS, "--form", `${CURRENCY_FIELD}=USD `], env);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe("exrates: BI: the results are for JPY, the search asked for USD");
  });

  it("tells the MAS form page by what it holds: navigation when saved from a GET, refused as the answer to a POST", () => {
    const get = exrates(["parse", "MAS", MAS_FORM], env);
    expect(get.status).toBe(0);
    const out = JSON.parse(get.stdout) as Parsed;
    expect(out.navigation).toMatch(/only leads to the data/);
    expect(out.records).toEqual([]);

    const post = exrates(["parse", "MAS", MAS_FORM, "--method", "post"], env);
    expect(post.status).toBe(1);
    expect(post.stderr.trim()).toBe(
      "exrates: MAS: the ExchangeRates.aspx form where the CSV was expected (a download the site did not run)",
    );
  });

  it("prints the bank's own statement when it published nothing (exit 0), and refuses an answer that yields nothing without one", () => {
    const empty = join(dir, "mas-empty.csv");
    writeFileSync(empty, "MAS: Financial Database - Exchange Rates\n\nNo Results Found\n");
    const none = exrates(["parse", "MAS", empty, "--method", "POST"], env);
    expect(none.status).toBe(0);
    expect((JSON.parse(none.stdout) as Parsed).noPublication).toBe("No Results Found: no rates in the months asked");

    // The kuna-era list of HNB: a real answer of the bank, but nothing exrates reads from it.
    const kuna = join(dir, "hnb-kuna.json");
    writeFileSync(kuna, JSON.stringify([{ datum: "2022-05-02", jedinica: 1, valuta: "USD", srednji: "7,1" }]));
    for (const command of ["parse", "import"]) {
      const run = exrates([command, "HNB", kuna], env);
      expect(run.status, command).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim()).toMatch(/^exrates: HNB: no rates found in this answer \(GET https:\/\/\S+\)/);
    }
  });

  it("imports a saved POST answer, and refuses a malformed --method or --form with one line", () => {
    const run = exrates(["import", "BI", BI_RESULTS, "--method", "POST", "--form", `${CURRENCY_FIELD}=JPY `], env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^BI: 2 added, 0 revised, 0 unchanged \(2026-03-04 to 2026-03-05\), 0 held/);

    const method = exrates(["parse", "BI", BI_RESULTS, "--method", "PUT"], env);
    expect([method.status, method.stderr.trim()]).toEqual([1, 'exrates: --method "PUT": GET or POST']);
    const form = exrates(["parse", "BI", BI_RESULTS, "--form", "novalue"], env);
    expect([form.status, form.stderr.trim()]).toEqual([1, 'exrates: --form "novalue" is not key=value']);
    const both = exrates(["parse", "BI", BI_RESULTS, "--method", "GET", "--form", "a=b"], env);
    expect([both.status, both.stderr.trim()]).toEqual([1, "exrates: --form sends a POST: drop --method GET"]);
  });
});

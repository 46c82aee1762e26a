// Issue 2's acceptance, through the real binary: import a saved response, publish, read the four
// formats back; bad input gives one clear line, a non-zero exit, and changes nothing.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

import { parseCsv } from "../support/csv.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { exrates } from "../support/cli.js";
import { type LatestJson } from "../support/publish.js";
import { fixture, FIXTURES_DIR } from "../support/fixtures.js";

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "exrates-cli-"));
  env = { EXRATES_DATA_DIR: join(dir, "data"), EXRATES_OUT_DIR: join(dir, "out") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file in the test's folder, for a body written by the test. */
function write(name: string, body: string): string {
  writeFileSync(join(dir, name), body);
  return join(dir, name);
}

/** Every file under a folder (links followed), with its sha256: to prove nothing changed. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else files[relative(root, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(root);
  return files;
}

describe("exrates import + publish (CNB)", () => {
  it("imports a CNB response and publishes Latest in four formats with the file's digits", async () => {
    const imported = exrates(["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json")], env);
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toMatch(/^CNB: 5 added, 0 revised, 0 unchanged/);
    const published = exrates(["publish"], env);
    expect(published.status).toBe(0);

    const base = join(dir, "out/v1/Banks/CNB/DailyRates");
    const json = JSON.parse(readFileSync(join(base, "Latest.json"), "utf8")) as LatestJson;
    expect(json).toMatchObject({ bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" });
    expect(Object.keys(json.rates)).toEqual(["2026-03-03"]);
    expect(readFileSync(join(base, "Latest.json"), "utf8")).toContain('"rate": 24.1850000000000000001');
    expect(json.rates["2026-03-03"]!.JPY).toEqual({ rate: 13.141, unitMultiplier: 2 });

    const xml = readFileSync(join(base, "Latest.xml"), "utf8");
    expect(xml).toContain('<Rate currency="JPY" value="13.141" unitMultiplier="2"/>');
    const xsd = readFileSync(join(dir, "out/v1/schemas/exchange-rates-1.0.xsd"), "utf8");
    expect(
      (
        await validateXML({
          xml: [{ fileName: "Latest.xml", contents: xml }],
          schema: [{ fileName: "x.xsd", contents: xsd }],
        })
      ).valid,
    ).toBe(true);

    const rowsRead: unknown = parseCsv(readFileSync(join(base, "Latest.csv"), "utf8"));
    const csv = rowsRead as string[][];
    expect(csv).toContainEqual(["CNB", "JPY", "CZK", "2026-03-03", "13.141", "100"]);

    const wb = XLSX.read(readFileSync(join(base, "Latest.xlsx")));
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false });
    expect(rows.slice(1).map((r) => [r[1], r[4], r[5]])).toEqual([
      ["EUR", "24.1850000000000000001", "1"],
      ["JPY", "13.141", "100"],
    ]);

    const bank = JSON.parse(readFileSync(join(dir, "out/v1/banks/CNB.json"), "utf8")) as unknown;
    expect(bank).toMatchObject({
      id: "CNB",
      bankCurrency: "CZK",
      timeZone: { ianaTimeZoneName: "Europe/Prague", windowsTimeZoneId: "Central Europe Standard Time" },
    });
  });

  it("import publishes the bank it stored, and says so; --no-publish says how to publish", () => {
    const own = mkdtempSync(join(tmpdir(), "exrates-cli-import-"));
    try {
      const env = { EXRATES_DATA_DIR: join(own, "data"), EXRATES_OUT_DIR: join(own, "out") };
      const file = join(FIXTURES_DIR, "CNB/daily-year.json");
      const first = exrates(["import", "CNB", file], env);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/\nCNB: published in generation \S+\n$/);
      expect(existsSync(join(own, "out/v1/Banks/CNB/DailyRates/Latest.json"))).toBe(true);
      const again = exrates(["import", "CNB", file], env);
      expect(again.stdout.split("\n")[1]).toBe("CNB: the published tree is up to date");

      const quiet = { EXRATES_DATA_DIR: join(own, "data2"), EXRATES_OUT_DIR: join(own, "out2") };
      const stored = exrates(["import", "CNB", file, "--no-publish"], quiet);
      expect(stored.stdout.split("\n")[1]).toBe(
        "CNB: not published (--no-publish); `exrates publish CNB` publishes it",
      );
      expect(existsSync(join(own, "out2"))).toBe(false);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("prints exact records with parse, sorted by date then currency", () => {
    const r = exrates([
      "parse",
      "cbr",
      join(FIXTURES_DIR, "CBR/XML_daily.xml"),
      "--url",
      "https://www.cbr.ru/scripts/XML_daily.asp",
    ]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      bankId: "CBR",
      baseCurrency: "RUB",
      quoteType: "Direct",
      records: [
        { effectiveDate: "2026-03-03", currency: "IRR", rate: "1.8600", unitMultiplier: 6 },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "52.0480", unitMultiplier: 2 },
        { effectiveDate: "2026-03-03", currency: "USD", rate: "78.2010" },
      ],
      held: [],
    });
  });

  it("prints the rows it held with their reasons and still exits 0", () => {
    const body = JSON.stringify({
      rates: [
        { validFor: "2026-03-02", currencyCode: "EUR", amount: 1, rate: 24.17 },
        { validFor: "2026-03-02", currencyCode: "USD", amount: 1, rate: 20.611 },
        { validFor: "2026-03-02", currencyCode: "USD", amount: 1, rate: 20.612 },
        { validFor: "2026-03-02", currencyCode: "QQQ", amount: 1, rate: 1.5 },
      ],
    });
    const r = exrates(["parse", "CNB", write("held.json", body)]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { records: unknown[]; held: Array<Record<string, string>> };
    expect(out.records).toEqual([{ effectiveDate: "2026-03-02", currency: "EUR", rate: "24.17" }]);
    expect(out.held.map((h) => [h.kind, h.currency, h.rate])).toEqual([
      ["unknown-currency", "QQQ", "1.5"],
      ["conflict", "USD", "20.611"],
      ["conflict", "USD", "20.612"],
    ]);
    for (const h of out.held) expect(h.reason).toMatch(/ISO 4217|neither is taken/);
  });

  it("prints what README shows `parse` printing", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const block = /`parse` prints\n\n```json\n([\s\S]*?)```/.exec(readme);
    expect(block, "README's parse sample").not.toBeNull();
    // README leaves the other records out ("…"): the answer below has only the one it shows.
    const shown = JSON.parse(block![1]!.replace(/,\s*…\s*\]/, "]")) as unknown;
    const body = JSON.stringify({
      rates: [
        { validFor: "2026-03-02", currencyCode: "HUF", amount: 100, rate: 6.304 },
        { validFor: "2026-02-30", currencyCode: "USD", amount: 1, rate: 20.611 },
      ],
    });
    const r = exrates(["parse", "CNB", write("readme.json", body)]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(shown);
  });

  describe("bad input changes nothing", () => {
    const bad: Array<[string, () => string[]]> = [
      ["an empty body", () => ["import", "CNB", write("empty.json", "")]],
      [
        "a truncated body",
        () => ["import", "CNB", write("trunc.json", fixture("CNB/daily-year.json").subarray(0, 200).toString())],
      ],
      [
        "an HTML page",
        () => [
          "import",
          "CNB",
          write("page.json", "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"),
        ],
      ],
      ["another bank's body", () => ["import", "CNB", join(FIXTURES_DIR, "ECB/live-shape.csv")]],
      ["a missing file", () => ["import", "CNB", join(dir, "nope.json")]],
      ["an unknown bank", () => ["import", "XYZ", join(FIXTURES_DIR, "CNB/daily-year.json")]],
      ["a bad --url", () => ["import", "CNB", join(FIXTURES_DIR, "CNB/daily-year.json"), "--url", "not a url"]],
      ["publish of an unknown bank", () => ["publish", "NOPE"]],
    ];
    it.each(bad)("%s: one line on stderr, exit 1, data/ and out/ byte-identical", (_what, args) => {
      const before = { data: snapshot(join(dir, "data")), out: snapshot(join(dir, "out")) };
      expect(Object.keys(before.out).length).toBeGreaterThan(0);
      const r = exrates(args());
      const run = exrates(args(), env);
      expect(r.status).toBe(1);
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/^exrates: (CNB: |unknown bank|cannot read|--url)/);
      expect(run.stderr).not.toMatch(/\bat .*\.js:\d+/);
      expect(snapshot(join(dir, "data"))).toEqual(before.data);
      expect(snapshot(join(dir, "out"))).toEqual(before.out);
    });
  });
});

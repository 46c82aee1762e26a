// The build replaces the output of our re-export modules of kysely, cheerio, date-holidays, exceljs and
// xmlbuilder2 with one bundle of each installed package (scripts/bundle-vendor.mjs), so that the CLI and the servers load one
// module instead of hundreds. Each bundle must be the package as our module re-exports it: the same
// exports, and the same answers.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import * as cheerio from "cheerio";
import Holidays from "date-holidays";
import ExcelJS from "exceljs";
import * as kysely from "kysely";
import * as xmlbuilder2 from "xmlbuilder2";
import { describe, expect, it } from "vitest";

import { VENDORED } from "../../scripts/vendored.mjs";
import * as ourCheerio from "../../src/feed/cheerio.js";

const DIST = fileURLToPath(new URL("../../dist/src/", import.meta.url));
const builtFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(join(dir, entry.name)) : entry.name.endsWith(".js") ? [join(dir, entry.name)] : [],
  );

const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;

describe.each(VENDORED)("$name as built", ({ name, module }) => {
  const built = join(DIST, `${module.replace(/^src\//, "")}.js`);

  it("is one module of the installed package's code, importing only Node's modules", () => {
    const text = readFileSync(built, "utf8");
    // Bundled from this very text of our module: a module changed since is bundled again.
    const ours = readFileSync(new URL(`../../${module}.ts`, import.meta.url), "utf8");
    const digest = createHash("sha256").update(ours).digest("hex").slice(0, 12);
    expect(text.split("\n")[0]).toBe(
      `// ${name} ${versionOf(name)}, bundled by scripts/bundle-vendor.mjs (${module}.ts ${digest})`,
    );
    const imported = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
    // A bundle imports Node's own modules only: an external the list leaves out is used by nothing our
    // module re-exports (cheerio's undici, with fromURL), and the bundle drops it.
    expect(imported.filter((spec) => !spec.startsWith("node:") && !isBuiltin(spec))).toEqual([]);
    expect(text).not.toMatch(/^export \* from/m);
  });

  it("is the only copy the built code imports", () => {
    const direct = builtFiles(DIST).filter((file) =>
      new RegExp(`from "${name}"|import\\("${name}"\\)`).test(readFileSync(file, "utf8")),
    );
    expect(direct).toEqual([]);
  });
});

describe("the bundles answer as the packages do", () => {
  it("kysely: every export, and the same SQL", async () => {
    const built = (await import(join(DIST, "store/kysely.js"))) as typeof kysely;
    expect(Object.keys(built).sort()).toEqual(Object.keys(kysely).sort());
    const query = (k: typeof kysely) => {
      const db = new k.Kysely<{ rates: { bank: string; rate: string } }>({
        dialect: {
          createAdapter: () => new k.SqliteAdapter(),
          createDriver: () => new k.DummyDriver(),
          createIntrospector: (d) => new k.SqliteIntrospector(d),
          createQueryCompiler: () => new k.SqliteQueryCompiler(),
        },
      });
      return db
        .selectFrom("rates")
        .select(["rate"])
        .where("bank", "=", "ECB")
        .where(k.sql<boolean>`rate > ${"1"}`)
        .compile();
    };
    const [ours, theirs] = [query(built), query(kysely)];
    expect([ours.sql, ours.parameters]).toEqual([theirs.sql, theirs.parameters]);
    expect(ours.sql).toBe('select "rate" from "rates" where "bank" = ? and rate > ?');
  });

  it("cheerio: what our module re-exports (load), and the same reading of a page", async () => {
    const built = (await import(join(DIST, "feed/cheerio.js"))) as typeof cheerio;
    expect(Object.keys(built).sort()).toEqual(Object.keys(ourCheerio).sort());
    expect(Object.keys(built)).toEqual(["load"]);
    const page = `<table><tr><td>USD</td><td>1,0842</td></tr><tr><td>JPY &amp; co</td><td>161,20</td></tr></table>`;
    const cells = (c: typeof cheerio) => {
      const $ = c.load(page);
      return $("td")
        .map((_, td) => $(td).text())
        .get();
    };
    expect(cells(built)).toEqual(cells(cheerio));
    expect(cells(built)).toEqual(["USD", "1,0842", "JPY & co", "161,20"]);
  });

  it("date-holidays: the same holidays, lunar calendars included", async () => {
    const built = ((await import(join(DIST, "calendar/date-holidays.js"))) as { default: typeof Holidays }).default;
    for (const country of ["CN", "KR", "DE", "IL", "SA"]) {
      const days = (H: typeof Holidays) => new H(country, { languages: ["en"] }).getHolidays(2027);
      expect(days(built), country).toEqual(days(Holidays));
      expect(days(built).length, country).toBeGreaterThan(2);
    }
  });

  it("exceljs: a workbook written by the bundle reads back, by the package, as the package's own", async () => {
    const built = ((await import(join(DIST, "publish/exceljs.js"))) as { default: typeof ExcelJS }).default;
    const write = async (E: typeof ExcelJS) => {
      const wb = new E.Workbook();
      const ws = wb.addWorksheet("Rates");
      ws.addRow(["Currency", "Rate", "Date"]).font = { bold: true };
      ws.addRow(["USD", 1.0842, new Date(Date.UTC(2026, 11, 3))]);
      ws.getCell("B2").numFmt = "0.0000";
      return Buffer.from(await wb.xlsx.writeBuffer());
    };
    const read = async (bytes: Buffer) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(bytes as unknown as ArrayBuffer);
      const ws = wb.getWorksheet("Rates")!;
      return [1, 2].map((r) => [1, 2, 3].map((c) => [ws.getCell(r, c).value, ws.getCell(r, c).numFmt]));
    };
    expect(await read(await write(built))).toEqual(await read(await write(ExcelJS)));
    expect((await read(await write(built)))[1]![1]).toEqual([1.0842, "0.0000"]);
  });

  it("xmlbuilder2: the same document, byte for byte", async () => {
    const built = (await import(join(DIST, "publish/xmlbuilder2.js"))) as typeof xmlbuilder2;
    const xml = (x: typeof xmlbuilder2) =>
      x
        .create({ version: "1.0", encoding: "UTF-8" })
        .ele("urn:example", "Rates", { bank: "CNB & co" })
        .ele("Rate", { currency: "USD" })
        .txt("1.0842")
        .up()
        .end({ prettyPrint: true });
    expect(xml(built)).toBe(xml(xmlbuilder2));
    expect(xml(built)).toContain('<Rates xmlns="urn:example" bank="CNB &amp; co">');
  });
});

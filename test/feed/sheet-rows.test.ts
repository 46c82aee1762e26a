// A sheet's rows as the row readers walk them (src/feed/sheet-rows.ts), made from the one XLSX reader's
// packed workbook: the same exact figures as cellDecimal, whatever the number formats.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import { sheetRows, streamedDate, streamedDecimal } from "../../src/feed/sheet-rows.js";
import { cellDecimal, readXlsx } from "../../src/feed/spreadsheet.js";
import { xmlText } from "../../src/feed/xlsx.js";
import { zipOf } from "../support/zip.js";

const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A workbook zipped by hand, so that its XML is exactly what the test says. */
function handMade(sheet: string, strings = "", styles = ""): Buffer {
  const parts: Record<string, string> = {
    "xl/worksheets/sheet1.xml": `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet}</sheetData><rowBreaks count="0"/></worksheet>`,
    "xl/workbook.xml":
      '<workbook xmlns:r="r"><sheets><sheet name="Ann &amp; Bob" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "_rels/.rels": `<Relationships><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="${REL}/worksheet"/><Relationship Id="rId2" Target="styles.xml" Type="${REL}/styles"/><Relationship Id="rId3" Target="sharedStrings.xml" Type="${REL}/sharedStrings"/></Relationships>`,
  };
  if (strings) parts["xl/sharedStrings.xml"] = `<sst>${strings}</sst>`;
  if (styles) parts["xl/styles.xml"] = `<styleSheet>${styles}</styleSheet>`;
  return zipOf(parts);
}

async function rowsOf(body: Buffer, sheet?: string) {
  const wb = await readXlsx("XYZ", body);
  return [...sheetRows(sheet === undefined ? wb.worksheets[0]! : wb.getWorksheet(sheet)!)];
}

describe("a sheet's rows for the row readers", () => {
  it("reads shared strings (rich text, entities, phonetic runs left out), inline strings, numbers and their formats", async () => {
    const body = handMade(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>in&lt;line</t></is></c></row>' +
        '<row r="3"><c r="A3" s="1"><v>46083</v></c><c r="B3" s="2"><v>0.59210000000000003</v></c><c s="3"><v>88.6</v></c><c r="E3" t="e"><v>#N/A</v></c><c r="F3" t="str"><f>A1</f><v>x</v></c></row>',
      '<si><t>Exchange rates</t></si><si><r><t>NZD</t></r><r><t xml:space="preserve">/USD &amp; more</t></r><rPh><t>x</t></rPh></si>',
      '<numFmts count="2"><numFmt numFmtId="172" formatCode="#,##0.00000"/><numFmt numFmtId="174" formatCode="dd\\ mmm\\ yyyy"/></numFmts>' +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="174"/><xf numFmtId="172"/><xf numFmtId="4"/></cellXfs>',
    );
    expect((await readXlsx("XYZ", body)).worksheets.map((s) => s.name)).toEqual(["Ann & Bob"]);
    const [first, third] = await rowsOf(body);
    expect(first!.row).toBe(1);
    expect([...first!.cells.values()].map((c) => [c.column, c.text])).toEqual([
      [0, "Exchange rates"],
      [2, "NZD/USD & more"],
      [3, "in<line"],
    ]);
    expect(third!.row).toBe(3);
    const cell = (column: number) => third!.cells.get(column);
    expect(streamedDate(cell(0))).toBe("2026-03-02");
    expect(cell(0)!.number).toBe(46083);
    expect(streamedDecimal(cell(1))).toBe("0.59210"); // shown to 5 decimals
    expect(cell(2)).toEqual({ column: 2, text: "88.6", number: 88.6, numFmt: "#,##0.00" }); // no r: after B
    expect(streamedDecimal(cell(2))).toBe("88.60");
    expect(cell(4)?.number).toBeUndefined();
    expect(streamedDecimal(cell(4))).toBeUndefined();
    expect(cell(5)!.text).toBe("x");
  });

  it("reads what cellDecimal reads, number for number, from a workbook exceljs wrote", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Data");
    // Typed figures (short), computed ones (17 digits), tiny and huge ones, under four formats.
    const typed = Array.from({ length: 200 }, (_v, i) => Math.round(((i * 7919) % 100_000) * 1.37) / 10 ** (i % 7));
    const computed = Array.from({ length: 100 }, (_v, i) => (i + 1) / 7 + 1e-9 * i);
    const values = [0.1 + 0.2, 1234.5, 79.70525, 9590.66675, 0.00012345, 1e-7, 1.5e21, 100, 0, ...typed, ...computed];
    const formats = ["General", "#,##0.0000", "#,##0.00000", "0.00"];
    values.forEach((v, i) => {
      const c = ws.getCell(i + 1, 2);
      c.value = v;
      c.numFmt = formats[i % formats.length]!;
    });
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    const expected = (await readXlsx("XYZ", body)).getWorksheet("Data")!;
    const rows = await rowsOf(body, "Data");
    expect(rows.map((r) => streamedDecimal(r.cells.get(1)))).toEqual(
      values.map((_v, i) => cellDecimal(expected.getCell(i + 1, 2))),
    );
  });

  it("decodes XML entities and OOXML escapes", () => {
    expect(xmlText("a &amp; b &#233; &#x41; _x000D_ &quot;")).toBe('a & b é A \r "');
    expect(xmlText("plain 1.5")).toBe("plain 1.5");
  });

  it.each([
    ["an empty body", Buffer.alloc(0)],
    ["an HTML page", Buffer.from("<!DOCTYPE html><html><body>blocked</body></html>")],
    ["a body that is no zip", Buffer.from("Date,Rate\n")],
    ["a zip that is no workbook", Buffer.from("PK\u0003\u0004truncated")],
  ])("refuses %s with a FeedError naming the bank", async (_what, body) => {
    const error = await readXlsx("XYZ", body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FeedError);
    expect((error as Error).message).toMatch(/^XYZ: /);
  });

  it("has no sheet the workbook does not have", async () => {
    const wb = await readXlsx("XYZ", handMade('<row r="1"><c r="A1"><v>1</v></c></row>'));
    expect(wb.getWorksheet("Data")).toBeUndefined();
    expect([...sheetRows(wb.worksheets[0]!)].map((r) => [r.row, r.cells.get(0)?.number])).toEqual([[1, 1]]);
  });
});

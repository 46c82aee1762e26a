import ExcelJS from "exceljs";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";

import { FeedError } from "../../src/errors.js";
import { readXlsx, cellDecimal } from "../../src/feed/spreadsheet.js";
import { openXlsxRows, streamedDate, streamedDecimal, xmlElements, xmlText } from "../../src/feed/xlsx-rows.js";

/** A workbook zipped by hand, so that its XML is exactly what the test says (order of entries included). */
async function handMade(sheet: string, strings = "", styles = ""): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    "xl/worksheets/sheet1.xml",
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet}</sheetData><rowBreaks count="0"/></worksheet>`,
  );
  zip.file(
    "xl/workbook.xml",
    '<workbook xmlns:r="r"><sheets><sheet name="Ann &amp; Bob" sheetId="1" r:id="rId1"/></sheets></workbook>',
  );
  zip.file(
    "xl/_rels/workbook.xml.rels",
    '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="x"/></Relationships>',
  );
  if (strings) zip.file("xl/sharedStrings.xml", `<sst>${strings}</sst>`);
  if (styles) zip.file("xl/styles.xml", `<styleSheet>${styles}</styleSheet>`);
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

async function rowsOf(body: Buffer, sheet?: string) {
  const wb = await openXlsxRows("XYZ", body);
  const out = [];
  for await (const row of wb.rows(sheet ?? wb.sheetNames[0]!)) out.push(row);
  return out;
}

/** The text in chunks of `size` characters, as a stream of chunks arrives. */
async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield await Promise.resolve(text.slice(i, i + size));
}

describe("the bounded-memory XLSX row reader", () => {
  it("finds every element whatever the chunk boundaries, self-closing ones too, and not longer names", async () => {
    const text =
      '<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"/><rowBreaks/><row r="3" spans="1:2"><c r="B3"><v>2</v></c></row></sheetData>';
    for (const size of [1, 2, 3, 5, 7, 64, 1000]) {
      const found = [];
      for await (const e of xmlElements(chunked(text, size), "row")) found.push(e);
      expect(found, `chunks of ${size}`).toEqual([
        { tag: '<row r="1">', inner: '<c r="A1"><v>1</v></c>' },
        { tag: '<row r="2"/>', inner: "" },
        { tag: '<row r="3" spans="1:2">', inner: '<c r="B3"><v>2</v></c>' },
      ]);
    }
  });

  it("reads shared strings (rich text, entities, phonetic runs left out), inline strings, numbers and their formats", async () => {
    const body = await handMade(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c><c r="D1" t="inlineStr"><is><t>in&lt;line</t></is></c></row>' +
        '<row r="3"><c r="A3" s="1"><v>46083</v></c><c r="B3" s="2"><v>0.59210000000000003</v></c><c s="3"><v>88.6</v></c><c r="E3" t="e"><v>#N/A</v></c><c r="F3" t="str"><f>A1</f><v>x</v></c></row>',
      '<si><t>Exchange rates</t></si><si><r><t>NZD</t></r><r><t xml:space="preserve">/USD &amp; more</t></r><rPh><t>x</t></rPh></si>',
      '<numFmts count="2"><numFmt numFmtId="172" formatCode="#,##0.00000"/><numFmt numFmtId="174" formatCode="dd\\ mmm\\ yyyy"/></numFmts>' +
        '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="174"/><xf numFmtId="172"/><xf numFmtId="4"/></cellXfs>',
    );
    const wb = await openXlsxRows("XYZ", body);
    expect(wb.sheetNames).toEqual(["Ann & Bob"]);
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
    expect(streamedDecimal(cell(1))).toBe("0.59210"); // shown to 5 decimals
    expect(cell(2)).toEqual({ column: 2, text: "88.6", number: 88.6, numFmt: "#,##0.00" }); // no r: after B
    expect(streamedDecimal(cell(2))).toBe("88.60");
    expect(cell(4)).toEqual({ column: 4, text: "#N/A" });
    expect(streamedDecimal(cell(4))).toBeUndefined();
    expect(cell(5)!.text).toBe("x");
  });

  it("reads what exceljs reads, number for number, from a workbook exceljs wrote", async () => {
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
    const error = await openXlsxRows("XYZ", body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FeedError);
    expect((error as Error).message).toMatch(/^XYZ: /);
  });

  it("refuses a sheet the workbook does not have", async () => {
    const wb = await openXlsxRows("XYZ", await handMade('<row r="1"/>'));
    await expect(async () => {
      for await (const row of wb.rows("Data")) void row;
    }).rejects.toThrow(/^XYZ: the XLSX workbook has no sheet "Data"/);
  });
});

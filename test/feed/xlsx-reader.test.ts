// The streaming XLSX reader (src/feed/xlsx.ts, workbook.ts): it reads every workbook of the fixtures,
// and the recorded workbooks when present, cell for cell as exceljs did (text, exact decimal, date),
// and keeps odd workbooks (prefixed XML, cells without references, inline strings, merges) right.
import { readdirSync } from "node:fs";

import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { cellDate, cellDecimal, cellText, readXlsx } from "../../src/feed/spreadsheet.js";
import type { Cell } from "../../src/feed/workbook.js";
import { recordingBody, recordings } from "../support/feeds.js";
import { FIXTURES_DIR, fixture } from "../support/fixtures.js";
import { zipOf } from "../support/zip.js";

/** What an adapter can read from a cell. */
const reading = (c: Cell) => ({
  text: cellText(c),
  stored: cellDecimal(c),
  displayed: cellDecimal(c, "displayed"),
  date: cellDate(c),
});

/** An exceljs cell's value as the kit's readers saw it: a formula's cached result, rich text and links as text. */
function exceljsReading(cell: ExcelJS.Cell) {
  let v = cell.value as unknown;
  // exceljs loses a formula's cached 0 (`<f>MAX(...)</f><v>0</v>` comes back without a result).
  if (v && typeof v === "object" && ("formula" in v || "sharedFormula" in v) && !("result" in v)) return undefined;
  if (v && typeof v === "object" && "result" in v) v = v.result;
  if (v && typeof v === "object" && "richText" in v)
    v = (v as { richText: Array<{ text: string }> }).richText.map((t) => t.text).join("");
  if (v && typeof v === "object" && "text" in v) v = v.text;
  return reading({ value: (v ?? null) as Cell["value"], numFmt: cell.numFmt } as Cell);
}

async function sameAsExceljs(body: Buffer): Promise<number> {
  const theirs = new ExcelJS.Workbook();
  await theirs.xlsx.load(body as unknown as ArrayBuffer);
  const ours = await readXlsx("AAA", body);
  expect(ours.worksheets.map((ws) => ws.name)).toEqual(theirs.worksheets.map((ws) => ws.name));
  let compared = 0;
  for (const [i, ws] of theirs.worksheets.entries()) {
    const mine = ours.worksheets[i]!;
    const [rows, columns] = [ws.rowCount, ws.columnCount]; // exceljs counts them anew at each call
    for (let r = 1; r <= rows; r++) {
      const row = ws.getRow(r);
      for (let c = 1; c <= columns; c++) {
        const expected = exceljsReading(row.getCell(c));
        if (expected === undefined) continue;
        const got = reading(mine.getRow(r).getCell(c));
        if (JSON.stringify(got) !== JSON.stringify(expected))
          expect({ cell: `${ws.name}!${row.getCell(c).address}`, ...got }).toEqual({
            cell: `${ws.name}!${row.getCell(c).address}`,
            ...expected,
          });
        if (expected.text !== "") compared++;
      }
    }
  }
  return compared;
}

const fixtureWorkbooks = readdirSync(FIXTURES_DIR, { recursive: true, encoding: "utf8" }).filter((f) =>
  f.endsWith(".xlsx"),
);

describe("the XLSX reader reads as exceljs did", () => {
  it.each(fixtureWorkbooks)("fixture %s", async (file) => {
    expect(await sameAsExceljs(fixture(file))).toBeGreaterThan(10);
  });

  const recorded = recordings().filter((r) => r.file.endsWith(".xlsx"));
  it.skipIf(recorded.length === 0).each(recorded.map((r) => r.file))(
    "recording %s",
    async (file) => {
      expect(await sameAsExceljs(recordingBody({ file }))).toBeGreaterThan(10);
    },
    120_000,
  );
});

/** A workbook of hand-written parts (as odd writers make them). */
function workbookOf(sheetXml: string, extra: Record<string, string> = {}): Buffer {
  const parts: Record<string, string> = {};
  parts["_rels/.rels"] =
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/xl/workbook.xml"/></Relationships>`;
  parts["xl/workbook.xml"] =
    `<?xml version="1.0"?><x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="Rates &amp; more" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`;
  parts["xl/_rels/workbook.xml.rels"] =
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
  parts["xl/styles.xml"] =
    `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0000"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"><alignment horizontal="left"/></xf><xf numFmtId="14"/></cellXfs></styleSheet>`;
  parts["xl/worksheets/sheet1.xml"] = sheetXml;
  Object.assign(parts, extra);
  return zipOf(parts);
}

describe("odd workbooks", () => {
  it("reads prefixed elements, cells without references, inline and rich strings, dates, merges and styles", async () => {
    const wb = await readXlsx(
      "AAA",
      workbookOf(
        `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:dimension ref="A1:XFD1048576"/><x:sheetData>` +
          `<x:row r="1"><x:c t="inlineStr"><x:is><x:t>Date</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:r><x:t>US</x:t></x:r><x:r><x:t xml:space="preserve">D </x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:is></x:c></x:row>` +
          `<x:row r="3"><x:c r="A3" s="2"><x:v>46083</x:v></x:c><x:c r="B3" s="1"><x:v>0.926</x:v></x:c><x:c r="C3" s="1"/><x:c r="D3" t="str"><x:f>A1&amp;"x"</x:f><x:v>a &lt;b&gt; _x0041_</x:v></x:c></x:row>` +
          `<x:row r="4"><x:c r="A4" t="e"><x:v>#N/A</x:v></x:c><x:c r="B4" t="b"><x:v>1</x:v></x:c><x:c r="C4" t="d"><x:v>2026-03-02</x:v></x:c></x:row>` +
          `<x:row r="1048576" s="3" customFormat="1"/>` +
          `</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="B3:C3"/></x:mergeCells></x:worksheet>`,
      ),
    );
    const ws = wb.getWorksheet("Rates & more")!;
    expect(ws.rowCount).toBe(4);
    expect(ws.columnCount).toBe(4);
    expect(cellText(ws.getCell("A1"))).toBe("Date");
    expect(cellText(ws.getCell("B1"))).toBe("USD");
    expect(cellDate(ws.getCell("A3"))).toBe("2026-03-02");
    expect(cellText(ws.getCell("A3"))).toBe("2026-03-02");
    expect(cellDecimal(ws.getCell("B3"))).toBe("0.9260");
    // C3 is covered by the merge: it shows its master's value, and knows its master.
    const c3 = ws.getCell("C3");
    expect([c3.isMerged, c3.master.address, cellDecimal(c3)]).toEqual([true, "B3", "0.9260"]);
    expect(ws.getCell("B3").master === ws.getCell("B3")).toBe(false); // views, compared by address
    expect(ws.getCell("B3").master.address).toBe("B3");
    expect(cellText(ws.getCell("D3"))).toBe("a <b> A");
    expect(ws.getCell("A4").value).toEqual({ error: "#N/A" });
    expect(cellText(ws.getCell("A4"))).toBe("");
    expect(ws.getCell("B4").value).toBe(true);
    expect(cellDate(ws.getCell("C4"))).toBe("2026-03-02");
    expect([...ws.rows()].map((r) => [r.number, r.cellCount, [...r.cells()].map((c) => c.address)])).toEqual([
      [1, 2, ["A1", "B1"]],
      [3, 4, ["A3", "B3", "D3"]],
      [4, 3, ["A4", "B4", "C4"]],
    ]);
  });

  it("reads cells written out of order, the last of a repeated cell winning", async () => {
    const wb = await readXlsx(
      "AAA",
      workbookOf(
        `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
          `<row r="5"><c r="C5"><v>3</v></c><c r="A5"><v>1</v></c></row><row r="2"><c r="B2"><v>2</v></c><c r="B2"><v>9</v></c></row>` +
          `</sheetData></worksheet>`,
      ),
    );
    const ws = wb.worksheets[0]!;
    expect([...ws.rows()].flatMap((r) => [...r.cells()].map((c) => `${c.address}=${cellText(c)}`))).toEqual([
      "B2=9",
      "A5=1",
      "C5=3",
    ]);
  });

  it("refuses a shared string that does not exist, and a cell outside the sheet", async () => {
    const sheet = (cells: string) =>
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${cells}</row></sheetData></worksheet>`;
    await expect(readXlsx("AAA", workbookOf(sheet('<c r="A1" t="s"><v>3</v></c>')))).rejects.toThrow(
      /^AAA: malformed or truncated XLSX workbook \(cell 1:1 names shared string 3 of 0\)/,
    );
    await expect(readXlsx("AAA", workbookOf(sheet('<c r="XFE1"><v>1</v></c>')))).rejects.toThrow(/outside the sheet/);
  });
});

// The kit's readers of binary documents: XLSX (exceljs), legacy XLS (SheetJS) and PDF text (pdf.js).
import * as XLSX from "@e965/xlsx";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import { pdfLines, pdfTextRuns } from "../../src/feed/pdf-text.js";
import {
  cellDate,
  cellDecimal,
  cellText,
  excelSerialDate,
  formatDecimals,
  numberText,
  readXls,
  readXlsx,
  xlsDecimal,
  xlsGrid,
  xlsText,
} from "../../src/feed/spreadsheet.js";
import { pdfOf } from "../support/pdf.js";

async function workbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Rates");
  ws.addRow(["Date", "USD", "JPY", "Note"]);
  ws.addRow([new Date(Date.UTC(2026, 2, 2)), 20.611, 0.926, "ok"]);
  ws.getCell("C2").numFmt = "0.0000";
  ws.addRow([46083, "3,576.17", "3.576,17", { richText: [{ text: "rich " }, { text: "text" }] }]);
  ws.getCell("A3").numFmt = "yyyy-mm-dd";
  ws.addRow(["x", 160.88058199999998, { formula: "B2*2", result: 41.222 }, ""]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe("XLSX through exceljs", () => {
  it("reads numbers at the digits the bank typed, text cells through the decimal reader, and dates", async () => {
    const wb = await readXlsx("AAA", await workbook());
    const ws = wb.getWorksheet("Rates")!;
    expect(cellDecimal(ws.getCell("B2"))).toBe("20.611");
    expect(cellDecimal(ws.getCell("C2"))).toBe("0.9260"); // padded to the format's 4 decimals
    expect(cellDecimal(ws.getCell("B3"))).toBe("3576.17");
    expect(cellDecimal(ws.getCell("C3"))).toBeUndefined(); // "3.576,17" is no grouped-by-threes number
    expect(cellDecimal(ws.getCell("B4"))).toBe("160.880582"); // float noise removed at 15 digits
    expect(cellDecimal(ws.getCell("C4"))).toBe("41.222"); // a formula's cached result
    expect(cellDecimal(ws.getCell("A4"))).toBeUndefined();
    expect(cellDate(ws.getCell("A2"))).toBe("2026-03-02");
    expect(cellDate(ws.getCell("A3"))).toBe("2026-03-02");
    expect(cellText(ws.getCell("D3"))).toBe("rich text");
  });

  it("refuses an empty body, an HTML page, and a truncated workbook naming the bank", async () => {
    const body = await workbook();
    await expect(readXlsx("AAA", Buffer.alloc(0))).rejects.toThrow(
      "AAA: empty body where an XLSX workbook was expected",
    );
    await expect(readXlsx("AAA", Buffer.from("<html><body>busy</body></html>"))).rejects.toThrow(/an HTML page/);
    await expect(readXlsx("AAA", body.subarray(0, body.length / 2))).rejects.toThrow(/^AAA: malformed or truncated/);
  });

  it("knows number formats and Excel's serial days", () => {
    expect(formatDecimals("#,##0.0000")).toBe(4);
    expect(formatDecimals("0.00;-0.00")).toBe(2);
    expect(formatDecimals("General")).toBeUndefined();
    expect(numberText(1.2345, "0.00", "displayed")).toBe("1.23");
    expect(numberText(1.235, "0.00", "displayed")).toBe("1.24");
    expect(numberText(-1)).toBeUndefined();
    expect(excelSerialDate(46083)).toBe("2026-03-02");
    expect(excelSerialDate(1.5)).toBeUndefined();
  });
});

describe("XLS through SheetJS", () => {
  const xls = () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["Currency", "Rate"],
      ["USD", 6.96],
      ["EUR", "7,575.10"],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "Cotizaciones");
    return XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer;
  };

  it("reads the grid, text, and decimals exactly", () => {
    const wb = readXls("AAA", xls());
    const grid = xlsGrid(wb.Sheets.Cotizaciones!);
    expect(grid.map((row) => xlsText(row[0]))).toEqual(["Currency", "USD", "EUR"]);
    expect(xlsDecimal(grid[1]![1])).toBe("6.96");
    expect(xlsDecimal(grid[2]![1])).toBe("7575.10");
    expect(xlsDecimal(grid[0]![1])).toBeUndefined();
  });

  it("refuses what is not an XLS workbook", () => {
    expect(() => readXls("AAA", Buffer.from("PK\u0003\u0004 a zip"))).toThrow("AAA: not an XLS workbook");
    expect(() => readXls("AAA", xls().subarray(0, 600))).toThrow(/^AAA: malformed or truncated XLS/);
  });
});

describe("PDF text", () => {
  it("reads every run with its position and groups runs into lines", async () => {
    const body = pdfOf([
      [60, 700, "USD"],
      [200, 700, "2 602,0545"],
      [60, 685, "EUR"],
      [200, 685.8, "2 890,1"],
    ]);
    const runs = await pdfTextRuns("AAA", body);
    expect(runs.map((r) => r.text)).toEqual(["USD", "2 602,0545", "EUR", "2 890,1"]);
    expect(pdfLines(runs).map((l) => l.text)).toEqual(["USD 2 602,0545", "EUR 2 890,1"]);
  });

  it("refuses an empty body, an HTML page, and bytes that are not a PDF", async () => {
    await expect(pdfTextRuns("AAA", Buffer.alloc(0))).rejects.toThrow("AAA: empty body where a PDF was expected");
    await expect(pdfTextRuns("AAA", Buffer.from("<!DOCTYPE html><html>"))).rejects.toThrow(/an HTML page/);
    await expect(pdfTextRuns("AAA", Buffer.from("GIF89a"))).rejects.toThrow("AAA: not a PDF document");
  });
});

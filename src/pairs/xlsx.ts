// A pair's or averages' table as a workbook: the CSV's columns in one sheet (bold, frozen header with
// an autofilter), figures as numbers where a double carries them digit for digit (else text, never
// rounded). The package is re-zipped with a fixed timestamp (stableWorkbookBytes) so that the same answer gives the same bytes.
import { loadExcel, stableWorkbookBytes } from "../publish/render-xlsx.js";
import { rateCell } from "../publish/xlsx-cell.js";

const DECIMAL = /^\d+\.\d+$|^\d+$/;
const DATES = new Set(["Date", "Start", "End", "First", "Last", "Period", "Effective Date", "Published At"]);

export async function tableXlsx(
  sheetName: string,
  header: readonly string[],
  rows: readonly string[][],
  stamp: Date,
): Promise<Buffer> {
  const wb = new (await loadExcel()).Workbook();
  wb.creator = "exrates";
  wb.created = wb.modified = stamp;
  const sheet = wb.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = header.map((h) => ({ header: h, width: Math.max(10, h.length + 2) }));
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) {
    const row = sheet.addRow(r.map((v) => v || null));
    r.forEach((v, i) => {
      if (!DECIMAL.test(v) || DATES.has(header[i]!)) return;
      const cell = rateCell(v);
      row.getCell(i + 1).value = cell.value;
      if (cell.numFmt) row.getCell(i + 1).numFmt = cell.numFmt;
    });
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, rows.length + 1), column: header.length } };
  return stableWorkbookBytes(wb, stamp, sheetName);
}

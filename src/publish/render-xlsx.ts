// Latest.xlsx: sheet "Rates" (the CSV columns; bold, frozen header with an
// autofilter; a real date cell; numeric rate; integer unit) and sheet "Bank" (key/value rows).
// The bytes are deterministic: exceljs stamps the current time into the zip entries, so the package
// is re-zipped with the data's own timestamp.
import type ExcelJS from "exceljs";

import { ZipArchive } from "../feed/archive.js";
import type { LatestRatesDocument } from "../types.js";
import { CSV_HEADER, hasWarnings, isPeriodic, rateRows, VALIDITY_HEADER, WARNINGS_COLUMN } from "./render-csv.js";
import { rateCell, WARNINGS_WIDTH } from "./xlsx-cell.js";
import { zipStream } from "./zip.js";

let excel: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded at the first workbook: it takes 0.6 s to load, which every command that imports the
 * publisher paid before (an `exrates import` refusing its file, `exrates anomalies`...), and memory a
 * server that never writes a workbook does not need.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  return (excel ??= import("./exceljs.js").then((module) => module.default));
}

export async function renderXlsx(doc: LatestRatesDocument, bankName: string): Promise<Buffer> {
  const stamp = new Date(doc.publishedAt);
  const wb = new (await loadExcel()).Workbook();
  wb.creator = "exrates";
  wb.lastModifiedBy = "exrates";
  wb.created = stamp;
  wb.modified = stamp;

  const periodic = isPeriodic(doc.frequency);
  const sheet = wb.addWorksheet("Rates", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = [
    { header: CSV_HEADER[0], width: 10 },
    { header: CSV_HEADER[1], width: 15 },
    { header: CSV_HEADER[2], width: 13 },
    { header: CSV_HEADER[3], width: 15 },
    { header: CSV_HEADER[4], width: 18 },
    { header: CSV_HEADER[5], width: 10 },
    ...(periodic ? VALIDITY_HEADER.map((header) => ({ header, width: 12 })) : []),
    ...(hasWarnings(doc) ? [{ header: WARNINGS_COLUMN, width: WARNINGS_WIDTH }] : []),
  ];
  sheet.getRow(1).font = { bold: true };
  const [y, m, d] = doc.effectiveDate.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const dateCell = (iso: string) => {
    const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
    return new Date(Date.UTC(y, m - 1, d));
  };
  for (const [bankId, from, to, , rate, unit, ...more] of rateRows(doc)) {
    const [validFrom, validTo] = periodic ? more : [];
    const rest = periodic ? more.slice(2) : more;
    const validity = validFrom && validTo ? [dateCell(validFrom), dateCell(validTo)] : [];
    const row = sheet.addRow([
      bankId,
      from,
      to,
      date,
      null,
      Number(unit),
      ...validity,
      ...rest.map((text) => text || null),
    ]);
    if (validity.length) row.getCell(7).numFmt = row.getCell(8).numFmt = "yyyy-mm-dd";
    row.getCell(4).numFmt = "yyyy-mm-dd";
    const cell = rateCell(rate!);
    row.getCell(5).value = cell.value;
    if (cell.numFmt) row.getCell(5).numFmt = cell.numFmt;
    row.getCell(6).numFmt = "0";
  }
  const columns = sheet.columns.length;
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, doc.rates.length + 1), column: columns } };

  const info = wb.addWorksheet("Bank");
  info.columns = [{ width: 16 }, { width: 60 }];
  for (const [key, value] of [
    ["Id", doc.bankId],
    ["Name", bankName],
    ["Base Currency", doc.baseCurrency],
    ["Quote Type", doc.quoteType],
    ["Effective Date", doc.effectiveDate],
    ["Published At", doc.publishedAt],
    ["Source URL", doc.sourceUrl],
  ]) {
    info.addRow([key, value]).getCell(1).font = { bold: true };
  }

  return stableWorkbookBytes(wb, stamp, doc.bankId);
}

/**
 * A workbook's bytes with every zip entry stamped `stamp`, in name order: exceljs stamps the current
 * time, so the package is re-zipped by the project's own zip reader and writer (src/feed/archive.ts,
 * src/publish/zip.ts) and the same data gives the same bytes.
 */
export async function stableWorkbookBytes(wb: ExcelJS.Workbook, stamp: Date, label: string): Promise<Buffer> {
  const zip = ZipArchive.open(label, Buffer.from(await wb.xlsx.writeBuffer()), "XLSX workbook");
  const parts = zip.parts.filter((p) => !p.name.endsWith("/")).sort((a, b) => (a.name < b.name ? -1 : 1));
  return Buffer.concat([
    ...zipStream(
      parts.map((p) => ({ name: p.name, data: zip.read(p) })),
      stamp,
    ),
  ]);
}

// Documents of many effective dates (the history endpoints), in the Latest documents' layouts: JSON
// with one key per date in `rates`, XML with one `Rates` element per date (the 1.0 schema allows any
// number), CSV and XLSX with one row per date and currency. JSON, XML and CSV are produced piece by
// piece from the store's chunks, so a ten-year range is never held whole; a one-date document is
// byte for byte what the Latest renderers make of the same data. The rate is always the stored text.
import { stringify as csvStringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import JSZip from "jszip";

import type { HistoryRow } from "../store/history.js";
import type { IsoDate, QuoteType } from "../types.js";
import { CSV_HEADER } from "./render-csv.js";
import { rateCell } from "./render-xlsx.js";
import { XML_NAMESPACE } from "./xsd.js";

export interface HistoryHeader {
  bankId: string;
  baseCurrency: string;
  quoteType: QuoteType;
}

/** One effective date and its rows, sorted by currency. */
export interface HistoryDay {
  date: IsoDate;
  rows: HistoryRow[];
}

/** Groups chunks of rows (sorted by date, then currency) into days; a day may span two chunks. */
export function* daysOf(chunks: Iterable<HistoryRow[]>): Generator<HistoryDay> {
  let day: HistoryDay | undefined;
  for (const chunk of chunks) {
    for (const row of chunk) {
      if (day?.date !== row.effectiveDate) {
        if (day) yield day;
        day = { date: row.effectiveDate, rows: [] };
      }
      day.rows.push(row);
    }
  }
  if (day) yield day;
}

const jsonString = (s: string) => JSON.stringify(s);

/** JSON, two-space indentation as Latest.json: each rate the JSON number whose text is the stored decimal. */
export function* historyJson(header: HistoryHeader, days: Iterable<HistoryDay>): Generator<string> {
  yield `{\n  "bankId": ${jsonString(header.bankId)},\n  "baseCurrency": ${jsonString(header.baseCurrency)},\n  "quoteType": ${jsonString(header.quoteType)},\n  "rates": {`;
  let firstDay = true;
  for (const day of days) {
    let out = `${firstDay ? "" : ","}\n    ${jsonString(day.date)}: {`;
    firstDay = false;
    day.rows.forEach((r, i) => {
      const unit = r.unitMultiplier ? `,\n        "unitMultiplier": ${r.unitMultiplier}` : "";
      out += `${i ? "," : ""}\n      ${jsonString(r.currency)}: {\n        "rate": ${r.rate}${unit}\n      }`;
    });
    yield day.rows.length ? `${out}\n    }` : `${out}}`;
  }
  yield firstDay ? "}\n}\n" : "\n  }\n}\n";
}

const xmlAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** XML in the exrates 1.0 namespace: one `Rates` element per date, valid against the published XSD. */
export function* historyXml(header: HistoryHeader, days: Iterable<HistoryDay>): Generator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<ExchangeRates xmlns="${XML_NAMESPACE}">\n  <BankId>${xmlAttr(header.bankId)}</BankId>\n  <BaseCurrency>${xmlAttr(header.baseCurrency)}</BaseCurrency>\n  <QuoteType>${header.quoteType}</QuoteType>\n`;
  for (const day of days) {
    if (!day.rows.length) {
      yield `  <Rates effectiveDate="${day.date}"/>\n`;
      continue;
    }
    let out = `  <Rates effectiveDate="${day.date}">\n`;
    for (const r of day.rows) {
      const unit = r.unitMultiplier ? ` unitMultiplier="${r.unitMultiplier}"` : "";
      out += `    <Rate currency="${xmlAttr(r.currency)}" value="${xmlAttr(r.rate)}"${unit}/>\n`;
    }
    yield `${out}  </Rates>\n`;
  }
  yield "</ExchangeRates>\n";
}

type CsvRow = [string, string, string, string, string, string];

function csvRows(header: HistoryHeader, day: HistoryDay): CsvRow[] {
  return day.rows.map((r) => {
    const [from, to] =
      header.quoteType === "Direct" ? [r.currency, header.baseCurrency] : [header.baseCurrency, r.currency];
    return [header.bankId, from, to, day.date, r.rate, `1${"0".repeat(r.unitMultiplier)}`];
  });
}

/** CSV with Latest.csv's header and columns, one row per date and currency. */
export function* historyCsv(header: HistoryHeader, days: Iterable<HistoryDay>): Generator<string> {
  yield csvStringify([[...CSV_HEADER]], { record_delimiter: "unix" });
  for (const day of days) if (day.rows.length) yield csvStringify(csvRows(header, day), { record_delimiter: "unix" });
}

export interface HistoryXlsxMeta {
  bankName: string;
  website: string;
  from: IsoDate;
  to: IsoDate;
  /** The newest stored_at of the rows: the zip entries' timestamp, so the bytes depend on the data only. */
  storedAt: string;
}

/** XLSX as Latest.xlsx: sheet "Rates" (one row per date and currency) and sheet "Bank". */
export async function historyXlsx(
  header: HistoryHeader,
  days: Iterable<HistoryDay>,
  meta: HistoryXlsxMeta,
): Promise<Buffer> {
  const stamp = new Date(meta.storedAt || `${meta.to}T00:00:00Z`);
  const wb = new ExcelJS.Workbook();
  wb.creator = "exrates";
  wb.lastModifiedBy = "exrates";
  wb.created = stamp;
  wb.modified = stamp;
  const sheet = wb.addWorksheet("Rates", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = [
    { header: CSV_HEADER[0], width: 10 },
    { header: CSV_HEADER[1], width: 15 },
    { header: CSV_HEADER[2], width: 13 },
    { header: CSV_HEADER[3], width: 15 },
    { header: CSV_HEADER[4], width: 18 },
    { header: CSV_HEADER[5], width: 10 },
  ];
  sheet.getRow(1).font = { bold: true };
  let count = 0;
  for (const day of days) {
    const [y, m, d] = day.date.split("-").map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    for (const [bankId, from, to, , rate, unit] of csvRows(header, day)) {
      const row = sheet.addRow([bankId, from, to, date, null, Number(unit)]);
      row.getCell(4).numFmt = "yyyy-mm-dd";
      const cell = rateCell(rate);
      row.getCell(5).value = cell.value;
      if (cell.numFmt) row.getCell(5).numFmt = cell.numFmt;
      row.getCell(6).numFmt = "0";
      count++;
    }
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, count + 1), column: 6 } };
  const info = wb.addWorksheet("Bank");
  info.columns = [{ width: 16 }, { width: 60 }];
  for (const [key, value] of [
    ["Id", header.bankId],
    ["Name", meta.bankName],
    ["Base Currency", header.baseCurrency],
    ["Quote Type", header.quoteType],
    ["From", meta.from],
    ["To", meta.to],
    ["Stored At", meta.storedAt],
    ["Website", meta.website],
  ]) {
    info.addRow([key, value]).getCell(1).font = { bold: true };
  }
  const raw = Buffer.from(await wb.xlsx.writeBuffer());
  const zip = await JSZip.loadAsync(raw);
  const out = new JSZip();
  for (const name of Object.keys(zip.files).sort()) {
    const entry = zip.files[name]!;
    if (entry.dir) continue;
    out.file(name, await entry.async("uint8array"), { date: stamp, createFolders: false });
  }
  return out.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 6 } });
}

// The history documents read back by independent readers (libxml2 against the XSD, lossless-json,
// papaparse, SheetJS) with the stored digits; a one-date document is byte for byte the Latest one.
import { parseCsv } from "../support/csv.js";
import ExcelJS from "exceljs";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { renderCsv } from "../../src/publish/render-csv.js";
import {
  daysOf,
  historyCsv,
  historyJson,
  historyXlsx,
  historyXlsxStream,
  historyXml,
  type HistoryDay,
  type HistoryHeader,
} from "../../src/publish/render-history.js";
import { renderJson } from "../../src/publish/render-json.js";
import { renderXml } from "../../src/publish/render-xml.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import type { HistoryRow } from "../../src/store/history.js";
import type { LatestRatesDocument } from "../../src/types.js";
import { unzip } from "../support/zip.js";

const cnb: HistoryHeader = { bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" };
const row = (effectiveDate: string, currency: string, rate: string, unitMultiplier = 0): HistoryRow => ({
  effectiveDate,
  currency,
  rate,
  unitMultiplier,
});
const rows: HistoryRow[] = [
  row("2024-12-31", "EUR", "25.185"),
  row("2024-12-31", "HUF", "6.110", 2),
  row("2024-12-31", "XAU", "0.12345678901234567"),
  row("2025-01-02", "EUR", "25.200"),
  row("2025-01-02", "HUF", "6.100", 2),
  row("2025-01-02", "XAU", "403022.367531696"),
];
// Split inside a day: the grouping must join it again.
const days = (): HistoryDay[] => [...daysOf([rows.slice(0, 4), rows.slice(4)])];
const text = (pieces: Iterable<string>) => [...pieces].join("");

describe("one date is the Latest document", () => {
  const doc: LatestRatesDocument = {
    ...cnb,
    effectiveDate: "2024-12-31",
    rates: [
      { currency: "EUR", rate: "25.185" },
      { currency: "HUF", rate: "6.110", unitMultiplier: 2 },
      { currency: "XAU", rate: "0.12345678901234567" },
    ],
    publishedAt: "2025-01-01T00:00:00.000Z",
    sourceUrl: "https://bank.example",
  };
  const one = () => days().slice(0, 1);
  it("in JSON, XML and CSV, byte for byte", () => {
    expect(text(historyJson(cnb, one()))).toBe(renderJson(doc).toString());
    expect(text(historyXml(cnb, one()))).toBe(renderXml(doc).toString());
    expect(text(historyCsv(cnb, one()))).toBe(renderCsv(doc).toString());
  });
  it("with no rate left (a filter) still names the date", () => {
    const empty = [{ date: "2024-12-31", rows: [] }];
    expect(text(historyJson(cnb, empty))).toBe(renderJson({ ...doc, rates: [] }).toString());
    expect(text(historyXml(cnb, empty))).toBe(renderXml({ ...doc, rates: [] }).toString());
  });
});

describe("many dates", () => {
  it("JSON: one key per date, oldest first, every digit as stored", () => {
    const body = text(historyJson(cnb, days()));
    const parsed = parseLossless(body) as {
      rates: Record<string, Record<string, { rate: unknown; unitMultiplier?: unknown }>>;
    };
    expect(Object.keys(parsed.rates)).toEqual(["2024-12-31", "2025-01-02"]);
    const rate = parsed.rates["2024-12-31"]!.XAU!.rate;
    expect(isLosslessNumber(rate) && rate.toString()).toBe("0.12345678901234567");
    expect(String(parsed.rates["2025-01-02"]!.EUR!.rate)).toBe("25.200");
    expect(Number(parsed.rates["2025-01-02"]!.HUF!.unitMultiplier)).toBe(2);
    expect(JSON.parse(body)).toMatchObject({ bankId: "CNB", baseCurrency: "CZK", quoteType: "Direct" });
    expect(JSON.parse(text(historyJson(cnb, [])))).toEqual({ ...cnb, rates: {} });
  });

  it("XML: one Rates element per date, valid against the 1.0 XSD", async () => {
    const xml = text(historyXml(cnb, days()));
    const result = await validateXML({
      xml: [{ fileName: "history.xml", contents: xml }],
      schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
    });
    expect(result.errors).toEqual([]);
    expect([...xml.matchAll(/<Rates effectiveDate="([^"]+)">/g)].map((m) => m[1])).toEqual([
      "2024-12-31",
      "2025-01-02",
    ]);
    expect(xml).toContain('<Rate currency="XAU" value="0.12345678901234567"/>');
    expect(xml).toContain('<Rate currency="HUF" value="6.100" unitMultiplier="2"/>');
  });

  it("CSV: one row per date and currency, From/To by direction", () => {
    expect(parseCsv(text(historyCsv(cnb, days())))).toEqual([
      ["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"],
      ["CNB", "EUR", "CZK", "2024-12-31", "25.185", "1"],
      ["CNB", "HUF", "CZK", "2024-12-31", "6.110", "100"],
      ["CNB", "XAU", "CZK", "2024-12-31", "0.12345678901234567", "1"],
      ["CNB", "EUR", "CZK", "2025-01-02", "25.200", "1"],
      ["CNB", "HUF", "CZK", "2025-01-02", "6.100", "100"],
      ["CNB", "XAU", "CZK", "2025-01-02", "403022.367531696", "1"],
    ]);
    const ecb = { bankId: "ECB", baseCurrency: "EUR", quoteType: "Indirect" as const };
    expect(
      parseCsv(text(historyCsv(ecb, [{ date: "2025-01-02", rows: [row("2025-01-02", "USD", "1.0350")] }])))[1],
    ).toEqual(["ECB", "EUR", "USD", "2025-01-02", "1.0350", "1"]);
  });

  it("XLSX: one row per date and currency, real dates, the digits kept, deterministic bytes", async () => {
    const meta = {
      bankName: "Czech National Bank",
      website: "https://www.cnb.cz",
      from: "2024-12-31",
      to: "2025-01-02",
      storedAt: "2025-01-02T13:31:00.000Z",
    };
    const bytes = await historyXlsx(cnb, days(), meta);
    const wb = XLSX.read(bytes, { cellDates: true, cellNF: true });
    expect(wb.SheetNames).toEqual(["Rates", "Bank"]);
    const sheet = wb.Sheets.Rates!;
    const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(table).toHaveLength(7);
    expect(table[5]).toEqual(["CNB", "HUF", "CZK", new Date(Date.UTC(2025, 0, 2)), 6.1, 100]);
    expect((sheet.E6 as XLSX.CellObject).w).toBe("6.100");
    expect(sheet.E4).toMatchObject({ t: "s", v: "0.12345678901234567" });
    expect(sheet["!autofilter"]).toEqual({ ref: "A1:F7" });
    const again = await historyXlsx(cnb, days(), meta);
    expect(Buffer.compare(bytes, again)).toBe(0);
  });

  it("XLSX: a valid package (CRCs checked) that a second reader opens: frozen bold header, autofilter, formats", async () => {
    const meta = {
      bankName: "A & B <Bank>",
      website: "https://bank.example",
      from: "2024-12-31",
      to: "2025-01-02",
      storedAt: "2025-01-02T13:31:00.000Z",
    };
    const bytes = await historyXlsx(cnb, days(), meta);
    const zip = unzip(bytes);
    expect(zip.names).toContain("xl/worksheets/sheet1.xml");
    expect(zip.text("xl/worksheets/sheet1.xml").length).toBeGreaterThan(0); // read whole, its CRC-32 checked
    expect(zip.date("xl/styles.xml").toISOString()).toBe("2025-01-02T13:31:00.000Z");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(bytes).buffer);
    const sheet = wb.getWorksheet("Rates")!;
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.autoFilter).toBe("A1:F7");
    expect(sheet.getRow(2).getCell(5).value).toBe(25.185);
    expect(sheet.getRow(2).getCell(5).numFmt).toBe("0.000");
    expect(sheet.getRow(4).getCell(5).value).toBe("0.12345678901234567");
    expect(sheet.getRow(3).getCell(6).value).toBe(100);
    expect((sheet.getRow(5).getCell(4).value as Date).toISOString()).toBe("2025-01-02T00:00:00.000Z");
    const bank = wb.getWorksheet("Bank")!;
    expect(bank.getRow(2).values).toEqual([undefined, "Name", "A & B <Bank>"]);
  });

  it("XLSX streamed: many deflate blocks in pieces, CRCs and sizes right, every row read back", () => {
    // ~9,000 rows: the sheet's XML is megabytes, deflated in several blocks, and comes out in pieces.
    const many: HistoryDay[] = [];
    for (let d = 0; d < 300; d++) {
      const date = new Date(Date.UTC(2020, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      many.push({
        date,
        rows: Array.from({ length: 30 }, (_, c) => row(date, `C${String(c).padStart(2, "0")}`, `${c}.${d}01`)),
      });
    }
    const meta = {
      bankName: "Bank",
      website: "",
      from: many[0]!.date,
      to: many.at(-1)!.date,
      storedAt: "2025-01-02T13:31:00.000Z",
    };
    const pieces = [...historyXlsxStream(cnb, many, meta)];
    expect(pieces.length).toBeGreaterThan(10);
    const bytes = Buffer.concat(pieces);
    const sheetXml = unzip(bytes).text("xl/worksheets/sheet1.xml");
    expect(sheetXml.length).toBeGreaterThan(1_000_000);
    const wb = XLSX.read(bytes, { cellNF: true });
    const cells = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Rates!, { header: 1, raw: false });
    expect(cells).toHaveLength(9001);
    expect(cells.slice(1).map((r) => r[4])).toEqual(many.flatMap((d) => d.rows.map((r) => r.rate)));
    expect(wb.Workbook?.Names?.[0]?.Ref).toBe("Rates!$A$1:$F$9001");
  });
});

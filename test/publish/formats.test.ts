// Each published format read back by an independent reader: the XML validated against the XSD by
// libxml2 (xmllint-wasm), the CSV re-parsed by papaparse, the XLSX opened by SheetJS, the JSON checked
// against a JSON Schema of Latest.json by ajv - with every digit as stored.
import { Ajv } from "ajv";
import { parseCsv } from "../support/csv.js";
import { describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import { validateXML } from "xmllint-wasm";

import { renderCsv } from "../../src/publish/render-csv.js";
import { renderBank, renderJson } from "../../src/publish/render-json.js";
import { renderXlsx } from "../../src/publish/render-xlsx.js";
import { renderXml } from "../../src/publish/render-xml.js";
import { EXCHANGE_RATES_XSD } from "../../src/publish/xsd.js";
import { toBankResource } from "../../src/feed/adapter.js";
import type { LatestRatesDocument } from "../../src/types.js";
import { testBank, type LatestJson } from "../support/publish.js";
import { unzip } from "../support/zip.js";

const direct: LatestRatesDocument = {
  bankId: "CNB",
  baseCurrency: "CZK",
  quoteType: "Direct",
  effectiveDate: "2026-03-02",
  rates: [
    { currency: "EUR", rate: "24.170" },
    { currency: "HUF", rate: "6.304", unitMultiplier: 2 },
    { currency: "IDR", rate: "1.233", unitMultiplier: 3 },
    { currency: "XAU", rate: "403022.367531696" },
    { currency: "ZZZ", rate: "0.12345678901234567" },
  ],
  publishedAt: "2026-03-02T13:31:00.000Z",
  sourceUrl: "https://api.cnb.cz/cnbapi/exrates/daily?lang=EN",
};
const indirect: LatestRatesDocument = {
  ...direct,
  bankId: "ECB",
  baseCurrency: "EUR",
  quoteType: "Indirect",
  rates: [{ currency: "USD", rate: "1.0850" }],
};

describe("JSON (Latest.json)", () => {
  const schema = {
    type: "object",
    required: ["bankId", "baseCurrency", "quoteType", "rates"],
    additionalProperties: false,
    properties: {
      bankId: { type: "string", pattern: "^[A-Z][A-Z0-9]{1,9}$" },
      baseCurrency: { type: "string", pattern: "^[A-Z]{3}$" },
      quoteType: { enum: ["Direct", "Indirect"] },
      rates: {
        type: "object",
        minProperties: 1,
        maxProperties: 1,
        propertyNames: { pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
        additionalProperties: {
          type: "object",
          propertyNames: { pattern: "^[A-Z]{3}$" },
          additionalProperties: {
            type: "object",
            required: ["rate"],
            additionalProperties: false,
            properties: {
              rate: { type: "number", exclusiveMinimum: 0 },
              unitMultiplier: { type: "integer", minimum: 1 },
            },
          },
        },
      },
    },
  };

  it("validates against the schema and writes each rate as the bank's decimal, trailing zeros kept", () => {
    const text = renderJson(direct).toString("utf8");
    const validate = new Ajv().compile(schema);
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(text).toContain('"EUR": {\n        "rate": 24.170\n      }');
    expect(text).toContain('"rate": 6.304,\n        "unitMultiplier": 2');
    expect(text).toContain('"rate": 0.12345678901234567');
    expect((JSON.parse(text) as LatestJson).rates["2026-03-02"]?.HUF).toEqual({ rate: 6.304, unitMultiplier: 2 });
  });

  it("writes the Bank resource with every field", () => {
    const bank = JSON.parse(renderBank(toBankResource(testBank("CNB").bank)).toString()) as Record<string, unknown>;
    expect(Object.keys(bank)).toEqual([
      "id",
      "name",
      "dailyUpdateTime",
      "bankCurrency",
      "countryCode",
      "region",
      "timeZone",
      "supportedFrequencies",
      "website",
    ]);
    expect(bank.timeZone).toEqual({
      windowsTimeZoneId: "Central Europe Standard Time",
      ianaTimeZoneName: "Europe/Prague",
    });
    expect(bank.supportedFrequencies).toEqual(["Daily"]);
  });
});

describe("XML (Latest.xml)", () => {
  it("validates against the published XSD with libxml2", async () => {
    for (const doc of [direct, indirect]) {
      const result = await validateXML({
        xml: [{ fileName: "latest.xml", contents: renderXml(doc).toString() }],
        schema: [{ fileName: "exchange-rates-1.0.xsd", contents: EXCHANGE_RATES_XSD }],
      });
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it("carries the exact decimals, the namespace, and the element order", () => {
    const xml = renderXml(direct).toString();
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<ExchangeRates xmlns="urn:exrates:exchange-rates:1.0">\n  <BankId>CNB</BankId>\n  <BaseCurrency>CZK</BaseCurrency>\n  <QuoteType>Direct</QuoteType>\n  <Rates effectiveDate="2026-03-02">',
      ),
    ).toBe(true);
    expect(xml).toContain('<Rate currency="EUR" value="24.170"/>');
    expect(xml).toContain('<Rate currency="HUF" value="6.304" unitMultiplier="2"/>');
  });

  it("is rejected by the XSD when broken (the validator can fail)", async () => {
    const bad = renderXml(direct).toString().replace('value="24.170"', 'value="24,170"');
    const result = await validateXML({
      xml: [{ fileName: "bad.xml", contents: bad }],
      schema: [{ fileName: "x.xsd", contents: EXCHANGE_RATES_XSD }],
    });
    expect(result.valid).toBe(false);
  });
});

describe("CSV (Latest.csv)", () => {
  it("is RFC 4180 UTF-8 without BOM with LF endings, the published header, and Unit as 10^unitMultiplier", () => {
    const bytes = renderCsv(direct);
    expect(bytes[0]).toBe("B".charCodeAt(0));
    const text = bytes.toString("utf8");
    expect(text).not.toContain("\r");
    expect(text.endsWith("\n")).toBe(true);
    expect(parseCsv(text)).toEqual([
      ["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"],
      ["CNB", "EUR", "CZK", "2026-03-02", "24.170", "1"],
      ["CNB", "HUF", "CZK", "2026-03-02", "6.304", "100"],
      ["CNB", "IDR", "CZK", "2026-03-02", "1.233", "1000"],
      ["CNB", "XAU", "CZK", "2026-03-02", "403022.367531696", "1"],
      ["CNB", "ZZZ", "CZK", "2026-03-02", "0.12345678901234567", "1"],
    ]);
  });

  it("puts the base currency in From for an Indirect bank", () => {
    expect(parseCsv(renderCsv(indirect).toString())[1]).toEqual(["ECB", "EUR", "USD", "2026-03-02", "1.0850", "1"]);
  });
});

describe("XLSX (Latest.xlsx: sheets Rates and Bank)", () => {
  it("opens in SheetJS with the CSV's rows, a real date, numeric rates and integer units", async () => {
    const bytes = await renderXlsx(direct, "Czech National Bank");
    const wb = XLSX.read(bytes, { cellDates: true, cellNF: true });
    expect(wb.SheetNames).toEqual(["Rates", "Bank"]);
    const sheet = wb.Sheets.Rates!;
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(rows[0]).toEqual(["BankId", "From Currency", "To Currency", "Effective Date", "Exchange Rate", "Unit"]);
    expect(rows[2]).toEqual(["CNB", "HUF", "CZK", new Date(Date.UTC(2026, 2, 2)), 6.304, 100]);
    const cell = (ref: string) => sheet[ref] as XLSX.CellObject;
    expect(cell("D2").t).toBe("d");
    expect(cell("D2").z).toBe("yyyy-mm-dd");
    expect(cell("E2").t).toBe("n");
    expect(cell("E2").z).toBe("0.000");
    expect(cell("E2").w).toBe("24.170");
    expect(cell("E5").v).toBe(403022.367531696);
    // 17 significant digits do not fit a double: kept as text rather than rounded.
    expect(sheet.E6).toMatchObject({ t: "s", v: "0.12345678901234567" });
    expect(sheet["!autofilter"]).toEqual({ ref: "A1:F6" });
    const bank = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets.Bank!, { header: 1 });
    expect(bank).toContainEqual(["Quote Type", "Direct"]);
    expect(bank).toContainEqual(["Source URL", "https://api.cnb.cz/cnbapi/exrates/daily?lang=EN"]);
  });

  it("has a bold, frozen header row", async () => {
    const zip = unzip(await renderXlsx(direct, "Czech National Bank"));
    const sheetXml = zip.text("xl/worksheets/sheet1.xml");
    expect(sheetXml).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    const styles = zip.text("xl/styles.xml");
    expect(styles).toMatch(/<b\/>/);
  });

  it("is byte-identical for the same data", async () => {
    const a = await renderXlsx(direct, "Czech National Bank");
    await new Promise((r) => setTimeout(r, 1100));
    const b = await renderXlsx(direct, "Czech National Bank");
    expect(Buffer.compare(a, b)).toBe(0);
  });
});

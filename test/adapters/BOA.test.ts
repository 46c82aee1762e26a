import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import boa from "../../adapters/BOA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const PAGE = "https://www.bank-of-algeria.dz/donnees-historiques/";
const XLSX_URL = "https://www.bank-of-algeria.dz/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx";
const parse = (body: Buffer | string, url = XLSX_URL) => boa.parse(Buffer.from(body), { url });
const PAGE_HTML = `<html><body><a href="/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx">Cotation DZD</a></body></html>`;

type Cell = number | string | Date;
/** A workbook in the bank's layout (as test/fixtures/BOA/make-fixture.mjs writes it): title A2, label B4, rows from 5. */
async function workbook(sheets: Array<[name: string, title: string, label: string, rows: Array<[Cell, Cell]>]>) {
  const wb = new ExcelJS.Workbook();
  for (const [name, title, label, rows] of sheets) {
    const ws = wb.addWorksheet(name);
    ws.getCell("A2").value = title;
    ws.mergeCells("A2:B2");
    ws.getCell("B4").value = label;
    rows.forEach(([date, rate], i) => {
      ws.getCell(`A${5 + i}`).value = date;
      if (date instanceof Date) ws.getCell(`A${5 + i}`).numFmt = "dd/mm/yyyy";
      ws.getCell(`B${5 + i}`).value = rate;
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const day = (d: number) => new Date(Date.UTC(2026, 3, d));

describe("BOA adapter", () => {
  it("reads one sheet per currency, the unit from the title, EURO as EUR", async () => {
    expect(await recordsOf(parse(fixture("BOA/Cotation-DZD.xlsx")))).toEqual([
      { effectiveDate: "2026-04-01", currency: "EUR", rate: "153.6719" },
      { effectiveDate: "2026-04-02", currency: "EUR", rate: "153.286" },
      { effectiveDate: "2026-04-01", currency: "JPY", rate: "83.5474", unitMultiplier: 2 },
      { effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" },
      { effectiveDate: "2026-04-02", currency: "USD", rate: "132.9223" },
    ]);
  });

  it("never parses the landing page (navigation), only the workbook", () => {
    expect(boa.navigation?.test(PAGE)).toBe(true);
    expect(boa.navigation?.test(XLSX_URL)).toBe(false);
  });

  itRefusesWhole("BOA", (body) => parse(body), [
    ["the landing page where the workbook was expected", PAGE_HTML],
    ["a truncated workbook", fixture("BOA/Cotation-DZD.xlsx").subarray(0, 3000)],
    ["another bank's workbook", fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")],
  ]);

  it("refuses a sheet whose title and label name two currencies (the layout changed)", async () => {
    const body = await workbook([["USD - DZD", "USD / DZD", "EUR / DZD", [[day(1), 132.7275]]]]);
    await expect(async () => parse(body)).rejects.toThrow(/^BOA: sheet "USD - DZD": title USD and label EUR disagree/);
  });

  const usd = (bad: [Cell, Cell]) =>
    workbook([
      [
        "USD - DZD",
        "USD / DZD",
        "USD / DZD",
        [[day(1), 132.7275], bad, [day(3), 132.9223], ["", ""], ["Source : Banque d'Algérie", ""]],
      ],
    ]);
  it.each([
    ["a figure that is not a number", [day(2), "132,92"], { kind: "bad-rate", rate: "132,92" }],
    ["a date that does not exist", ["31/04/2026", 132.8], { kind: "bad-date", effectiveDate: "31/04/2026" }],
  ] as const)("holds a row with %s and takes the others", async (_what, bad, held) => {
    await expectOneHeld(parse(await usd([...bad])), {
      records: [
        { effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" },
        { effectiveDate: "2026-04-03", currency: "USD", rate: "132.9223" },
      ],
      held: { ...held, currency: "USD", source: 'sheet "USD - DZD" row 6' },
    });
  });

  it("holds a sheet whose currency or unit cannot be established and reads the other sheets", async () => {
    const body = await workbook([
      ["XYZ - DZD", "XYZ / DZD", "XYZ / DZD", [[day(1), 1.5]]],
      ["JPY - DZD", "1,5 JPY / DZD", "JPY / DZD", [[day(1), 83.5474]]],
      ["USD - DZD", "USD / DZD", "USD / DZD", [[day(1), 132.7275]]],
    ]);
    const answer = await answerOf(parse(body));
    expect(answer.records).toEqual([{ effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" }]);
    expect(answer.held.map((h) => [h.kind, h.source])).toEqual([
      ["unknown-currency", 'sheet "XYZ - DZD"'],
      ["unknown-unit", 'sheet "JPY - DZD"'],
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbook exactly (values read off the file by hand)", async () => {
    const r = recording("BOA/002.xlsx");
    const records = await recordsOf(boa.parse(r.body, { url: r.url }));
    const on = (date: string) =>
      Object.fromEntries(records.filter((x) => x.effectiveDate === date).map((x) => [x.currency, x]));
    const day = on("2026-04-01");
    expect(day.USD).toEqual({ effectiveDate: "2026-04-01", currency: "USD", rate: "132.7275" }); // USD - DZD!B6826
    expect(day.EUR).toEqual({ effectiveDate: "2026-04-01", currency: "EUR", rate: "153.6719" }); // EURO - DZD!B6826
    expect(day.JPY).toEqual({ effectiveDate: "2026-04-01", currency: "JPY", rate: "83.5474", unitMultiplier: 2 }); // "100 JPY / DZD"
    expect(day.CNY).toEqual({ effectiveDate: "2026-04-01", currency: "CNY", rate: "19.2963" }); // CNY - DZD!B2666
    expect(on("2026-04-08").CHF?.rate).toBe("167.824"); // CHF - DZD!B6831
    expect(records.some((x) => x.currency === "MRO")).toBe(false); // the MRO sheet holds no rows
    expect(boa.navigation?.test(recording("BOA/001.html").url)).toBe(true);
  });

  it("fetches the landing page (marked navigation), then the workbook it links to", async () => {
    const http = fakeHttp((req) => (req.url === PAGE ? { body: PAGE_HTML } : { body: "" }));
    const docs = await boa.fetch({ kind: "latest" }, { http, env: {} });
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    await boa.fetch({ kind: "range", from: "2020-01-01", to: "2020-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
      `GET ${PAGE}`,
      `GET ${XLSX_URL}`,
    ]);
    const linkless = fakeHttp(() => ({ body: "<html><body>Maintenance</body></html>" }));
    await expect(boa.fetch({ kind: "latest" }, { http: linkless, env: {} })).rejects.toThrow(/^BOA: no link to/);
  });
});

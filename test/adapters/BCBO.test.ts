import * as XLSX from "@e965/xlsx";
import { describe, expect, it } from "vitest";

import bcbo from "../../adapters/BCBO.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const YEARLY = "https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007";
const DAILY = "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2026&qdd=13&qmm=7";
const parse = (body: Buffer | string, url = DAILY) => bcbo.parse(Buffer.from(body), { url });

describe("BCBO adapter", () => {
  it("reads the yearly matrix: the exact mean of VENTA and COMPRA per day and month, empty days skipped", async () => {
    expect(await recordsOf(parse(fixture("BCBO/xls-anio-2007.xls"), YEARLY))).toEqual([
      { effectiveDate: "2007-02-01", currency: "USD", rate: "7.96", derivation: "mean" },
      { effectiveDate: "2007-01-02", currency: "USD", rate: "7.98", derivation: "mean" },
      { effectiveDate: "2007-02-02", currency: "USD", rate: "7.96", derivation: "mean" },
      { effectiveDate: "2007-01-29", currency: "USD", rate: "7.95", derivation: "mean" },
    ]);
  });

  it("reads the matrix's month banners by rule: decorations, misspellings; an ambiguous or repeated banner's days held", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ["AÑO 2007"],
      ["DIAS", "*ENERO", null, "FEBRRO", null, "JUXIO", null, "ENERO", null],
      [null, "VENTA", "COMPRA", "VENTA", "COMPRA", "VENTA", "COMPRA", "VENTA", "COMPRA"],
      [2, 8.03, 7.93, 8.01, 7.91, 8.0, 7.9, 8.1, 7.9],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "COTIZACIONES OFICIALES 2007");
    const body = XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer;
    const answer = await answerOf(parse(body, YEARLY));
    expect(answer.records).toEqual([
      { effectiveDate: "2007-01-02", currency: "USD", rate: "7.98", derivation: "mean" }, // (8.03 + 7.93) / 2
      { effectiveDate: "2007-02-02", currency: "USD", rate: "7.96", derivation: "mean" }, // (8.01 + 7.91) / 2
    ]);
    expect(answer.held.map((h) => [h.kind, h.reason])).toEqual([
      ["bad-date", 'the month banner "JUXIO" could be June or July'],
      ["bad-date", 'the block under "ENERO" lands on the days of "*ENERO": a layout error, not merged'],
    ]);
  });

  it("reads the daily table since 2026-07: the TCO dollar as shown, the Bs-per-unit column, not Ecuador's USD nor the USD-quoted metals", async () => {
    expect(await recordsOf(parse(fixture("BCBO/daily-2026-07-13.xls")))).toEqual([
      { effectiveDate: "2026-07-13", currency: "USD", rate: "10.40" },
      { effectiveDate: "2026-07-13", currency: "ARS", rate: "0.00699" },
      { effectiveDate: "2026-07-13", currency: "COP", rate: "0.00320" },
      { effectiveDate: "2026-07-13", currency: "EUR", rate: "11.87160" },
    ]);
  });

  it("reads the dollar of the older daily layout as the mean of its COMPRA and VENTA columns (documented shape, no recording)", async () => {
    const records = await recordsOf(
      parse(
        fixture("BCBO/daily-old-layout.xls"),
        "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2024&qdd=2&qmm=1",
      ),
    );
    expect(records[0]).toEqual({ effectiveDate: "2024-01-02", currency: "USD", rate: "6.91", derivation: "mean" });
    expect(records).toHaveLength(4);
  });

  itRefusesWhole("BCBO", parse, [
    ["a truncated workbook", fixture("BCBO/daily-2026-07-13.xls").subarray(0, 1500)],
    ["another bank's workbook (XLSX)", fixture("RBF/8.8-Exchange-Rates-Daily.xlsx")],
    ["a yearly workbook where a daily one is expected", fixture("BCBO/xls-anio-2007.xls")],
  ]);

  it("refuses a daily workbook where a yearly one is expected", async () => {
    await expect(async () => parse(fixture("BCBO/daily-2026-07-13.xls"), YEARLY)).rejects.toThrow(/^BCBO: /);
  });

  it("holds a yearly quotation on a day that does not exist (30 February) and takes the others", async () => {
    await expectOneHeld(parse(fixture("BCBO/xls-anio-bad-day.xls"), YEARLY), {
      records: [
        { effectiveDate: "2007-01-02", currency: "USD", rate: "7.98", derivation: "mean" },
        { effectiveDate: "2007-02-02", currency: "USD", rate: "7.96", derivation: "mean" },
        { effectiveDate: "2007-01-30", currency: "USD", rate: "7.96", derivation: "mean" },
      ],
      held: { kind: "bad-date", effectiveDate: "2007-2-30", currency: "USD" },
    });
  });

  it("holds a daily figure that is not a number and takes the other rows", async () => {
    await expectOneHeld(parse(fixture("BCBO/daily-bad-rate.xls")), {
      records: [
        { effectiveDate: "2026-07-13", currency: "USD", rate: "10.40" },
        { effectiveDate: "2026-07-13", currency: "ARS", rate: "0.00699" },
        { effectiveDate: "2026-07-13", currency: "EUR", rate: "11.87160" },
      ],
      held: { kind: "bad-rate", currency: "COP", rate: "0.OO320" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const y = recording("BCBO/001.xls");
    const year = await recordsOf(bcbo.parse(y.body, { url: y.url }));
    const usd = (date: string) => year.find((x) => x.effectiveDate === date)?.rate;
    expect(usd("2007-01-02")).toBe("7.98"); // B8 8.03, C8 7.93
    expect(usd("2007-12-03")).toBe("7.66"); // X9 7.71, Y9 7.61
    expect(usd("2007-01-01")).toBeUndefined(); // B7, C7 empty
    const d = recording("BCBO/002.xls");
    const day = Object.fromEntries(
      (await recordsOf(bcbo.parse(d.body, { url: d.url }))).map((x) => [x.currency, x.rate]),
    );
    expect(day).toMatchObject({
      USD: "10.40",
      ARS: "0.00699",
      COP: "0.00320",
      GBP: "13.93280",
      EUR: "11.87160",
      CNH: "1.53352",
    });
    expect(Object.keys(day)).toHaveLength(23);
    expect(day.XAU ?? day.XAG ?? day.XDR).toBeUndefined();
  });

  it("asks one yearly file per year before 2008 and one daily file per weekday from 2008", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await bcbo.fetch({ kind: "range", from: "2007-12-28", to: "2008-01-04" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007",
      "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2008&qdd=1&qmm=1",
      "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2008&qdd=2&qmm=1",
      "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2008&qdd=3&qmm=1",
      "https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2008&qdd=4&qmm=1",
    ]);
    await bcbo.fetch({ kind: "latest" }, { http, env: {} });
    expect(
      http.seen
        .slice(5)
        .every((r) =>
          r.url.startsWith("https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa="),
        ),
    ).toBe(true);
  });
});

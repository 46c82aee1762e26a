import { describe, expect, it } from "vitest";

import bcv, { quarterlyWorkbooks } from "../../adapters/BCV.js";
import { HttpError } from "../../src/errors.js";
import { isNavigation } from "../../src/ingest/ingest.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp, type SeenRequest } from "../support/http.js";

const FILES = "https://www.bcv.org.ve/sites/default/files/EstadisticasGeneral";
const LISTING = "https://www.bcv.org.ve/estadisticas/tipo-cambio-de-referencia-smc";
const parse = (body: Buffer | string) => bcv.parse(Buffer.from(body), { url: `${FILES}/2_1_2d25_smc.xls` });

/** A fake bank: the two listing pages of the fixtures (a third page repeats the second, as Drupal does). */
const site = (listing: (page: number) => string | undefined = (p) => `BCV/listing-page${Math.min(p, 1)}.html`) =>
  fakeHttp((req: SeenRequest) => {
    if (req.url.startsWith(LISTING)) {
      const file = listing(Number(new URL(req.url).searchParams.get("page")));
      if (file === undefined) throw new HttpError(`${req.url}: HTTP 404`, 404);
      return { body: fixture(file), contentType: "text/html; charset=utf-8" };
    }
    return { body: fixture("BCV/2_1_2d25_smc.xls") };
  });

describe("BCV adapter", () => {
  it("reads every day sheet: the Bs./M.E. Venta (ASK) as shown, under the Fecha Valor; MXP as MXN, dashes skipped", async () => {
    expect(await answerOf(parse(fixture("BCV/2_1_2d25_smc.xls")))).toEqual({
      records: [
        { effectiveDate: "2025-10-15", currency: "EUR", rate: "230.69655942" },
        { effectiveDate: "2025-10-15", currency: "USD", rate: "198.83610000" },
        { effectiveDate: "2025-10-15", currency: "MXN", rate: "10.80927747" },
        { effectiveDate: "2025-10-15", currency: "CUC", rate: "198.83610000" },
        // Friday 10 October prices Monday 13 October.
        { effectiveDate: "2025-10-13", currency: "EUR", rate: "226.56752080" },
        { effectiveDate: "2025-10-13", currency: "USD", rate: "195.30170000" },
      ],
      held: [],
    });
  });

  it("keeps the bolívares of before the 2021 redenomination as published, and leaves the petro out", async () => {
    expect(await recordsOf(parse(fixture("BCV/2_1_2b19_smc.xls")))).toEqual([
      { effectiveDate: "2019-05-06", currency: "USD", rate: "5203.66800000" },
    ]);
  });

  it("holds a figure that is not a number, a code that is no currency, and the rows of a sheet without a Fecha Valor", async () => {
    const { records, held } = await answerOf(parse(fixture("BCV/held-rows.xls")));
    expect(records).toEqual([{ effectiveDate: "2025-10-15", currency: "USD", rate: "198.83610000" }]);
    expect(held).toEqual([
      expect.objectContaining({
        kind: "bad-rate",
        currency: "EUR",
        rate: "230,69O55942",
        source: 'sheet "14102025" row 12',
      }),
      expect.objectContaining({ kind: "unknown-currency", currency: "XYZ", source: 'sheet "14102025" row 13' }),
      expect.objectContaining({ kind: "bad-date", currency: "USD", source: 'sheet "13102025" row 11' }),
    ]);
  });

  itRefusesWhole("BCV", parse, [
    ["a truncated workbook", fixture("BCV/2_1_2d25_smc.xls").subarray(0, 3000)],
    ["another bank's XLS", fixture("BCBO/xls-anio-2007.xls")],
    ["an XLSX", fixture("BCRD/TASA_DOLAR_REFERENCIA_MC.xlsx")],
    ["the listing page", fixture("BCV/listing-page0.html")],
  ]);

  it("refuses a day sheet that has lost the Bs./M.E. table", async () => {
    const XLSX = await import("@e965/xlsx");
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([["Fecha Valor: 15/10/2025"], ["USD", 198.8361]]),
      "14102025",
    );
    const body = XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer;
    await expect(async () => parse(body)).rejects.toThrow(/^BCV: sheet "14102025" has no Bs\.\/M\.E\. Venta \(ASK\)/);
  });

  it("finds each quarter's newest upload on a listing page (a `_NN` re-upload over the stale bare name)", () => {
    const html = fixture("BCV/listing-page0.html").toString();
    expect([...quarterlyWorkbooks(html, `${LISTING}?page=0`)]).toEqual([
      ["2025-4", `${FILES}/2_1_2d25_smc.xls`],
      ["2025-3", `${FILES}/2_1_2c25_smc_58.xls`],
      ["2025-2", `${FILES}/2_1_2b25_smc.xls`],
    ]);
  });

  it("latest: the first listing page (navigation), then the newest quarter's workbook", async () => {
    const http = site();
    const docs = await bcv.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([`${LISTING}?page=0`, `${FILES}/2_1_2d25_smc.xls`]);
    expect(docs.map((d) => d.role)).toEqual(["navigation", undefined]);
    const saved = (url: string) => ({ url, method: "GET" as const, contentType: "", body: Buffer.alloc(0) });
    expect(isNavigation(bcv, saved(`${LISTING}?page=0`))).toBe(true);
    expect(isNavigation(bcv, saved(`${FILES}/2_1_2d25_smc.xls`))).toBe(false);
  });

  it("a range: the quarters of its operation days (a week before it included), paging the listing until found", async () => {
    const http = site();
    await bcv.fetch({ kind: "range", from: "2025-01-05", to: "2025-09-30" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([
      `${LISTING}?page=0`,
      `${LISTING}?page=1`,
      `${FILES}/2_1_2d24_smc.xls`, // 29 December 2024 onwards: the sheets that price early January
      `${FILES}/2_1_2a25_smc.xls`,
      `${FILES}/2_1_2b25_smc.xls`,
      `${FILES}/2_1_2c25_smc_58.xls`,
    ]);
  });

  it("a range: one page is enough when its quarters are on it; a quarter not listed (not published yet) is not asked for", async () => {
    const http = site();
    await bcv.fetch({ kind: "range", from: "2025-10-08", to: "2026-01-10" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([
      `${LISTING}?page=0`,
      `${LISTING}?page=1`, // 2026-1 is on no page: the listing is read to its end (page 2 repeats page 1)
      `${LISTING}?page=2`,
      `${FILES}/2_1_2d25_smc.xls`,
    ]);
  });

  it("asks for the bare quarterly names when the listing answers 404", async () => {
    const http = site(() => undefined);
    await bcv.fetch({ kind: "range", from: "2025-10-08", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([`${LISTING}?page=0`, `${FILES}/2_1_2d25_smc.xls`]);
  });

  it("refuses a listing that links to no workbook (a changed page)", async () => {
    const http = site(() => "BCRP/sbs-ing.json");
    await expect(bcv.fetch({ kind: "latest" }, { http, env: {} })).rejects.toThrow(
      /^BCV: the listing .* no quarterly workbook/,
    );
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BCV/001.xls");
    const { records, held } = await answerOf(bcv.parse(r.body, { url: r.url }));
    expect(held).toEqual([]);
    expect(records).toHaveLength(9 * 21); // 9 sheets of 21 currencies
    const on = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency)?.rate;
    expect(on("2025-10-14", "USD")).toBe("197.24560000"); // sheet 13102025, G15
    expect(on("2025-10-14", "EUR")).toBe("228.09086692"); // G11
    expect(on("2025-10-14", "MXN")).toBe("10.69406432"); // MXP, G26
    expect(on("2025-10-13", "USD")).toBe("195.24910000"); // sheet 10102025 (Friday), valued Monday
    expect(on("2025-10-02", "USD")).toBe("181.30370000"); // sheet 01102025
    expect(records.some((x) => x.effectiveDate === "2025-10-01")).toBe(false);
  });
});

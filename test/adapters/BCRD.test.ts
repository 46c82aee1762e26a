import { describe, expect, it } from "vitest";

import bcrd from "../../adapters/BCRD.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const FILE =
  "https://cdn.bancentral.gov.do/documents/estadisticas/mercado-cambiario/documents/TASA_DOLAR_REFERENCIA_MC.xlsx";
const parse = (body: Buffer | string) => bcrd.parse(Buffer.from(body), { url: FILE });

describe("BCRD adapter", () => {
  it("reads the daily sheet: the exact mean of Compra and Venta as the sheet shows them, not the period sheets", async () => {
    expect(await answerOf(parse(fixture("BCRD/TASA_DOLAR_REFERENCIA_MC.xlsx")))).toEqual({
      records: [
        { effectiveDate: "1991-01-02", currency: "USD", rate: "11.35", derivation: "mean" },
        { effectiveDate: "1991-01-25", currency: "USD", rate: "11.6", derivation: "mean" }, // buying above selling
        { effectiveDate: "1999-03-06", currency: "USD", rate: "15.8800" }, // a Saturday, equal sides: as shown
        { effectiveDate: "2015-07-01", currency: "USD", rate: "44.89695", derivation: "mean" }, // "Jul "
        { effectiveDate: "2019-04-03", currency: "USD", rate: "38.1236", derivation: "mean" }, // 38.0472112 shown 38.0472
        { effectiveDate: "2023-04-20", currency: "USD", rate: "54.5778", derivation: "mean" }, // float noise
      ],
      held: [],
    });
  });

  it("holds the rows whose date or figure cannot be read, skips a row without figures, takes the others", async () => {
    const { records, held } = await answerOf(parse(fixture("BCRD/held-rows.xlsx")));
    expect(records).toEqual([{ effectiveDate: "2023-04-19", currency: "USD", rate: "54.59325", derivation: "mean" }]);
    expect(held).toEqual([
      expect.objectContaining({ kind: "bad-date", effectiveDate: "2023-Abl-20", source: 'sheet "Diaria" row 5' }),
      expect.objectContaining({ kind: "bad-date", effectiveDate: "2023-Feb-30", source: 'sheet "Diaria" row 6' }),
      expect.objectContaining({ kind: "bad-rate", rate: "54.4749 / 54,68O7", source: 'sheet "Diaria" row 7' }),
    ]);
  });

  itRefusesWhole("BCRD", parse, [
    ["a truncated workbook", fixture("BCRD/TASA_DOLAR_REFERENCIA_MC.xlsx").subarray(0, 3000)],
    ["another bank's workbook", fixture("CBS/Historical-Daily-Rates.xlsx")],
    ["an old binary XLS (the frozen .xls)", fixture("BCBO/xls-anio-2007.xls")],
  ]);

  it("fetches the whole-history workbook whatever the range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await bcrd.fetch({ kind: "range", from: "1991-01-02", to: "2026-11-27" }, { http, env: {} });
    await bcrd.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((s) => s.url)).toEqual([FILE, FILE]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BCRD/001.xlsx");
    const { records, held } = await answerOf(bcrd.parse(r.body, { url: r.url }));
    expect(held).toEqual([]);
    expect(records).toHaveLength(8112); // rows 4 to 8115 of Diaria
    const on = (date: string) => records.find((x) => x.effectiveDate === date);
    expect(on("1991-01-02")).toEqual({
      effectiveDate: "1991-01-02",
      currency: "USD",
      rate: "11.35",
      derivation: "mean",
    }); // 11.2 / 11.5
    expect(on("2015-07-01")?.rate).toBe("44.89695"); // "Jul ", 44.842 / 44.9519
    expect(on("2023-04-20")).toEqual({
      effectiveDate: "2023-04-20",
      currency: "USD",
      rate: "54.5778",
      derivation: "mean",
    }); // 54.4749 / 54.6807
  });
});

import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";

import rbnz, { filesFor } from "../../adapters/RBNZ.js";
import { itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const DIR = "https://www.rbnz.govt.nz/-/media/project/sites/rbnz/files/statistics/series/b/b1";
const parse = (body: Buffer | string) => rbnz.parse(Buffer.from(body), { url: `${DIR}/hb1-daily.xlsx` });

/** A Data sheet with the given header rows (label in A, then one value per column) and nothing else. */
async function workbook(rows: Array<Array<string | number | Date | undefined>>, sheet = "Data"): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const GROUP = "Exchange rates (quoted per NZ$)";

describe("RBNZ adapter", () => {
  it("reads every currency column of the Data sheet, as shown (5 decimals), the TWI indices and the holiday left out", async () => {
    expect(await answerOf(parse(fixture("RBNZ/hb1-daily.xlsx")))).toEqual({
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "0.59210" },
        { effectiveDate: "2026-03-02", currency: "JPY", rate: "88.41525" },
        { effectiveDate: "2026-03-02", currency: "IDR", rate: "9950.12" },
        { effectiveDate: "2026-03-03", currency: "USD", rate: "0.59305" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "88.60000" },
        { effectiveDate: "2026-03-03", currency: "IDR", rate: "9961.50" },
      ],
      held: [],
    });
  });

  it("holds a figure that is not a number and the figures of a day whose date is text, and takes the rest", async () => {
    const answer = await answerOf(parse(fixture("RBNZ/held-rows.xlsx")));
    expect(answer.records).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "0.59210" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "88.41525" },
    ]);
    expect(answer.held.map((h) => [h.kind, h.source, h.rate])).toEqual([
      ["bad-rate", 'sheet "Data" row 7 NZD/USD', "0.59x05"],
      ["bad-rate", 'sheet "Data" row 7 NZD/JPY', "-88.6"],
      ["bad-date", 'sheet "Data" row 8 NZD/USD', "0.594"],
      ["bad-date", 'sheet "Data" row 8 NZD/JPY', "88.7"],
    ]);
    expect(answer.held[2]).toMatchObject({ effectiveDate: "3 Feb", reason: '"3 Feb" is not a date' });
  });

  itRefusesWhole("RBNZ", parse, [
    ["a truncated workbook", fixture("RBNZ/hb1-daily.xlsx").subarray(0, 3000)],
    ["a CSV where the workbook was expected", "Date,NZD/USD\n2026-03-02,0.5921\n"],
  ]);

  it.each([
    ["a workbook without a Data sheet", [["Unit", "NZD/USD"]], "Sheet1", /no Data sheet/],
    ["a Data sheet without its header rows", [[new Date(Date.UTC(2026, 2, 2)), 0.5921]], "Data", /before its Unit/],
    [
      "a series in another unit",
      [
        [undefined, GROUP],
        ["Unit", "USD/NZD"],
        ["Series Id", "X"],
      ],
      "Data",
      /USD\/NZD/,
    ],
    [
      "a series not quoted per NZ$",
      [
        [undefined, "Interest rates"],
        ["Unit", "NZD/USD"],
        ["Series Id", "X"],
      ],
      "Data",
      /not a rate quoted per NZ\$/,
    ],
    ["a sheet of notes only", [["Notes"], ["Unit"]], "Data", /no Unit and Series Id rows/],
  ] as const)("refuses %s as a whole", async (_what, rows, sheet, message) => {
    const body = await workbook(
      rows.map((r) => [...r]),
      sheet,
    );
    await expect(async () => parse(body)).rejects.toThrow(message);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded workbooks (values read off the files by hand)", async () => {
    const read = async (file: string) => {
      const r = recording(file);
      return answerOf(rbnz.parse(r.body, { url: r.url }));
    };
    const current = await read("RBNZ/001.xlsx");
    expect(current.held).toEqual([]);
    // 1,164 days from 3 January 2018 to 23 August 2022, 17 currencies each.
    expect(current.records).toHaveLength(1164 * 17);
    expect(current.records[0]).toEqual({ effectiveDate: "2018-01-03", currency: "USD", rate: "0.70950" });
    expect(current.records.at(-1)).toEqual({ effectiveDate: "2022-08-23", currency: "VND", rate: "14498.21950" });
    const archive = await read("RBNZ/002.xlsx");
    expect(archive.held).toEqual([]);
    expect(archive.records[0]).toEqual({ effectiveDate: "1999-01-05", currency: "USD", rate: "0.5390" });
    expect(archive.records.find((r) => r.effectiveDate === "1999-01-25" && r.currency === "JPY")).toEqual({
      effectiveDate: "1999-01-25",
      currency: "JPY",
      rate: "61.35",
    });
  });

  it("fetches the current file for the latest and the files a range touches", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await rbnz.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([`${DIR}/hb1-daily.xlsx`]);
    expect(filesFor("1999-01-05", "2026-03-04")).toEqual([`${DIR}/hb1-daily-1999-2017.xlsx`, `${DIR}/hb1-daily.xlsx`]);
    expect(filesFor("1990-01-01", "1998-12-31")).toEqual([`${DIR}/hb1-daily-1973-1998.xlsx`]);
    expect(filesFor("2020-01-01", "2020-12-31")).toEqual([`${DIR}/hb1-daily.xlsx`]);
    expect(filesFor("2017-12-01", "2018-01-31")).toEqual([`${DIR}/hb1-daily-1999-2017.xlsx`, `${DIR}/hb1-daily.xlsx`]);
  });
});

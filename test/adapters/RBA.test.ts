import { describe, expect, it } from "vitest";

import rba from "../../adapters/RBA.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv";
const parse = (body: Buffer | string) => rba.parse(Buffer.from(body), { url: URL });
const META = "F11.1  EXCHANGE RATES\nTitle,A$1=USD\nUnits,USD\nSeries ID,FXRUSD\n";

describe("RBA adapter", () => {
  it("reads the codes from the Units row, skips the index and blanks, and calls the SDR XDR", async () => {
    expect(await recordsOf(parse(fixture("RBA/f11.1-data.csv")))).toEqual([
      { effectiveDate: "2023-01-03", currency: "USD", rate: "0.6828" },
      { effectiveDate: "2023-01-03", currency: "JPY", rate: "88.48" },
      { effectiveDate: "2023-01-03", currency: "IDR", rate: "10635" },
      { effectiveDate: "2023-01-03", currency: "XDR", rate: "0.5131" },
      { effectiveDate: "2023-01-04", currency: "USD", rate: "0.6810" },
      { effectiveDate: "2023-01-04", currency: "JPY", rate: "89.08" },
      { effectiveDate: "2023-01-04", currency: "IDR", rate: "10634" },
      { effectiveDate: "2023-01-04", currency: "PGK", rate: "2.4012" },
    ]);
  });

  itRefusesWhole("RBA", parse, [
    ["a not-found page", "<!DOCTYPE html><html><body>Page not found</body></html>"],
    ["a truncated body", `${META}03-Jan-2023,0.6828\n04-Jan-2023`],
    [
      "another bank's body",
      "FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,2026-03-16,9.7134\n",
    ],
    ["a title not matching its unit", "Title,A$1=USD\nUnits,JPY\nSeries ID,FXRUSD\n03-Jan-2023,0.6828\n"],
    ["an unclosed quote", `${META}"03-Jan-2023,0.6828\n`],
  ]);

  const meta = "F11.1  EXCHANGE RATES\nTitle,A$1=USD,A$1=JPY\nUnits,USD,JPY\nSeries ID,FXRUSD,FXRJY\n";
  const taken = [
    { effectiveDate: "2023-01-03", currency: "USD", rate: "0.6828" },
    { effectiveDate: "2023-01-03", currency: "JPY", rate: "88.48" },
  ];
  it.each([
    [
      "a date in another format",
      "2023-01-04,0.6810,\n",
      { kind: "bad-date", source: "row 6 (2023-01-04) USD", effectiveDate: "2023-01-04", rate: "0.6810" },
      [],
    ],
    [
      "a 31st of a 30-day month",
      "31-Apr-2023,0.6810,\n",
      { kind: "bad-date", source: "row 6 (31-Apr-2023) USD", effectiveDate: "31-Apr-2023" },
      [],
    ],
    [
      "a value that is not a number",
      "04-Jan-2023,0.68.10,89.08\n",
      { kind: "bad-rate", source: "row 6 (04-Jan-2023) USD", rate: "0.68.10" },
      [{ effectiveDate: "2023-01-04", currency: "JPY", rate: "89.08" }],
    ],
    [
      "a row cut short in the middle of the file",
      "04-Jan-2023,0.6810\n05-Jan-2023,0.6790,89.50\n",
      { kind: "bad-row", source: "row 6 (04-Jan-2023)", effectiveDate: "04-Jan-2023" },
      [
        { effectiveDate: "2023-01-05", currency: "USD", rate: "0.6790" },
        { effectiveDate: "2023-01-05", currency: "JPY", rate: "89.50" },
      ],
    ],
  ] as const)("holds %s and takes the other cells", async (_what, bad, held, more) => {
    await expectOneHeld(parse(`${meta}03-Jan-2023,0.6828,88.48\n${bad}`), { records: [...taken, ...more], held });
  });

  it("holds the cells of a column whose unit is no currency", async () => {
    const body = "Title,A$1=USD,A$1=XYZ\nUnits,USD,XYZ\nSeries ID,FXRUSD,FXRXYZ\n03-Jan-2023,0.6828,1.5\n";
    await expectOneHeld(parse(body), {
      records: [{ effectiveDate: "2023-01-03", currency: "USD", rate: "0.6828" }],
      held: { kind: "unknown-currency", source: "row 4 (03-Jan-2023) XYZ", currency: "XYZ", rate: "1.5" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("RBA/001.csv");
    const records = await recordsOf(rba.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("2023-01-03", "USD")).toEqual({ effectiveDate: "2023-01-03", currency: "USD", rate: "0.6828" });
    expect(find("2023-01-03", "EUR")).toEqual({ effectiveDate: "2023-01-03", currency: "EUR", rate: "0.6400" });
    expect(find("2023-01-03", "XDR")).toEqual({ effectiveDate: "2023-01-03", currency: "XDR", rate: "0.5131" });
    expect(find("2023-01-03", "AED")).toBeUndefined(); // a blank cell
    expect(find("2024-12-04", "CAD")).toEqual({ effectiveDate: "2024-12-04", currency: "CAD", rate: "0.9054" });
    expect(find("2024-12-04", "VND")).toEqual({ effectiveDate: "2024-12-04", currency: "VND", rate: "16354" });
    expect(records.some((x) => x.currency === "Index" || x.currency === "TWI")).toBe(false);
  });

  it("fetches the whole file for the latest and for any range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await rba.fetch({ kind: "latest" }, { http, env: {} });
    await rba.fetch({ kind: "range", from: "2024-01-01", to: "2024-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([URL, URL]);
  });
});

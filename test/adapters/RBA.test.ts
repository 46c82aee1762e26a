import { describe, expect, it } from "vitest";

import rba from "../../adapters/RBA.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://www.rba.gov.au/statistics/tables/csv/f11.1-data.csv";
const parse = (body: Buffer | string) => rba.parse(Buffer.from(body), { url: URL });
const META = "F11.1  EXCHANGE RATES\nTitle,A$1=USD\nUnits,USD\nSeries ID,FXRUSD\n";

describe("RBA adapter", () => {
  it("reads the codes from the Units row, skips the index and blanks, and calls the SDR XDR", async () => {
    expect(await parse(fixture("RBA/f11.1-data.csv"))).toEqual([
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

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>Page not found</body></html>"],
    ["a truncated body", `${META}03-Jan-2023,0.6828\n04-Jan-2023`],
    [
      "another bank's body",
      "FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,2026-03-16,9.7134\n",
    ],
    ["a title not matching its unit", "Title,A$1=USD\nUnits,JPY\nSeries ID,FXRUSD\n03-Jan-2023,0.6828\n"],
    ["a bad date", `${META}2023-01-03,0.6828\n`],
    ["a bad value", `${META}03-Jan-2023,0.68.28\n`],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^RBA: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("RBA/001.csv");
    const records = await rba.parse(r.body, { url: r.url });
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

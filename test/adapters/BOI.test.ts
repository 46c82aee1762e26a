import { describe, expect, it } from "vitest";

import boi from "../../adapters/BOI.js";
import { FeedError } from "../../src/errors.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/?c%5BDATA_TYPE%5D=OF00&format=csv";
const parse = (body: Buffer | string) => boi.parse(Buffer.from(body), { url: URL });
const HEADER =
  "SERIES_CODE,FREQ,BASE_CURRENCY,COUNTER_CURRENCY,UNIT_MEASURE,DATA_TYPE,DATA_SOURCE,TIME_COLLECT,CONF_STATUS,PUB_WEBSITE,UNIT_MULT,COMMENTS,TIME_PERIOD,OBS_VALUE,RELEASE_STATUS";

describe("BOI adapter", () => {
  it("keeps UNIT_MULT as unitMultiplier (JPY per 100, LBP per 10) and skips a blank value", async () => {
    expect(await parse(fixture("BOI/exr.csv"))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "3.0730" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "1.971", unitMultiplier: 2 },
      { effectiveDate: "2026-03-02", currency: "LBP", rate: "0.0003", unitMultiplier: 1 },
    ]);
  });

  it.each([
    ["an empty body", ""],
    ["an HTML page", "<!DOCTYPE html><html><body>The requested URL was rejected</body></html>"],
    [
      "a truncated body",
      `${HEADER}\nRER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02,3.073,YP\nRER_EUR_ILS,D,EUR,"IL`,
    ],
    [
      "another bank's body",
      "FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,2026-03-16,9.7134\n",
    ],
    ["another data type", `${HEADER}\nRER_USD_ILS,D,USD,ILS,ILS,OF01,BOI_MRKT,V,F,Y,0,,2026-03-02,3.073,YP\n`],
    ["a bad value", `${HEADER}\nRER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02,3.07e0,YP\n`],
  ])("rejects %s with an error naming the bank", async (_what, body) => {
    await expect(async () => parse(body)).rejects.toThrow(FeedError);
    await expect(async () => parse(body)).rejects.toThrow(/^BOI: /);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOI/001.csv");
    const records = await boi.parse(r.body, { url: r.url });
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(21);
    expect(find("2026-03-02", "USD")).toEqual({ effectiveDate: "2026-03-02", currency: "USD", rate: "3.073" });
    expect(find("2026-03-05", "EUR")).toEqual({ effectiveDate: "2026-03-05", currency: "EUR", rate: "3.544" });
    expect(find("2026-03-05", "JPY")).toEqual({
      effectiveDate: "2026-03-05",
      currency: "JPY",
      rate: "1.958",
      unitMultiplier: 2,
    });
    expect(find("2026-03-02", "LBP")).toEqual({
      effectiveDate: "2026-03-02",
      currency: "LBP",
      rate: "0.0003",
      unitMultiplier: 1,
    });
  });

  it("asks the representative rates (c[DATA_TYPE]=OF00) over the range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await boi.fetch({ kind: "range", from: "2026-03-01", to: "2026-03-05" }, { http, env: {} });
    await boi.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen[0]!.url).toBe(
      "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/?c%5BDATA_TYPE%5D=OF00&startperiod=2026-03-01&endperiod=2026-03-05&format=csv",
    );
    expect(http.seen[1]!.url).toMatch(
      /\?c%5BDATA_TYPE%5D=OF00&startperiod=\d{4}-\d{2}-\d{2}&endperiod=\d{4}-\d{2}-\d{2}&format=csv$/,
    );
  });
});

import { describe, expect, it } from "vitest";

import boi from "../../adapters/BOI.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://edge.boi.gov.il/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/?c%5BDATA_TYPE%5D=OF00&format=csv";
const parse = (body: Buffer | string) => boi.parse(Buffer.from(body), { url: URL });
const HEADER =
  "SERIES_CODE,FREQ,BASE_CURRENCY,COUNTER_CURRENCY,UNIT_MEASURE,DATA_TYPE,DATA_SOURCE,TIME_COLLECT,CONF_STATUS,PUB_WEBSITE,UNIT_MULT,COMMENTS,TIME_PERIOD,OBS_VALUE,RELEASE_STATUS";

describe("BOI adapter", () => {
  it("keeps UNIT_MULT as unitMultiplier (JPY per 100, LBP per 10) and skips a blank value", async () => {
    expect(await recordsOf(parse(fixture("BOI/exr.csv")))).toEqual([
      { effectiveDate: "2026-03-02", currency: "USD", rate: "3.0730" },
      { effectiveDate: "2026-03-02", currency: "JPY", rate: "1.971", unitMultiplier: 2 },
      { effectiveDate: "2026-03-02", currency: "LBP", rate: "0.0003", unitMultiplier: 1 },
    ]);
  });

  itRefusesWhole("BOI", parse, [
    [
      "a truncated body",
      `${HEADER}\nRER_USD_ILS,D,USD,ILS,ILS,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02,3.073,YP\nRER_EUR_ILS,D,EUR,"IL`,
    ],
    [
      "another bank's body",
      "FREQ,BASE_CUR,QUOTE_CUR,TENOR,DECIMALS,CALCULATED,UNIT_MULT,COLLECTION,TIME_PERIOD,OBS_VALUE\nB,USD,NOK,SP,4,false,0,C,2026-03-16,9.7134\n",
    ],
    ["another data type", `${HEADER}\nRER_USD_ILS,D,USD,ILS,ILS,OF01,BOI_MRKT,V,F,Y,0,,2026-03-02,3.073,YP\n`],
    ["another counter currency", `${HEADER}\nRER_USD_EUR,D,USD,EUR,EUR,OF00,BOI_MRKT,V,F,Y,0,,2026-03-02,0.92,YP\n`],
  ]);

  const line = (currency: string, mult: string, date: string, value: string) =>
    `RER_${currency}_ILS,D,${currency},ILS,ILS,OF00,BOI_MRKT,V,F,Y,${mult},,${date},${value},YP`;
  it.each([
    ["a figure that is not a number", line("EUR", "0", "2026-03-02", "3.07e0"), { kind: "bad-rate", rate: "3.07e0" }],
    [
      "a date that does not exist",
      line("EUR", "0", "2026-02-30", "3.56"),
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
    [
      "a unit multiplier that is not 0-9",
      line("JPY", "x", "2026-03-02", "1.971"),
      { kind: "unknown-unit", currency: "JPY" },
    ],
    [
      "a code that is neither ISO 4217 nor a market code",
      line("QQQ", "0", "2026-03-02", "0.45"),
      { kind: "unknown-currency", currency: "QQQ" },
    ],
  ] as const)("holds %s on its line and takes the others", async (_what, bad, held) => {
    const body = [HEADER, line("USD", "0", "2026-03-02", "3.0730"), bad, line("JPY", "2", "2026-03-03", "1.971")].join(
      "\n",
    );
    await expectOneHeld(parse(body), {
      records: [
        { effectiveDate: "2026-03-02", currency: "USD", rate: "3.0730" },
        { effectiveDate: "2026-03-03", currency: "JPY", rate: "1.971", unitMultiplier: 2 },
      ],
      held: { ...held, source: "line 3" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BOI/001.csv");
    const records = await recordsOf(boi.parse(r.body, { url: r.url }));
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

import { describe, expect, it } from "vitest";

import bbk, { BBK_UNITS, bbkTitleUnits } from "../../adapters/BBK.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL =
  "https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=1998-12-21&endPeriod=1998-12-28";
const parse = (body: Buffer | string) => bbk.parse(Buffer.from(body), { url: URL });

describe("BBK adapter", () => {
  it("reads the batch size from the title (1 000 ITL, 100 ATS) as unitMultiplier and skips '.'", async () => {
    expect(await recordsOf(parse(fixture("BBK/fixings.csv")))).toEqual([
      { effectiveDate: "1998-12-23", currency: "ATS", rate: "14.214", unitMultiplier: 2 },
      { effectiveDate: "1998-12-23", currency: "ITL", rate: "1.0098", unitMultiplier: 3 },
      { effectiveDate: "1998-12-23", currency: "USD", rate: "1.6720" },
      { effectiveDate: "1998-12-28", currency: "USD", rate: "1.6640" },
    ]);
  });

  it("reads the batch from titles and knows every Frankfurt currency", () => {
    expect(bbkTitleUnits("Devisenkurse der Frankfurter Börse / 1 000 ITL = ... DEM / Italien", "ITL")).toBe(1000);
    expect(bbkTitleUnits("Devisenkurse der Frankfurter Börse / 100 JPY = ... DEM / Japan", "JPY")).toBe(100);
    expect(bbkTitleUnits("Devisenkurse der Frankfurter Börse / 100 JPY = ... DEM / Japan", "USD")).toBeUndefined();
    expect(Object.keys(BBK_UNITS)).toHaveLength(18);
  });

  itRefusesWhole("BBK", parse, [
    ["a truncated body", fixture("BBK/fixings.csv").toString().slice(0, 420)],
    [
      "another bank's body",
      "KEY;FREQ;CURRENCY;CURRENCY_DENOM;EXR_TYPE;EXR_SUFFIX;TIME_PERIOD;OBS_VALUE\nEXR.D.USD.EUR.SP00.A;D;USD;EUR;SP00;A;2026-03-02;1.0850\n",
    ],
    [
      "a series against another currency",
      fixture("BBK/fixings.csv")
        .toString()
        .replace(";D;USD;DEM;AA;AC;000;1998-12-28;", ";D;USD;EUR;AA;AC;000;1998-12-28;"),
    ],
  ]);

  it("holds a fixing whose title disagrees with the known batch, and takes the others", async () => {
    await expectOneHeld(parse(fixture("BBK/wrong-unit.csv")), {
      records: [{ effectiveDate: "1998-12-23", currency: "USD", rate: "1.6720" }],
      held: { kind: "unknown-unit", currency: "JPY", effectiveDate: "1998-12-23", rate: "1.4420" },
    });
  });

  it.each([
    ["a figure that is not a number", "1,6720", { kind: "bad-rate", rate: "1,6720" }],
    ["a date that does not exist", null, { kind: "bad-date", effectiveDate: "1998-12-32" }],
  ] as const)("holds %s and takes the other rows", async (_what, figure, held) => {
    const good = fixture("BBK/fixings.csv").toString();
    const bad =
      figure === null
        ? good.replace(";1998-12-28;1.6640;", ";1998-12-32;1.6640;")
        : good.replace(";1998-12-28;1.6640;", `;1998-12-28;${figure};`);
    await expectOneHeld(parse(bad), {
      records: [
        { effectiveDate: "1998-12-23", currency: "ATS", rate: "14.214", unitMultiplier: 2 },
        { effectiveDate: "1998-12-23", currency: "ITL", rate: "1.0098", unitMultiplier: 3 },
        { effectiveDate: "1998-12-23", currency: "USD", rate: "1.6720" },
      ],
      held: { ...held, currency: "USD" },
    });
  });

  it("asks the BBEX3 series for the range (December 1998 for the latest)", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await bbk.fetch({ kind: "latest" }, { http, env: {} });
    await bbk.fetch({ kind: "range", from: "1990-01-01", to: "1994-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=1998-12-01&endPeriod=1998-12-31",
      "GET https://api.statistiken.bundesbank.de/rest/data/BBEX3/D..DEM.AA.AC.000?format=sdmx_csv&startPeriod=1990-01-01&endPeriod=1994-12-31",
    ]);
  });

  it.skipIf(!sharedFeedsPresent)("reads the recorded week exactly (values read off the file by hand)", async () => {
    const r = recording("BBK/001.csv");
    const records = await recordsOf(bbk.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(find("1998-12-21", "ATS")).toEqual({
      effectiveDate: "1998-12-21",
      currency: "ATS",
      rate: "14.214",
      unitMultiplier: 2,
    });
    expect(find("1998-12-24", "ATS")).toBeUndefined();
    expect(find("1998-12-21", "ITL")).toEqual({
      effectiveDate: "1998-12-21",
      currency: "ITL",
      rate: "1.0098",
      unitMultiplier: 3,
    });
    expect(find("1998-12-22", "USD")).toEqual({ effectiveDate: "1998-12-22", currency: "USD", rate: "1.6704" });
    expect(find("1998-12-23", "CHF")).toEqual({
      effectiveDate: "1998-12-23",
      currency: "CHF",
      rate: "122.660",
      unitMultiplier: 2,
    });
    expect(find("1998-12-21", "FRF")).toEqual({
      effectiveDate: "1998-12-21",
      currency: "FRF",
      rate: "29.8210",
      unitMultiplier: 2,
    });
  });
});

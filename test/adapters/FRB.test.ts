import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import frb from "../../adapters/FRB.js";
import type { RateRecord } from "../../src/types.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const DDP = "https://www.federalreserve.gov/datadownload/Output.aspx";
const parse = (body: Buffer | string) => frb.parse(Buffer.from(body), { url: `${DDP}?rel=H10` });
const csv = readFileSync(new URL("../fixtures/FRB/daily.csv", import.meta.url), "utf8");

describe("FRB adapter", () => {
  it("keeps foreign-per-USD series as published, inverts USD-per-EUR, skips ND", async () => {
    expect(await recordsOf(parse(fixture("FRB/daily.csv")))).toEqual([
      // 1 / 1.1790 = 0.84817642069…, 1 / 1.1750 = 0.85106382978…
      { effectiveDate: "2025-12-24", currency: "EUR", rate: "0.8481764207", derivation: "inverted" },
      { effectiveDate: "2025-12-24", currency: "JPY", rate: "155.9800" },
      { effectiveDate: "2025-12-24", currency: "INR", rate: "89.8500" },
      { effectiveDate: "2025-12-26", currency: "EUR", rate: "0.8510638298", derivation: "inverted" },
      { effectiveDate: "2025-12-26", currency: "JPY", rate: "156.0300" },
      { effectiveDate: "2025-12-26", currency: "INR", rate: "89.9100" },
    ]);
  });

  itRefusesWhole("FRB", parse, [
    ["a body without the label rows", csv.split("\n").slice(5).join("\n")],
    ["another bank's body", "KEY,FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,2026-03-02,1.0850\n"],
    ["an unterminated quote", csv.replace('"Time Period"', '"Time Period')],
  ]);

  const all: RateRecord[] = [
    { effectiveDate: "2025-12-24", currency: "EUR", rate: "0.8481764207", derivation: "inverted" },
    { effectiveDate: "2025-12-24", currency: "JPY", rate: "155.9800" },
    { effectiveDate: "2025-12-24", currency: "INR", rate: "89.8500" },
    { effectiveDate: "2025-12-26", currency: "EUR", rate: "0.8510638298", derivation: "inverted" },
    { effectiveDate: "2025-12-26", currency: "JPY", rate: "156.0300" },
    { effectiveDate: "2025-12-26", currency: "INR", rate: "89.9100" },
  ];

  it("holds a figure that is not a number and takes every other figure", async () => {
    await expectOneHeld(parse(csv.replace("155.9800", '"155,98"')), {
      records: all.filter((x) => x.rate !== "155.9800"),
      held: {
        kind: "bad-rate",
        source: "row 7 RXI_N.B.JA",
        effectiveDate: "2025-12-24",
        currency: "JPY",
        rate: "155,98",
      },
    });
  });

  it("holds a day that does not exist", async () => {
    await expectOneHeld(parse(csv.replace("2025-12-25,ND,ND,ND", "2025-11-31,1.1790,ND,ND")), {
      records: all,
      held: { kind: "bad-date", effectiveDate: "2025-11-31", currency: "EUR" },
    });
  });

  it("holds the figures of a daily series whose multiplier is not 1 as of unknown unit", async () => {
    const answer = await answerOf(parse(csv.replace('"Multiplier:","1","1","1"', '"Multiplier:","1","0.01","1"')));
    expect(answer.records).toEqual(all.filter((x) => x.currency !== "JPY"));
    expect(answer.held.map((h) => [h.kind, h.effectiveDate, h.currency, h.rate])).toEqual([
      ["unknown-unit", "2025-12-24", "JPY", "155.9800"],
      ["unknown-unit", "2025-12-26", "JPY", "156.0300"],
    ]);
  });

  it("skips an index series of the package (not a rate) without holding anything", async () => {
    const answer = await answerOf(
      parse(csv.replace('"Currency:_Per_USD","Currency:_Per_USD"', '"Index:_Jan_2006_100","Currency:_Per_USD"')),
    );
    expect(answer.records).toEqual(all.filter((x) => x.currency !== "JPY"));
    expect(answer.held).toEqual([]);
  });

  it.skipIf(!sharedFeedsPresent)(
    "reads the recorded downloads exactly (values read off the files by hand)",
    async () => {
      const read = async (file: string) => {
        const r = recording(file);
        return recordsOf(frb.parse(r.body, { url: r.url }));
      };
      // 001 and 002 hold monthly averages only: no rate of a day.
      expect(await read("FRB/001.csv")).toEqual([]);
      expect(await read("FRB/002.csv")).toEqual([]);
      const cny = await read("FRB/003.csv");
      expect(cny.slice(0, 2)).toEqual([
        { effectiveDate: "2005-10-27", currency: "CNY", rate: "8.0862" },
        { effectiveDate: "2005-10-27", currency: "HKD", rate: "7.7535" },
      ]);
      expect(cny.at(-1)).toEqual({ effectiveDate: "2015-08-21", currency: "HKD", rate: "7.7508" });
      const eur = await read("FRB/004.csv");
      // 2015-12-31: 1.0859 USD per EUR, 1 / 1.0859 = 0.92089511…; 2016-01-01 is ND
      expect(eur.filter((x) => x.effectiveDate >= "2015-12-31")).toEqual([
        { effectiveDate: "2015-12-31", currency: "EUR", rate: "0.92089511", derivation: "inverted" },
        { effectiveDate: "2015-12-31", currency: "HKD", rate: "7.7507" },
      ]);
      const gbp = await read("FRB/005.csv");
      expect(gbp[0]).toEqual({
        effectiveDate: "1971-01-04",
        currency: "GBP",
        rate: "0.4177458434",
        derivation: "inverted",
      });
      expect(gbp.at(-1)).toEqual({
        effectiveDate: "2024-05-31",
        currency: "GBP",
        rate: "0.7850525985",
        derivation: "inverted",
      });
    },
  );

  it("asks the H.10 daily package for the last observations or a date range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await frb.fetch({ kind: "latest" }, { http, env: {} });
    await frb.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      `${DDP}?rel=H10&series=60f32914ab61dfab590e0e470153e3ae&lastobs=10&from=&to=&filetype=csv&label=include&layout=seriescolumn`,
      `${DDP}?rel=H10&series=60f32914ab61dfab590e0e470153e3ae&lastobs=&from=01/01/2025&to=12/31/2025&filetype=csv&label=include&layout=seriescolumn`,
    ]);
  });
});

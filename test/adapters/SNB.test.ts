import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import snb from "../../adapters/SNB.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { recording, sharedFeedsPresent } from "../support/feeds.js";
import { answerOf, fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const RSS = "https://www.snb.ch/public/en/rss/exchangeRates";
const parse = (body: Buffer | string, url = RSS) => snb.parse(Buffer.from(body), { url });
const rss = readFileSync(new URL("../fixtures/SNB/rss.xml", import.meta.url), "utf8");
const monthly =
  '"CubeId";"devkum"\r\n"PublishingDate";"2022-06-01 14:30"\r\n\r\n"Date";"D0";"D1";"Value"\r\n"2001-01";"M0";"EUR1";"1.5291"\r\n';

describe("SNB adapter", () => {
  it("reads the RSS items: unit_mult -2 is per 100, 1 is per 1, trailing zeros kept", async () => {
    expect(await recordsOf(parse(fixture("SNB/rss.xml")))).toEqual([
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "0.9310" },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "0.5060", unitMultiplier: 2 },
    ]);
  });

  it("reads the daily portal CSV with the unit from the series id, and monthly data as no records", async () => {
    const url = "https://data.snb.ch/api/cube/devkua/data/csv/en?fromDate=2025-12-30&toDate=2025-12-31";
    expect(await recordsOf(parse(fixture("SNB/devkua.csv"), url))).toEqual([
      { effectiveDate: "2025-12-30", currency: "EUR", rate: "0.9310" },
      { effectiveDate: "2025-12-30", currency: "JPY", rate: "0.5060", unitMultiplier: 2 },
      { effectiveDate: "2025-12-31", currency: "EUR", rate: "0.9295" },
    ]);
    expect(await answerOf(parse(monthly, "https://data.snb.ch/api/cube/devkum/data/csv/en"))).toEqual({
      records: [],
      held: [],
    });
  });

  itRefusesWhole("SNB", parse, [
    ["an error page", "<!DOCTYPE html><html><body>Error</body></html>"],
    ["a truncated feed", rss.slice(0, 900)],
    [
      "another bank's body",
      '<?xml version="1.0"?><ValCurs Date="02.03.2026" name="Foreign Currency Market"><Valute ID="R01235"><CharCode>USD</CharCode></Valute></ValCurs>',
    ],
    ["another bank's CSV", "KEY,FREQ,CURRENCY,TIME_PERIOD,OBS_VALUE\nEXR.D.USD.EUR.SP00.A,D,USD,2026-03-02,1.0850\n"],
    ["a portal CSV without its Date/Value header", '"CubeId";"devkua"\r\n"PublishingDate";"2025-12-31 14:30"\r\n'],
  ]);

  const eur = { effectiveDate: "2025-12-30", currency: "EUR", rate: "0.9310" };
  const jpy = { effectiveDate: "2025-12-30", currency: "JPY", rate: "0.5060", unitMultiplier: 2 };
  it.each([
    [
      "an unknown unit_mult",
      rss.replace("<cb:unit_mult>-2</cb:unit_mult>", "<cb:unit_mult>3</cb:unit_mult>"),
      [eur],
      { kind: "unknown-unit", source: "item 2 (JPY)", currency: "JPY", rate: "0.5060" },
    ],
    [
      "a price not in CHF",
      rss.replace("<cb:unit>CHF</cb:unit>", "<cb:unit>EUR</cb:unit>"),
      [jpy],
      { kind: "unknown-unit", source: "item 1 (EUR)", currency: "EUR" },
    ],
    [
      "a value that is not a number",
      rss.replace("<cb:value>0.9310</cb:value>", "<cb:value>0,9310</cb:value>"),
      [jpy],
      { kind: "bad-rate", source: "item 1 (EUR)", rate: "0,9310" },
    ],
  ] as const)("holds an RSS item with %s and takes the others", async (_what, body, records, held) => {
    await expectOneHeld(parse(body), { records: [...records], held });
  });

  it("holds a portal CSV line whose date does not exist and takes the others", async () => {
    const url = "https://data.snb.ch/api/cube/devkua/data/csv/en?fromDate=2025-12-30&toDate=2025-12-31";
    const csv = fixture("SNB/devkua.csv").toString().replace('"2025-12-31";"EUR1"', '"2025-12-32";"EUR1"');
    await expectOneHeld(parse(csv, url), {
      records: [eur, jpy],
      held: { kind: "bad-date", source: "row 7 (2025-12-32 EUR1)", effectiveDate: "2025-12-32", rate: "0.9295" },
    });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recordings exactly (values read off the files by hand)", async () => {
    const r = recording("SNB/002.xml");
    expect(await recordsOf(snb.parse(r.body, { url: r.url }))).toEqual([
      { effectiveDate: "2024-11-12", currency: "EUR", rate: "0.9378" },
      { effectiveDate: "2024-11-12", currency: "JPY", rate: "0.5727", unitMultiplier: 2 },
    ]);
    // Monthly averages and month-end figures are not the rates of a day.
    for (const file of ["SNB/001.csv", "SNB/003.csv"]) {
      const m = recording(file);
      expect(await answerOf(snb.parse(m.body, { url: m.url }))).toEqual({ records: [], held: [] });
    }
  });

  it("asks the RSS for the latest and the daily cube for a range", async () => {
    const http = fakeHttp(() => ({ body: "" }));
    await snb.fetch({ kind: "latest" }, { http, env: {} });
    await snb.fetch({ kind: "range", from: "2025-01-01", to: "2025-12-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      RSS,
      "https://data.snb.ch/api/cube/devkua/data/csv/en?fromDate=2025-01-01&toDate=2025-12-31",
    ]);
  });
});

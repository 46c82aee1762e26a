import { existsSync, readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import bnr from "../../adapters/BNR.js";
import { expectOneHeld, itRefusesWhole } from "../support/adapter-cases.js";
import { FEEDS_DIR, recording, sharedFeedsPresent } from "../support/feeds.js";
import { fixture, recordsOf } from "../support/fixtures.js";
import { fakeHttp } from "../support/http.js";

const URL = "https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml";
const parse = (body: Buffer | string) => bnr.parse(Buffer.from(body), { url: URL });

describe("BNR adapter", () => {
  it("keeps multiplier 100 as unitMultiplier 2 and converts gold per gram to the troy ounce", async () => {
    // 621.3365 x 31.1034768 = 19325.7254127432
    expect(await recordsOf(parse(fixture("BNR/nbrfxrates2026.xml")))).toEqual([
      { effectiveDate: "2026-01-05", currency: "EUR", rate: "5.0905" },
      { effectiveDate: "2026-01-05", currency: "HUF", rate: "1.3247", unitMultiplier: 2 },
      { effectiveDate: "2026-01-05", currency: "INR", rate: "0.0480" },
      { effectiveDate: "2026-01-05", currency: "XAU", rate: "19325.7254127432", derivation: "per-troy-ounce" },
      { effectiveDate: "2026-01-06", currency: "EUR", rate: "5.0910" },
    ]);
  });

  itRefusesWhole("BNR", parse, [
    [
      "a truncated file",
      '<?xml version="1.0" encoding="utf-8"?><DataSet><Body><OrigCurrency>RON</OrigCurrency><Cube date="2026-01-05"><Rate currency="EUR">5.09',
    ],
    [
      "another bank's body",
      '<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube><Cube time="2026-01-05"><Cube currency="USD" rate="1.17"/></Cube></Cube></gesmes:Envelope>',
    ],
    [
      "another base currency",
      '<DataSet><Body><OrigCurrency>EUR</OrigCurrency><Cube date="2026-01-05"><Rate currency="USD">1.17</Rate></Cube></Body></DataSet>',
    ],
  ]);

  const file = (cubes: string) => `<DataSet><Body><OrigCurrency>RON</OrigCurrency>${cubes}</Body></DataSet>`;
  const good =
    '<Cube date="2026-01-05"><Rate currency="EUR">5.0905</Rate><Rate currency="HUF" multiplier="100">1.3247</Rate></Cube>';
  const taken = [
    { effectiveDate: "2026-01-05", currency: "EUR", rate: "5.0905" },
    { effectiveDate: "2026-01-05", currency: "HUF", rate: "1.3247", unitMultiplier: 2 },
  ];
  it.each([
    [
      "a multiplier that is not a whole number",
      '<Cube date="2026-01-06"><Rate currency="HUF" multiplier="x">1.3</Rate></Cube>',
      { kind: "unknown-unit", currency: "HUF", source: '<Cube date="2026-01-06"> <Rate currency="HUF">' },
    ],
    [
      "a figure with a decimal comma",
      '<Cube date="2026-01-06"><Rate currency="EUR">5,09</Rate></Cube>',
      { kind: "bad-rate", rate: "5,09", source: '<Cube date="2026-01-06"> <Rate currency="EUR">' },
    ],
    [
      "a date that does not exist",
      '<Cube date="2026-02-30"><Rate currency="EUR">5.09</Rate></Cube>',
      { kind: "bad-date", effectiveDate: "2026-02-30" },
    ],
    [
      "a code that is not ISO 4217",
      '<Cube date="2026-01-06"><Rate currency="EURO">5.09</Rate></Cube>',
      { kind: "unknown-currency", currency: "EURO" },
    ],
    [
      "gold per 100 grams",
      '<Cube date="2026-01-06"><Rate currency="XAU" multiplier="100">62133.65</Rate></Cube>',
      { kind: "unknown-unit", currency: "XAU" },
    ],
  ] as const)("holds %s and takes the other rates", async (_what, bad, held) => {
    await expectOneHeld(parse(file(good + bad)), { records: taken, held });
  });

  it.skipIf(!sharedFeedsPresent)("reads the recording exactly (values read off the file by hand)", async () => {
    const r = recording("BNR/001.xml");
    const records = await recordsOf(bnr.parse(r.body, { url: r.url }));
    const find = (date: string, currency: string) =>
      records.find((x) => x.effectiveDate === date && x.currency === currency);
    expect(records).toHaveLength(94 * 37);
    expect(find("2026-01-05", "EUR")).toEqual({ effectiveDate: "2026-01-05", currency: "EUR", rate: "5.0905" });
    expect(find("2026-01-05", "IDR")).toEqual({
      effectiveDate: "2026-01-05",
      currency: "IDR",
      rate: "0.0260",
      unitMultiplier: 2,
    });
    expect(find("2026-05-21", "JPY")).toEqual({
      effectiveDate: "2026-05-21",
      currency: "JPY",
      rate: "2.8365",
      unitMultiplier: 2,
    });
    // 657.1338 x 31.1034768 = 20439.14590279584
    expect(find("2026-05-21", "XAU")).toEqual({
      effectiveDate: "2026-05-21",
      currency: "XAU",
      rate: "20439.14590279584",
      derivation: "per-troy-ounce",
    });
  });

  const daily = `${FEEDS_DIR}/../feeds-next/BNR/1.xml`;
  it.skipIf(!existsSync(daily))(
    "also reads the older daily file layout (feeds-next, values read off the file by hand)",
    async () => {
      const body = readFileSync(daily);
      const records = await recordsOf(bnr.parse(body, { url: "https://www.bnr.ro/nbrfxrates.xml" }));
      expect(records.find((x) => x.currency === "AUD")).toEqual({
        effectiveDate: "2016-12-02",
        currency: "AUD",
        rate: "3.1465",
      });
    },
  );

  it("asks one yearly file per calendar year of the range, and the current year for the latest", async () => {
    const http = fakeHttp(() => ({ body: "<DataSet/>" }));
    await bnr.fetch({ kind: "range", from: "2025-12-01", to: "2026-01-31" }, { http, env: {} });
    expect(http.seen.map((r) => r.url)).toEqual([
      "https://curs.bnr.ro/files/xml/years/nbrfxrates2025.xml",
      "https://curs.bnr.ro/files/xml/years/nbrfxrates2026.xml",
    ]);
    await bnr.fetch({ kind: "latest" }, { http, env: {} });
    expect(http.seen.at(-1)!.url).toMatch(/^https:\/\/curs\.bnr\.ro\/files\/xml\/years\/nbrfxrates\d{4}\.xml$/);
  });
});
